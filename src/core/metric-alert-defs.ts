// Metric alerts, pure: the aggregates Faultline can alert on (Sentry's strings), the datasets they read, the query
// terms each dataset understands, and the state machine of a rule's triggers (Sentry's subscription processor:
// critical and warning triggers, a resolve threshold that defaults to the alert threshold).

export type MetricDataset = "events" | "transactions" | "sessions";
export type ThresholdType = 0 | 1;
export const THRESHOLD_ABOVE = 0;
export const THRESHOLD_BELOW = 1;
export type MetricStatus = "resolved" | "warning" | "critical";

/** What an aggregate computes; storage/kysely/metric-values.ts computes each on both dialects. */
export type AggregateKind =
  | { kind: "count" }
  | { kind: "users" }
  | { kind: "crash_free_sessions" }
  | { kind: "crash_free_users" }
  | { kind: "percentile"; quantile: number }
  | { kind: "failure_rate" }
  | { kind: "apdex"; threshold: number };

export const CRASH_FREE_SESSIONS = "percentage(sessions_crashed, sessions) AS _crash_rate_alert_aggregate";
export const CRASH_FREE_USERS = "percentage(users_crashed, users) AS _crash_rate_alert_aggregate";

/** The aggregates offered in the editor, with the dataset each reads. */
export const AGGREGATES: readonly { aggregate: string; dataset: MetricDataset }[] = [
  { aggregate: "count()", dataset: "events" },
  { aggregate: "count_unique(user)", dataset: "events" },
  { aggregate: CRASH_FREE_SESSIONS, dataset: "sessions" },
  { aggregate: CRASH_FREE_USERS, dataset: "sessions" },
  { aggregate: "p50(transaction.duration)", dataset: "transactions" },
  { aggregate: "p75(transaction.duration)", dataset: "transactions" },
  { aggregate: "p95(transaction.duration)", dataset: "transactions" },
  { aggregate: "failure_rate()", dataset: "transactions" },
  { aggregate: "apdex(300)", dataset: "transactions" },
];

/** Apdex's T, milliseconds: Sentry's apdex(N) takes any; Faultline takes 1 ms to 1 minute. */
const MAX_APDEX_T_MS = 60_000;

/** An aggregate string as Sentry writes it (spaces between arguments tolerated) → what it computes; null if unknown. */
export function parseAggregate(raw: string): { aggregate: string; dataset: MetricDataset; kind: AggregateKind } | null {
  const s = raw.trim().replace(/\s+/g, " ");
  const crash = /^percentage\( ?(sessions|users)_crashed, ?(sessions|users) ?\)(?: AS _crash_rate_alert_aggregate)?$/i.exec(s);
  if (crash && crash[1]!.toLowerCase() === crash[2]!.toLowerCase()) {
    const users = crash[1]!.toLowerCase() === "users";
    return {
      aggregate: users ? CRASH_FREE_USERS : CRASH_FREE_SESSIONS,
      dataset: "sessions",
      kind: { kind: users ? "crash_free_users" : "crash_free_sessions" },
    };
  }
  const compact = s.replace(/ /g, "").toLowerCase();
  if (compact === "count()") return { aggregate: "count()", dataset: "events", kind: { kind: "count" } };
  if (compact === "count_unique(user)" || compact === "count_unique(tags[sentry:user])")
    return { aggregate: "count_unique(user)", dataset: "events", kind: { kind: "users" } };
  if (compact === "failure_rate()") return { aggregate: "failure_rate()", dataset: "transactions", kind: { kind: "failure_rate" } };
  const p = /^p(50|75|95)\(transaction\.duration\)$/.exec(compact);
  if (p) return { aggregate: `p${p[1]}(transaction.duration)`, dataset: "transactions", kind: { kind: "percentile", quantile: Number(p[1]) / 100 } };
  const a = /^apdex\((\d{1,5})\)$/.exec(compact);
  if (a && Number(a[1]) >= 1 && Number(a[1]) <= MAX_APDEX_T_MS)
    return { aggregate: `apdex(${Number(a[1])})`, dataset: "transactions", kind: { kind: "apdex", threshold: Number(a[1]) } };
  return null;
}

/** Sentry's dataset names → the one Faultline reads ("metrics" and "generic_metrics" are where Sentry keeps the same). */
export function normalizeDataset(raw: string): MetricDataset | null {
  switch (raw) {
    case "events":
    case "errors":
      return "events";
    case "transactions":
    case "generic_metrics":
      return "transactions";
    case "sessions":
    case "metrics":
      return "sessions";
    default:
      return null;
  }
}

/** The query terms each dataset understands, and the column each narrows. */
export const QUERY_KEYS: Record<MetricDataset, readonly string[]> = {
  events: ["level", "release", "event.type"],
  transactions: ["transaction", "release"],
  sessions: ["release"],
};

