// Spans into one model, whatever carried them: a transaction event becomes its root (segment) span and its child
// spans; a span item (span v2 containers, `application/vnd.sentry.items.span.v2+json`, or a single v1 span) becomes
// its spans. Web vitals come from a pageload transaction's `measurements` or, streamed, from span attributes
// `browser.web_vital.<name>.value`. The digest adds segment durations and vitals to hourly rollups
// (rollupSpans), so the performance pages never scan spans.
import { PERFORMANCE_LIMITS } from "../config/limits";
import { traceIdOfEvent } from "../core/event-trace";
import { hourOf } from "../core/hours";
import { bucketOf, dailyMetric, dayOf, isWebVital, type Metric, THRESHOLDS } from "../core/performance-metrics";
import type { NewSpan, SpanBucketIncrement, SpanHourIncrement } from "../storage/span-ports";
import { parseTimestamp } from "./normalize/timestamps";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown, fallback = ""): string => (typeof v === "string" && v.length > 0 ? v.slice(0, PERFORMANCE_LIMITS.spanText) : fallback);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
/**
 * A span item's timestamp in seconds as events' are read (normalize/timestamps.ts: numbers or RFC 3339, years up to
 * 9999), and not before 1970 (Relay removes such a span, timestamp.rs `process_span`); null otherwise. So a duration
 * stays within what `spans.duration_ms` (real) and the rollups' sums hold: 1e300 seconds made PostgreSQL refuse the
 * whole batch.
 */
function spanTime(v: unknown): number | null {
  const parsed = parseTimestamp(v);
  return parsed?.ok && parsed.seconds >= 0 ? parsed.seconds : null;
}
const hexId = (v: unknown, length: number): string | null => (typeof v === "string" && v.length === length && /^[0-9a-f]+$/i.test(v) ? v.toLowerCase() : null);
const iso = (seconds: number): string => new Date(Math.round(seconds * 1000)).toISOString();
/** Milliseconds between two timestamps in seconds, to the microsecond (what SDKs send), never negative. */
const millis = (start: number, end: number): number => Math.max(0, Math.round((end - start) * 1_000_000) / 1000);

/** Sentry's name for a transaction without one. */
export const UNNAMED_TRANSACTION = "<unlabeled transaction>";

/** A transaction's or streamed span's status that Sentry counts as a failure (anything but ok, cancelled, unknown). */
export const isFailure = (status: string): boolean => status !== "ok" && status !== "cancelled" && status !== "unknown" && status !== "";

/** One value for the rollups: a segment's duration or a web vital of a page. */
export type MetricValue = {
  projectId: number;
  metric: Metric;
  transaction: string;
  hour: string;
  value: number;
  failed: boolean;
  /** For a streamed child span's value: its segment (segmentKey), whose name the transaction becomes (nameBySegment). */
  segment?: string;
};

/** A span's segment as "projectId:traceId:segmentId" (null without one). */
export const segmentKey = (s: Pick<NewSpan, "projectId" | "traceId" | "segmentId">): string | null =>
  s.segmentId ? `${s.projectId}:${s.traceId}:${s.segmentId}` : null;

/**
 * Streamed child spans name their segment by its sentry.segment.name, which for a page load is "Pageload" while the
 * segment itself is named by its URL path (streamedSpan): children and their vitals take the name of their segment,
 * found in the same batch or, for spans sent after it (LCP, CLS, INP), among the stored ones (`stored`).
 */
export function nameBySegment(expanded: ExpandedSpans, stored: Map<string, string>): void {
  const names = new Map(stored);
  for (const s of expanded.spans) if (s.isSegment) names.set(`${s.projectId}:${s.traceId}:${s.spanId}`, s.transaction);
  for (const s of expanded.spans) {
    const key = s.isSegment ? null : segmentKey(s);
    const name = key ? names.get(key) : undefined;
    if (name) s.transaction = name;
  }
  for (const v of expanded.values) {
    const name = v.segment ? names.get(v.segment) : undefined;
    if (name) v.transaction = name;
  }
}

export type ExpandedSpans = { spans: NewSpan[]; values: MetricValue[] };

const VITAL_UNITS_MS = new Set(["lcp", "fcp", "inp", "ttfb"]);

function vitalValue(name: string, value: number): number | null {
  if (!isWebVital(name) || value < 0) return null;
  // Milliseconds for all but CLS; a CLS beyond 100 or a time beyond a day is not a measurement but a bug.
  if (VITAL_UNITS_MS.has(name) ? value > 86_400_000 : value > 100) return null;
  return value;
}

type Common = { projectId: number; environment: string | null; release: string | null; receivedAt: string };

