// A project's performance pages: its transactions (segment spans) with throughput, p50/p75/p95 duration, failure
// rate and Apdex over a period, each against the period before; one transaction's (or the whole project's) hourly
// throughput and p95 with its newest traces; and the web vitals per page with their p75, the good / needs
// improvement / poor split and Sentry's performance score. Everything is read from the digest's hourly rollups
// (storage/span-ports.ts); percentiles come from their histograms (core/performance-metrics.ts: within 5%).
// Permissions: those of a project's events (event:read).
import { PERFORMANCE_LIMITS } from "../config/limits";
import type { Project } from "../storage/ports";
import type { HourRange, SpanBucketTotal, SpanTotals, StoredSpan } from "../storage/span-ports";
import { assertCan, requireOrg, requireText } from "./access";
import type { CoreContext } from "./context";
import { notFound } from "./errors";
import { hourOf } from "./hours";
import { apdex, averageScore, dailyMetric, type Metric, performanceScore, quantile, WEB_VITALS, type WebVital } from "./performance-metrics";
import { getProject } from "./projects";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The periods offered: the last 24 hours by the hour; the last 7 and 14 UTC days (today included) by the day. */
export const PERIODS = { "24h": { n: 24, daily: false }, "7d": { n: 7, daily: true }, "14d": { n: 14, daily: true } } as const;
export type Period = keyof typeof PERIODS;

export function parsePeriod(value: unknown): Period {
  if (value === undefined || value === null || value === "") return "24h";
  if (typeof value === "string" && Object.hasOwn(PERIODS, value)) return value as Period;
  throw notFound("Period");
}

export type PeriodRanges = {
  current: HourRange;
  previous: HourRange;
  /** Starts of the period's slots (hours or days), epoch ms, oldest first. */
  slots: number[];
  /** Minutes covered so far by the current period, and by the previous one. */
  minutes: { current: number; previous: number };
  /** The rollup metric to read: per hour, or its daily rows. */
  metric: (m: Metric) => string;
};

/** The period's slots (the current one last) and the same length just before it. */
export function periodRanges(period: Period, now: number): PeriodRanges {
  const { n, daily } = PERIODS[period];
  const step = daily ? DAY_MS : HOUR_MS;
  const last = daily ? Math.floor(now / DAY_MS) * DAY_MS : Date.parse(hourOf(now));
  const first = last - (n - 1) * step;
  return {
    current: { sinceHour: hourOf(first), untilHour: hourOf(last) },
    previous: { sinceHour: hourOf(first - n * step), untilHour: hourOf(first - step) },
    slots: Array.from({ length: n }, (_, i) => first + i * step),
    minutes: { current: Math.max(1, (now - first) / 60_000), previous: (n * step) / 60_000 },
    metric: (m) => (daily ? dailyMetric(m) : m),
  };
}

export type DurationFigures = {
  count: number;
  perMinute: number;
  p50: number | null;
  p75: number | null;
  p95: number | null;
  failureRate: number | null;
  apdex: number | null;
};
export type TransactionRow = { transaction: string; current: DurationFigures; previous: DurationFigures };

function figures(t: SpanTotals | undefined, buckets: SpanBucketTotal[], minutes: number): DurationFigures {
  const count = t?.count ?? 0;
  return {
    count,
    perMinute: count / minutes,
    p50: quantile(buckets, 0.5),
    p75: quantile(buckets, 0.75),
    p95: quantile(buckets, 0.95),
    failureRate: count > 0 ? t!.failures / count : null,
    apdex: t ? apdex(t.count, t.good, t.poor) : null,
  };
}

function groupBuckets(rows: SpanBucketTotal[]): Map<string, SpanBucketTotal[]> {
  const out = new Map<string, SpanBucketTotal[]>();
  for (const r of rows) {
    const list = out.get(r.transaction);
    if (list) list.push(r);
    else out.set(r.transaction, [r]);
  }
  return out;
}

async function readableProject(ctx: CoreContext, orgSlug: string, projectSlug: string) {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "event:read");
  return { access, project };
}

export type PerformanceOverview = {
  project: Project;
  period: Period;
  /** The project's figures (all transactions). */
  total: TransactionRow;
  /** Busiest first, at most PERFORMANCE_LIMITS.transactionRows. */
  rows: TransactionRow[];
  /** Slot starts (Unix seconds; hours, or days for 7d and 14d), transactions and failures per slot and p95 (ms, 0 where none) of the selected transaction or the project. */
  chart: { times: number[]; daily: boolean; count: number[]; p95: number[]; failures: number[] };
  selected: string | null;
  /** The selected transaction's newest segments (its traces). */
  recent: StoredSpan[];
};

