// The storage port of performance monitoring: spans (one row each; segment spans are transactions), the hourly
// rollups the digest adds to as it stores them, and the error events that name a trace. The digest writes inside its
// batch transaction (SpanTx); the core reads through SpanStore, the tables and trends from the rollups only.
export type NewSpan = {
  projectId: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  /** The span id of the segment (transaction) the span belongs to. */
  segmentId: string | null;
  isSegment: boolean;
  /** The segment's name: the transaction the span belongs to. */
  transaction: string;
  op: string;
  description: string;
  /** "ok", or an error status ("error", "internal_error", …). */
  status: string;
  /** ISO. */
  startTime: string;
  durationMs: number;
  environment: string | null;
  release: string | null;
  /** The transaction event a segment came from (null for span items). */
  eventId: string | null;
  receivedAt: string;
};

export type StoredSpan = Omit<NewSpan, "receivedAt"> & { id: number };

/** An hourly counter increment; `transaction` "" is the whole project. `good`/`poor` count values beyond the thresholds. */
export type SpanHourIncrement = {
  projectId: number;
  metric: string;
  hour: string;
  transaction: string;
  count: number;
  failures: number;
  sum: number;
  good: number;
  poor: number;
};
export type SpanBucketIncrement = { projectId: number; metric: string; hour: string; transaction: string; bucket: number; count: number };
/** A stored event that carries a trace id; `eventRowId` is its events.id. */
export type TraceEventLink = { eventRowId: number; traceId: string; projectId: number; receivedAt: string };

export interface SpanTx {
  insertSpans(spans: NewSpan[]): Promise<void>;
  /** The transaction names of these stored segment spans, by "projectId:traceId:spanId" (absent: not stored). */
  segmentNames(segments: { projectId: number; traceId: string; spanId: string }[]): Promise<Map<string, string>>;
  /** Adds to the hourly counters and histograms. */
  addSpanHours(hours: SpanHourIncrement[], buckets: SpanBucketIncrement[]): Promise<void>;
  /** Records which stored error events name which trace; a link already recorded stays as it is. */
  linkTraceEvents(links: TraceEventLink[]): Promise<void>;
}

export type SpanTotals = { transaction: string; count: number; failures: number; sum: number; good: number; poor: number };
export type SpanBucketTotal = { transaction: string; bucket: number; count: number };
export type SpanHourRow = { hour: string; count: number; failures: number; sum: number; good: number; poor: number };
export type SpanHourBucket = { hour: string; bucket: number; count: number };
export type HourRange = { sinceHour: string; untilHour: string };
export type TraceSpan = StoredSpan & { projectSlug: string };
export type TraceError = { projectId: number; projectSlug: string; eventId: string; issueId: number | null; title: string; level: string; timestamp: string };

export interface SpanStore {
  /** Sums of a metric's hourly counters per transaction (including "" for the project), between two hours inclusive. */
  spanTotals(projectId: number, metric: string, range: HourRange): Promise<SpanTotals[]>;
  /** Sums of a metric's histogram buckets per transaction, of the given transactions ("" the project's). */
  spanBucketTotals(projectId: number, metric: string, range: HourRange, transactions: string[]): Promise<SpanBucketTotal[]>;
  /** One transaction's ("" the project's) hourly counters, hours without any absent. */
  spanHourSeries(projectId: number, metric: string, transaction: string, range: HourRange): Promise<SpanHourRow[]>;
  /** One transaction's hourly histogram buckets. */
  spanHourBuckets(projectId: number, metric: string, transaction: string, range: HourRange): Promise<SpanHourBucket[]>;
  /** A transaction's newest segment spans (by start), at most `limit`. */
  recentSegments(projectId: number, transaction: string, limit: number): Promise<StoredSpan[]>;
  /** The spans of a trace in the organization's projects, by start, at most `limit`. */
  traceSpans(organizationId: number, traceId: string, limit: number): Promise<TraceSpan[]>;
  /** The error events of a trace in the organization's projects, at most `limit`. */
  traceErrors(organizationId: number, traceId: string, limit: number): Promise<TraceError[]>;
}

/** Retention of spans (digest/retention.ts). */
export interface SpanRetentionStore {
  /** As pruneRawItemsBefore: of the `limit` lowest span ids, deletes those received before `cutoff`. */
  pruneSpansBefore(cutoff: string, limit: number): Promise<number>;
  /** Deletes up to `limit` rows of span rollups of hours before `hour`. */
  pruneSpanHoursBefore(hour: string, limit: number): Promise<number>;
}