/**
 * Which child spans of a transaction event transactionSpans returns. The digest stores a transaction's segment span as
 * a row and keeps its child spans only in the stored event (events.data holds them anyway): a child row cost as much
 * as a row of events to write, and a transaction has up to a thousand. The trace view reads them back from the event
 * (storage/kysely/trace-spans.ts), with "all". A child span that names another trace than its transaction's is still
 * stored as a row ("other-traces"), since that trace's view would not find its transaction.
 */
export type ChildSpans = "all" | "other-traces";

/** A normalized transaction event (timestamps in seconds) into its segment and child spans, and its vitals. */
export function transactionSpans(event: Json, eventId: string, common: Common, children: ChildSpans = "all"): ExpandedSpans {
  const contexts = isObj(event.contexts) ? event.contexts : {};
  const trace = isObj(contexts.trace) ? contexts.trace : {};
  const traceId = hexId(trace.trace_id, 32);
  const rootId = hexId(trace.span_id, 16);
  const start = spanTime(event.start_timestamp);
  const end = spanTime(event.timestamp);
  if (!traceId || !rootId || start === null || end === null) return { spans: [], values: [] };
  const transaction = text(event.transaction, UNNAMED_TRANSACTION);
  const status = text(trace.status, "ok");
  // Every span is a literal of all of NewSpan's fields in NewSpan's order, here and in streamedSpan, never a spread of
  // `common` extended field by field. The spans of a batch (5 or 6 per record of the mix) then share one shape, which
  // every later step reads (rollups, segment names, the insert's parameters). Spread, they took two shapes (a
  // transaction's and a span item's), with most fields outside the object: bench:digest's replay spent 20 % more CPU
  // per record of the mix.
  const root: NewSpan = {
    projectId: common.projectId,
    traceId,
    spanId: rootId,
    parentSpanId: hexId(trace.parent_span_id, 16),
    segmentId: rootId,
    isSegment: true,
    transaction,
    op: text(trace.op, "default"),
    description: transaction,
    status,
    startTime: iso(start),
    durationMs: millis(start, end),
    environment: common.environment,
    release: common.release,
    eventId,
    receivedAt: common.receivedAt,
  };
  const spans: NewSpan[] = [root];
  const childList = Array.isArray(event.spans) ? event.spans.slice(0, PERFORMANCE_LIMITS.spansPerItem - 1) : [];
  for (const s of childList) {
    if (!isObj(s)) continue;
    const childTrace = hexId(s.trace_id, 32);
    if (children === "other-traces" && (childTrace === null || childTrace === traceId)) continue;
    const spanId = hexId(s.span_id, 16);
    const sStart = spanTime(s.start_timestamp);
    const sEnd = s.timestamp === undefined || s.timestamp === null ? sStart : spanTime(s.timestamp);
    if (!spanId || sStart === null || sEnd === null) continue;
    spans.push({
      projectId: common.projectId,
      traceId: childTrace ?? traceId,
      spanId,
      parentSpanId: hexId(s.parent_span_id, 16) ?? rootId,
      segmentId: rootId,
      isSegment: false,
      transaction,
      op: text(s.op, "default"),
      description: text(s.description),
      status: text(s.status, "ok"),
      startTime: iso(sStart),
      durationMs: millis(sStart, sEnd),
      environment: common.environment,
      release: common.release,
      eventId: null,
      receivedAt: common.receivedAt,
    });
  }
  const hour = hourOf(root.startTime);
  const values: MetricValue[] = [{ projectId: common.projectId, metric: "duration", transaction, hour, value: root.durationMs, failed: isFailure(status) }];
  const measurements = isObj(event.measurements) ? event.measurements : {};
  for (const [name, m] of Object.entries(measurements)) {
    const v = isObj(m) ? num(m.value) : null;
    const value = v === null ? null : vitalValue(name, v);
    if (value !== null) values.push({ projectId: common.projectId, metric: name as Metric, transaction, hour, value, failed: false });
  }
  return { spans, values };
}

/** A typed attribute of span v2 (`{type, value}`), or a plain value of v1's `data`. */
function attribute(attrs: Json, key: string): unknown {
  const a = attrs[key];
  return isObj(a) && "value" in a ? a.value : a;
}

