// Metric alerts' evaluation (issue 17): once a minute, each rule's aggregate over its window that ended at the start of
// the minute, the trigger state machine (core/metric-alert-defs.ts nextStatus), and on each change of state one
// outbox row per action of the trigger that applies (source metric_alert). Several processes on one database may run
// this: a rule's minute is claimed in the transaction that records it (storage recordMetricEvaluation), and each
// row's idempotency key names the rule, the new state and the minute, so a minute is judged and notified once.
import { METRIC_ALERT_LIMITS } from "../config/limits";
import { minuteOf, nextStatus, parseAggregate, parseMetricQuery } from "../core/metric-alert-defs";
import type { DueMetricAlert, MetricAlertRule, MetricDecision } from "../storage/metric-alert-ports";
import type { MetricNotificationPayload, NewNotification } from "../storage/notification-ports";
import type { Store } from "../storage/ports";

/** The dashboard's default locale (i18n/routing.ts), in the links notifications carry. */
const LINK_LOCALE = "en";

export type EvaluationOptions = {
  /** Public URL and base path, e.g. "https://faultline.example.com/monitor". */
  baseUrl: string;
  /** The instant of the pass (epoch ms); its minute is the one evaluated. */
  now?: number;
};

export type PassResult = { evaluated: number; changes: number; notifications: number };

export const metricAlertUrl = (baseUrl: string, orgSlug: string, ruleId: number) => `${baseUrl}/${LINK_LOCALE}/orgs/${orgSlug}/alerts/metric/${ruleId}`;

/** The decision for one rule as claimed, given its value: the new state, its history entry and its notifications. */
export function decide(
  rule: MetricAlertRule,
  org: DueMetricAlert["organization"],
  value: number | null,
  minute: string,
  baseUrl: string,
): MetricDecision | null {
  const t = nextStatus(rule, rule.status, value);
  if (!t) return null;
  const trigger = rule.triggers.find((x) => x.label === t.trigger);
  const payload: MetricNotificationPayload = {
    kind: "metric",
    ruleName: rule.name,
    status: t.to,
    value,
    threshold: t.threshold,
    aggregate: rule.aggregate,
    timeWindow: rule.timeWindow,
    organization: { id: org.id, slug: org.slug, name: org.name },
    project: rule.project,
    url: metricAlertUrl(baseUrl, org.slug, rule.id),
  };
  const notifications: NewNotification[] = (trigger?.actions ?? []).map((action, i) => ({
    organizationId: org.id,
    projectId: rule.project?.id ?? null,
    source: "metric_alert",
    ruleId: rule.id,
    issueId: null,
    action,
    payload,
    idempotencyKey: `metric_alert:${rule.id}:${t.to}:${minute}:action:${i}`,
    createdAt: minute,
  }));
  return { status: t.to, change: { changedAt: minute, from: t.from, to: t.to, value, threshold: t.threshold }, notifications };
}

/** One pass: every rule not yet evaluated for the current minute. */
export async function evaluateMetricAlerts(store: Store, options: EvaluationOptions): Promise<PassResult> {
  const now = options.now ?? Date.now();
  const minute = minuteOf(now);
  const due = await store.listDueMetricAlerts(minute, METRIC_ALERT_LIMITS.rulesPerPass);
  const result: PassResult = { evaluated: 0, changes: 0, notifications: 0 };
  for (const rule of due) {
    const parsed = parseAggregate(rule.aggregate);
    const filters = parseMetricQuery(rule.query, rule.dataset);
    // Rules are validated when saved; one that no longer reads (an aggregate dropped by an upgrade) keeps its state.
    if (!parsed || typeof filters === "string") continue;
    const end = Date.parse(minute);
    const value = await store.computeMetricValue({
      organizationId: rule.organizationId,
      projectId: rule.project?.id ?? null,
      kind: parsed.kind,
      filters,
      environment: rule.environment,
      start: new Date(end - rule.timeWindow * 60_000).toISOString(),
      end: minute,
    });
    const r = await store.recordMetricEvaluation(rule.id, minute, value, new Date(now).toISOString(), (claimed) =>
      decide(claimed, rule.organization, value, minute, options.baseUrl),
    );
    if (!r.claimed) continue;
    result.evaluated++;
    if (r.change) result.changes++;
    result.notifications += r.notificationsAdded;
  }
  return result;
}

/**
 * Runs a pass a few seconds into every minute (the digest commits the minute's last batches meanwhile), one pass at a
 * time; a failing pass is logged and the next minute tries again. `onNotifications` wakes the sender.
 */
export function startMetricEvaluator(
  store: Store,
  options: { baseUrl: string; log: (line: string) => void; onNotifications?: (n: number) => void },
): { stop: () => void } {
  const OFFSET_MS = 5_000;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    const interval = METRIC_ALERT_LIMITS.evaluationIntervalMs;
    const wait = interval - (Date.now() % interval) + OFFSET_MS;
    timer = setTimeout(run, wait);
    timer.unref();
  };
  const run = async () => {
    try {
      const r = await evaluateMetricAlerts(store, { baseUrl: options.baseUrl });
      if (r.notifications > 0) options.onNotifications?.(r.notifications);
    } catch (err) {
      options.log(`faultline: metric alerts not evaluated this minute: ${String((err as Error)?.message ?? err).split("\n", 1)[0]}`);
    }
    schedule();
  };
  schedule();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