export type QueryFilter = { key: string; value: string };

/**
 * Sentry's search syntax, the part metric alerts use here: whitespace-separated `key:value` terms, a value quoted
 * with "…" when it holds spaces; every key at most once. Returns the filters, or the reason the query is refused.
 */
export function parseMetricQuery(query: string, dataset: MetricDataset): QueryFilter[] | string {
  const filters: QueryFilter[] = [];
  const term = /\s*([a-z][a-z._]*):(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))\s*/gy;
  let at = 0;
  const text = query.trim();
  while (at < text.length) {
    term.lastIndex = at;
    const m = term.exec(text);
    if (!m) return `Cannot read the query at "${text.slice(at, at + 20)}": use key:value terms`;
    const key = m[1]!;
    const value = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3]!;
    if (!QUERY_KEYS[dataset].includes(key)) return `The ${dataset} dataset cannot be narrowed by "${key}" (known: ${QUERY_KEYS[dataset].join(", ")})`;
    if (filters.some((f) => f.key === key)) return `"${key}" appears more than once`;
    if (value.length === 0) return `"${key}" needs a value`;
    filters.push({ key, value });
    at = term.lastIndex;
  }
  return filters;
}

export type MetricTrigger<A> = { label: "critical" | "warning"; alertThreshold: number; actions: A[] };
export type ThresholdSpec = {
  thresholdType: ThresholdType;
  resolveThreshold: number | null;
  triggers: readonly { label: "critical" | "warning"; alertThreshold: number }[];
};

/**
 * Sentry adds this to a trigger's own threshold when it resolves at it, so that "above 0" does not resolve at 0 at
 * once (its comparisons are strict).
 */
const RESOLVE_EPSILON = 0.000001;

/**
 * Where a trigger resolves (Sentry's calculate_resolve_threshold): the rule's resolve threshold for the lowest
 * severity trigger (the warning, or the only trigger); otherwise the trigger's own threshold.
 */
export function resolveThresholdOf(spec: ThresholdSpec, label: "critical" | "warning"): number {
  const trigger = spec.triggers.find((t) => t.label === label)!;
  const lowest = spec.triggers.length === 1 || label === "warning";
  if (spec.resolveThreshold !== null && lowest) return spec.resolveThreshold;
  return trigger.alertThreshold + (spec.thresholdType === THRESHOLD_ABOVE ? -RESOLVE_EPSILON : RESOLVE_EPSILON);
}

export type Transition = { from: MetricStatus; to: MetricStatus; threshold: number; trigger: "critical" | "warning" };

/**
 * One evaluation: the rule's status, the window's value → the new status, and the threshold crossed and trigger
 * whose actions are told (the trigger that now applies; for "resolved", the one that had fired). Null when the status
 * stays, or when there is no value (no sessions, no transactions in the window: nothing to judge).
 *
 * Each trigger is active or not, as in Sentry: an inactive trigger fires when the value passes its alert threshold
 * (strictly), an active one resolves when the value passes back over its resolve threshold (strictly). Critical implies
 * warning (its threshold lies beyond the warning's), so a critical rule with a warning trigger falls to "warning" when
 * the value drops below the critical threshold and stays above the resolve threshold.
 */
export function nextStatus(spec: ThresholdSpec, status: MetricStatus, value: number | null): Transition | null {
  if (value === null || !Number.isFinite(value)) return null;
  const above = spec.thresholdType === THRESHOLD_ABOVE;
  const passes = (v: number, x: number) => (above ? v > x : v < x);
  const backOver = (v: number, x: number) => (above ? v < x : v > x);
  const critical = spec.triggers.find((t) => t.label === "critical");
  const warning = spec.triggers.find((t) => t.label === "warning");
  const step = (label: "critical" | "warning", active: boolean): boolean => {
    const t = label === "critical" ? critical : warning;
    if (!t) return false;
    return active ? !backOver(value, resolveThresholdOf(spec, label)) : passes(value, t.alertThreshold);
  };
  const criticalNow = step("critical", status === "critical");
  const warningNow = step("warning", status === "critical" || status === "warning");
  const to: MetricStatus = criticalNow ? "critical" : warningNow ? "warning" : "resolved";
  if (to === status) return null;
  if (to === "resolved") {
    const fired = status === "critical" && critical ? "critical" : "warning";
    return { from: status, to, trigger: fired, threshold: spec.resolveThreshold ?? spec.triggers.find((t) => t.label === fired)!.alertThreshold };
  }
  return { from: status, to, trigger: to, threshold: spec.triggers.find((t) => t.label === to)!.alertThreshold };
}

/** The UTC minute an instant falls in, as ISO ("2026-11-23T10:42:00.000Z"). */
export const minuteOf = (ms: number): string => new Date(Math.floor(ms / 60_000) * 60_000).toISOString();