/** The transaction table and chart of a project; `transaction` narrows the chart and lists its newest traces. */
export async function performanceOverview(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  q: { period?: unknown; transaction?: unknown },
  now = Date.now(),
): Promise<PerformanceOverview> {
  const { project } = await readableProject(ctx, orgSlug, projectSlug);
  const period = parsePeriod(q.period);
  const selected = q.transaction === undefined || q.transaction === null || q.transaction === "" ? null : requireText(q.transaction, "Transaction");
  const { current, previous, slots, minutes, metric: rollup } = periodRanges(period, now);
  const metric = rollup("duration");
  const [totals, prevTotals] = await Promise.all([ctx.store.spanTotals(project.id, metric, current), ctx.store.spanTotals(project.id, metric, previous)]);
  const busiest = totals
    .filter((t) => t.transaction !== "")
    .sort((a, b) => b.count - a.count || a.transaction.localeCompare(b.transaction))
    .slice(0, PERFORMANCE_LIMITS.transactionRows);
  const names = ["", ...busiest.map((t) => t.transaction)];
  const [buckets, prevBuckets] = await Promise.all([
    ctx.store.spanBucketTotals(project.id, metric, current, names),
    ctx.store.spanBucketTotals(project.id, metric, previous, names),
  ]);
  const cur = groupBuckets(buckets);
  const prev = groupBuckets(prevBuckets);
  const byName = new Map(totals.map((t) => [t.transaction, t]));
  const prevByName = new Map(prevTotals.map((t) => [t.transaction, t]));
  const row = (name: string): TransactionRow => ({
    transaction: name,
    current: figures(byName.get(name), cur.get(name) ?? [], minutes.current),
    previous: figures(prevByName.get(name), prev.get(name) ?? [], minutes.previous),
  });
  const chartName = selected ?? "";
  const [series, seriesBuckets, recent] = await Promise.all([
    ctx.store.spanHourSeries(project.id, metric, chartName, current),
    ctx.store.spanHourBuckets(project.id, metric, chartName, current),
    selected ? ctx.store.recentSegments(project.id, selected, PERFORMANCE_LIMITS.recentSegments) : Promise.resolve([]),
  ]);
  const index = new Map(slots.map((h, i) => [hourOf(h), i]));
  const count = slots.map(() => 0);
  const failures = slots.map(() => 0);
  for (const s of series) {
    const i = index.get(s.hour);
    if (i === undefined) continue;
    count[i] = s.count;
    failures[i] = s.failures;
  }
  const perHour = slots.map(() => [] as { bucket: number; count: number }[]);
  for (const b of seriesBuckets) {
    const i = index.get(b.hour);
    if (i !== undefined) perHour[i]!.push(b);
  }
  return {
    project,
    period,
    total: row(""),
    rows: busiest.map((t) => row(t.transaction)),
    chart: { times: slots.map((h) => h / 1000), daily: PERIODS[period].daily, count, failures, p95: perHour.map((b) => quantile(b, 0.95) ?? 0) },
    selected,
    recent,
  };
}

export type VitalFigures = { count: number; p75: number | null; good: number; meh: number; poor: number; score: number | null };
export type VitalPage = { transaction: string; vitals: Partial<Record<WebVital, VitalFigures>>; score: number | null; count: number };

