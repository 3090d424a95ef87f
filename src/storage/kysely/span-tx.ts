// The digest's span writes inside its batch transaction (storage/span-ports.ts SpanTx): spans as rows, rollups as
// upserts that add, trace links that a repeat leaves as they are.
import type { Transaction } from "kysely";
import type { Dialect } from "../db";
import type { Database } from "../schema";
import type { NewSpan, SpanBucketIncrement, SpanHourIncrement, SpanTx, TraceEventLink } from "../span-ports";
import { addCount, chunks, sumBy } from "./batch-rows";
import { type RowShape, insertRows } from "./row-inserts";
import { SPAN_FIELDS } from "./spans";
import { dbBool } from "./shared";

const SPAN_ROWS: RowShape<NewSpan> = {
  table: "spans",
  columns: [...SPAN_FIELDS, "received_at"],
  values: (s, dialect) => [
    s.projectId,
    s.traceId,
    s.spanId,
    s.parentSpanId,
    s.segmentId,
    dbBool(dialect, s.isSegment),
    s.transaction,
    s.op,
    s.description,
    s.status,
    s.startTime,
    s.durationMs,
    s.environment,
    s.release,
    s.eventId,
    s.receivedAt,
  ],
};

// A stored event's trace link; on PostgreSQL with its project and its event's arrival, whose day partition holds it
// (migrations 0040 and 0041). A batch written again leaves the links it made as they are.
const TRACE_EVENT_ROWS: RowShape<TraceEventLink> = {
  table: "trace_events",
  columns: ["event_row_id", "trace_id", "project_id", "received_at"],
  values: (l, dialect) => (dialect === "postgres" ? [l.eventRowId, l.traceId, l.projectId, l.receivedAt] : [l.eventRowId, l.traceId]),
  suffix: { sqlite: "on conflict (event_row_id) do nothing", postgres: "on conflict (event_row_id, received_at) do nothing" },
};
const TRACE_EVENT_ROWS_SQLITE: RowShape<TraceEventLink> = { ...TRACE_EVENT_ROWS, columns: TRACE_EVENT_ROWS.columns.slice(0, 2) };

// The rollups' summing keys and merge, at module level (batch-rows.ts sumBy says why).
const spanHourKey = (r: Pick<SpanHourIncrement, "projectId" | "metric" | "hour" | "transaction">) =>
  `${r.projectId}\u0000${r.metric}\u0000${r.hour}\u0000${r.transaction}`;
const spanBucketKey = (r: SpanBucketIncrement) => `${spanHourKey(r)}\u0000${r.bucket}`;
const spanBucketRow = (r: SpanBucketIncrement) => ({
  project_id: r.projectId,
  metric: r.metric,
  hour: r.hour,
  transaction: r.transaction,
  bucket: r.bucket,
  count: r.count,
});
function addSpanHour(into: SpanHourIncrement, from: SpanHourIncrement): void {
  into.count += from.count;
  into.failures += from.failures;
  into.sum += from.sum;
  into.good += from.good;
  into.poor += from.poor;
}

export function spanTx(trx: Transaction<Database>, dialect: Dialect): SpanTx {
  return {
    async insertSpans(spans) {
      await insertRows(trx, dialect, SPAN_ROWS, spans);
    },

    async segmentNames(segments) {
      const out = new Map<string, string>();
      for (const part of chunks(segments)) {
        const rows = await trx
          .selectFrom("spans")
          .select(["project_id", "trace_id", "span_id", "transaction"])
          .where("trace_id", "in", [...new Set(part.map((s) => s.traceId))])
          .where("project_id", "in", [...new Set(part.map((s) => s.projectId))])
          .where(
            "span_id",
            "in",
            part.map((s) => s.spanId),
          )
          .where("is_segment", "=", dbBool(dialect, true))
          .execute();
        for (const r of rows) out.set(`${r.project_id}:${r.trace_id}:${r.span_id}`, r.transaction);
      }
      return out;
    },

    async addSpanHours(hours, buckets) {
      const summed = sumBy(hours, spanHourKey, addSpanHour);
      for (const part of chunks(summed)) {
        await trx
          .insertInto("span_hours")
          .values(
            part.map((r) => ({
              project_id: r.projectId,
              metric: r.metric,
              hour: r.hour,
              transaction: r.transaction,
              count: r.count,
              failures: r.failures,
              sum: r.sum,
              good: r.good,
              poor: r.poor,
            })),
          )
          .onConflict((oc) =>
            oc.columns(["project_id", "metric", "hour", "transaction"]).doUpdateSet((eb) => ({
              count: eb("span_hours.count", "+", eb.ref("excluded.count")),
              failures: eb("span_hours.failures", "+", eb.ref("excluded.failures")),
              sum: eb("span_hours.sum", "+", eb.ref("excluded.sum")),
              good: eb("span_hours.good", "+", eb.ref("excluded.good")),
              poor: eb("span_hours.poor", "+", eb.ref("excluded.poor")),
            })),
          )
          .execute();
      }
      const bucketRows = sumBy(buckets, spanBucketKey, addCount);
      for (const part of chunks(bucketRows)) {
        await trx
          .insertInto("span_hour_buckets")
          .values(part.map(spanBucketRow))
          .onConflict((oc) =>
            oc
              .columns(["project_id", "metric", "transaction", "hour", "bucket"])
              .doUpdateSet((eb) => ({ count: eb("span_hour_buckets.count", "+", eb.ref("excluded.count")) })),
          )
          .execute();
      }
    },

    async linkTraceEvents(links) {
      await insertRows(trx, dialect, dialect === "postgres" ? TRACE_EVENT_ROWS : TRACE_EVENT_ROWS_SQLITE, links);
    },
  };
}