/** One span of a span item, v2 (`end_timestamp`, `name`, typed `attributes`) or v1 (`timestamp`, `description`, `data`). */
function streamedSpan(s: Json, common: Omit<Common, "environment" | "release">): { span: NewSpan; values: MetricValue[] } | null {
  const v2 = "end_timestamp" in s || "attributes" in s;
  const attrs = isObj(v2 ? s.attributes : s.data) ? ((v2 ? s.attributes : s.data) as Json) : {};
  const traceId = hexId(s.trace_id, 32);
  const spanId = hexId(s.span_id, 16);
  const start = spanTime(s.start_timestamp);
  const rawEnd = v2 ? s.end_timestamp : s.timestamp;
  const end = rawEnd === undefined || rawEnd === null ? start : spanTime(rawEnd);
  if (!traceId || !spanId || start === null || end === null) return null;
  const isSegment = s.is_segment === true;
  const name = text(v2 ? s.name : s.description);
  const segmentName = text(attribute(attrs, "sentry.segment.name")) || text(attribute(attrs, "sentry.transaction")) || text(attribute(attrs, "transaction"));
  // A browser page load or navigation streamed with a name from the URL is called "Pageload" or "Navigation" and
  // carries the path in url.path: the path names the transaction, as the transaction event's name would.
  const urlPath = attribute(attrs, "sentry.segment.name.source") === "url" ? text(attribute(attrs, "url.path")) : "";
  const transaction = (isSegment ? urlPath || name || segmentName : segmentName || name) || UNNAMED_TRANSACTION;
  // v2 says "ok" or "error"; the SDKs name the error in the attribute sentry.status.message (internal_error, …).
  const status = v2 ? (s.status === "error" ? text(attribute(attrs, "sentry.status.message"), "error") : "ok") : text(s.status, "ok");
  const span: NewSpan = {
    projectId: common.projectId,
    traceId,
    spanId,
    parentSpanId: hexId(s.parent_span_id, 16),
    segmentId: isSegment ? spanId : (hexId(attribute(attrs, "sentry.segment.id"), 16) ?? hexId(s.segment_id, 16)),
    isSegment,
    transaction,
    op: text(attribute(attrs, "sentry.op")) || text(s.op, "default"),
    description: name,
    status,
    startTime: iso(start),
    durationMs: millis(start, end),
    environment: text(attribute(attrs, "sentry.environment")) || null,
    release: text(attribute(attrs, "sentry.release")) || null,
    eventId: null,
    receivedAt: common.receivedAt,
  };
  const hour = hourOf(span.startTime);
  const values: MetricValue[] = [];
  if (isSegment) values.push({ projectId: common.projectId, metric: "duration", transaction, hour, value: span.durationMs, failed: isFailure(status) });
  const vital = (metric: string, raw: unknown) => {
    const n = num(raw);
    const value = n === null ? null : vitalValue(metric, n);
    if (value !== null)
      values.push({
        projectId: common.projectId,
        metric: metric as Metric,
        transaction,
        hour,
        value,
        failed: false,
        segment: isSegment ? undefined : (segmentKey(span) ?? undefined),
      });
  };
  for (const key of Object.keys(attrs)) {
    const m = /^browser\.web_vital\.([a-z]+)\.value$/.exec(key);
    if (m) vital(m[1]!, attribute(attrs, key));
  }
  // v1 standalone spans (INP before span streaming) carry their vital as a measurement.
  if (isObj(s.measurements)) for (const [k, m] of Object.entries(s.measurements)) if (isObj(m)) vital(k, m.value);
  return { span, values };
}

/** A span item's payload (parsed JSON) into spans and vitals; at most PERFORMANCE_LIMITS.spansPerItem spans. */
export function spanItemSpans(payload: unknown, projectId: number, receivedAt: string): ExpandedSpans {
  const list = isObj(payload) && Array.isArray(payload.items) ? payload.items : isObj(payload) ? [payload] : [];
  const out: ExpandedSpans = { spans: [], values: [] };
  for (const s of list.slice(0, PERFORMANCE_LIMITS.spansPerItem)) {
    if (!isObj(s)) continue;
    const read = streamedSpan(s, { projectId, receivedAt });
    if (!read) continue;
    out.spans.push(read.span);
    out.values.push(...read.values);
  }
  return out;
}

/**
 * Values into counter and histogram increments per hour and per UTC day (metric `<name>@day`, the hour column holding
 * the day's first hour, so long periods read a row per day), per transaction and for the whole project ("").
 */
export function rollupSpans(values: MetricValue[]): { hours: SpanHourIncrement[]; buckets: SpanBucketIncrement[] } {
  const hours: SpanHourIncrement[] = [];
  const buckets: SpanBucketIncrement[] = [];
  for (const v of values) {
    const [good, poor] = THRESHOLDS[v.metric];
    const bucket = bucketOf(v.value);
    const counts = { count: 1, failures: v.failed ? 1 : 0, sum: v.value, good: v.value <= good ? 1 : 0, poor: v.value > poor ? 1 : 0 };
    for (const [metric, hour] of [
      [v.metric, v.hour],
      [dailyMetric(v.metric), dayOf(v.hour)],
    ] as const) {
      for (const transaction of [v.transaction, ""]) {
        hours.push({ projectId: v.projectId, metric, hour, transaction, ...counts });
        buckets.push({ projectId: v.projectId, metric, hour, transaction, bucket, count: 1 });
      }
    }
  }
  return { hours, buckets };
}

/** The trace id an error event names (contexts.trace.trace_id), if any. */
export const traceIdOf = (event: Json): string | null => traceIdOfEvent(event);