/** Web vitals per page (transaction) over a period, with the project's as the first row (transaction ""). */
export async function webVitals(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  q: { period?: unknown },
  now = Date.now(),
): Promise<{ project: Project; period: Period; pages: VitalPage[] }> {
  const { project } = await readableProject(ctx, orgSlug, projectSlug);
  const period = parsePeriod(q.period);
  const { current, metric } = periodRanges(period, now);
  const reads = await Promise.all(
    WEB_VITALS.map(async (v) => {
      const totals = (await ctx.store.spanTotals(project.id, metric(v), current))
        .sort((a, b) => (a.transaction === "" ? -1 : b.transaction === "" ? 1 : b.count - a.count))
        .slice(0, PERFORMANCE_LIMITS.transactionRows + 1);
      const buckets = await ctx.store.spanBucketTotals(
        project.id,
        metric(v),
        current,
        totals.map((t) => t.transaction),
      );
      return { v, totals, buckets: groupBuckets(buckets) };
    }),
  );
  const pages = new Map<string, VitalPage>();
  for (const { v, totals, buckets } of reads) {
    for (const t of totals) {
      const page = pages.get(t.transaction) ?? { transaction: t.transaction, vitals: {}, score: null, count: 0 };
      const b = buckets.get(t.transaction) ?? [];
      page.vitals[v] = { count: t.count, p75: quantile(b, 0.75), good: t.good, poor: t.poor, meh: t.count - t.good - t.poor, score: averageScore(v, b) };
      page.count = Math.max(page.count, t.count);
      pages.set(t.transaction, page);
    }
  }
  for (const page of pages.values()) page.score = performanceScore(Object.fromEntries(Object.entries(page.vitals).map(([k, f]) => [k, f.score])));
  const list = [...pages.values()].sort((a, b) =>
    a.transaction === "" ? -1 : b.transaction === "" ? 1 : b.count - a.count || a.transaction.localeCompare(b.transaction),
  );
  return { project, period, pages: list.slice(0, PERFORMANCE_LIMITS.transactionRows + 1) };
}

export type TraceSpanView = StoredSpan & { projectSlug: string; depth: number; offsetMs: number };
export type TraceView = {
  traceId: string;
  spans: TraceSpanView[];
  errors: Awaited<ReturnType<CoreContext["store"]["traceErrors"]>>;
  startMs: number;
  durationMs: number;
  truncated: boolean;
};

/** A trace's spans across the organization's projects as a waterfall (parents before children), and its errors. */
export async function traceView(ctx: CoreContext, orgSlug: string, traceIdParam: unknown): Promise<TraceView> {
  const access = await requireOrg(ctx, orgSlug, "event:read");
  const traceId = typeof traceIdParam === "string" && /^[0-9a-f]{32}$/i.test(traceIdParam) ? traceIdParam.toLowerCase() : null;
  if (!traceId) throw notFound("Trace");
  const [spans, errors] = await Promise.all([
    ctx.store.traceSpans(access.org.id, traceId, PERFORMANCE_LIMITS.traceSpans + 1),
    ctx.store.traceErrors(access.org.id, traceId, PERFORMANCE_LIMITS.traceErrors),
  ]);
  if (spans.length === 0 && errors.length === 0) throw notFound("Trace");
  const truncated = spans.length > PERFORMANCE_LIMITS.traceSpans;
  const kept = spans.slice(0, PERFORMANCE_LIMITS.traceSpans);
  const startMs = kept.reduce((m, s) => Math.min(m, Date.parse(s.startTime)), Infinity);
  const endMs = kept.reduce((m, s) => Math.max(m, Date.parse(s.startTime) + s.durationMs), -Infinity);
  return {
    traceId,
    spans: waterfall(kept, startMs),
    errors,
    startMs: Number.isFinite(startMs) ? startMs : 0,
    durationMs: kept.length > 0 ? Math.max(endMs - startMs, 0) : 0,
    truncated,
  };
}

/** Orders spans depth-first (children under their parent, by start), with each one's depth and offset from the trace's start. */
export function waterfall<T extends StoredSpan>(spans: T[], startMs: number): (T & { depth: number; offsetMs: number })[] {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string | null, T[]>();
  for (const s of spans) {
    // A span whose parent is not in the trace (another service not sampled, or past the limit) starts a root.
    const parent = s.parentSpanId && ids.has(s.parentSpanId) && s.parentSpanId !== s.spanId ? s.parentSpanId : null;
    const list = children.get(parent);
    if (list) list.push(s);
    else children.set(parent, [s]);
  }
  const out: (T & { depth: number; offsetMs: number })[] = [];
  const seen = new Set<string>();
  const visit = (parent: string | null, depth: number) => {
    for (const s of children.get(parent) ?? []) {
      if (seen.has(s.spanId)) continue;
      seen.add(s.spanId);
      out.push({ ...s, depth, offsetMs: Date.parse(s.startTime) - startMs });
      visit(s.spanId, depth + 1);
    }
  };
  visit(null, 0);
  // Spans in a cycle of parents (a bad SDK) are never reached from a root: list them at the end, flat.
  for (const s of spans) if (!seen.has(s.spanId)) out.push({ ...s, depth: 0, offsetMs: Date.parse(s.startTime) - startMs });
  return out;
}
