// The digest's span writes inside its batch transaction (storage/span-ports.ts SpanTx): spans as rows, rollups as
// upserts that add, trace links that a repeat leaves as they are.
import type { Transaction } from "kysely";
import type { Dialect } from "../db";
import type { Database } from "../schema";
import type { NewSpan, SpanTx } from "../span-ports";
import { chunks, sumBy } from "./batch-rows";
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
      const key = (r: { projectId: number; metric: string; hour: string; transaction: string }) =>
        `${r.projectId}\u0000${r.metric}\u0000${r.hour}\u0000${r.transaction}`;
      const summed = sumBy(hours, key, (into, from) => {
        into.count += from.count;
        into.failures += from.failures;
        into.sum += from.sum;
        into.good += from.good;
        into.poor += from.poor;
      });
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
      const bucketRows = sumBy(
        buckets,
        (r) => `${key(r)}\u0000${r.bucket}`,
        (into, from) => void (into.count += from.count),
      );
      for (const part of chunks(bucketRows)) {
        await trx
          .insertInto("span_hour_buckets")
          .values(part.map((r) => ({ project_id: r.projectId, metric: r.metric, hour: r.hour, transaction: r.transaction, bucket: r.bucket, count: r.count })))
          .onConflict((oc) =>
            oc
              .columns(["project_id", "metric", "transaction", "hour", "bucket"])
              .doUpdateSet((eb) => ({ count: eb("span_hour_buckets.count", "+", eb.ref("excluded.count")) })),
          )
          .execute();
      }
    },

    async linkTraceEvents(links) {
      const pg = dialect === "postgres";
      for (const part of chunks(links)) {
        await trx
          .insertInto("trace_events")
          .values(
            part.map((l) =>
              pg
                ? { event_row_id: l.eventRowId, trace_id: l.traceId, project_id: l.projectId, received_at: l.receivedAt }
                : { event_row_id: l.eventRowId, trace_id: l.traceId },
            ),
          )
          .onConflict((oc) => oc.column("event_row_id").doNothing())
          .execute();
      }
    },
  };
}
