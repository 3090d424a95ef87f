// Performance reads (storage/span-ports.ts SpanStore) and span retention, for SQLite and PostgreSQL. The tables and
// trends read the hourly rollups through their primary keys (project, metric, hour, …); spans are read only by trace
// and for a transaction's newest segments, each from its index. A trace's transaction events add their child spans,
// which only the events hold (trace-spans.ts).
import { sql } from "kysely";
import type { HourRange, SpanRetentionStore, SpanStore, StoredSpan } from "../span-ports";
import type { Database } from "../schema";
import { type Ctx, toBool } from "./shared";
import { pruneDefaultPartition } from "./partitions";
import { withEventChildren } from "./trace-spans";

type SpanRow = Database["spans"] extends infer T ? { [K in keyof T]: K extends "id" ? number : T[K] } : never;

const toSpan = (r: SpanRow): StoredSpan => ({
  id: r.id,
  projectId: r.project_id,
  traceId: r.trace_id,
  spanId: r.span_id,
  parentSpanId: r.parent_span_id,
  segmentId: r.segment_id,
  isSegment: toBool(r.is_segment),
  transaction: r.transaction,
  op: r.op,
  description: r.description,
  status: r.status,
  startTime: r.start_time,
  durationMs: Number(r.duration_ms),
  environment: r.environment,
  release: r.release,
  eventId: r.event_id,
});

/** A span's columns but its id and arrival: what the digest writes (span-tx.ts) and every read returns. */
export const SPAN_FIELDS = [
  "project_id",
  "trace_id",
  "span_id",
  "parent_span_id",
  "segment_id",
  "is_segment",
  "transaction",
  "op",
  "description",
  "status",
  "start_time",
  "duration_ms",
  "environment",
  "release",
  "event_id",
] as const;
const SPAN_COLUMNS = ["id", ...SPAN_FIELDS] as const;

export function spanStore({ db, dialect }: Ctx): SpanStore & SpanRetentionStore {
  const isTrue = dialect === "postgres" ? sql<boolean>`true` : sql<number>`1`;
  /** A metric's rows of a rollup table in an hour range, from the low end of its primary key. */
  const hourRows = (projectId: number, metric: string, { sinceHour, untilHour }: HourRange) =>
    db.selectFrom("span_hours").where("project_id", "=", projectId).where("metric", "=", metric).where("hour", ">=", sinceHour).where("hour", "<=", untilHour);
  const bucketRows = (projectId: number, metric: string, { sinceHour, untilHour }: HourRange) =>
    db
      .selectFrom("span_hour_buckets")
      .where("project_id", "=", projectId)
      .where("metric", "=", metric)
      .where("hour", ">=", sinceHour)
      .where("hour", "<=", untilHour);
  /** PostgreSQL returns sums and bigints as strings. */
  const counters = (r: { count: unknown; failures: unknown; sum: unknown; good: unknown; poor: unknown }) => ({
    count: Number(r.count),
    failures: Number(r.failures),
    sum: Number(r.sum),
    good: Number(r.good),
    poor: Number(r.poor),
  });

  return {
    async spanTotals(projectId, metric, range) {
      const rows = await hourRows(projectId, metric, range)
        .select((eb) => [
          "transaction",
          eb.fn.sum<string | number>("count").as("count"),
          eb.fn.sum<string | number>("failures").as("failures"),
          eb.fn.sum<string | number>("sum").as("sum"),
          eb.fn.sum<string | number>("good").as("good"),
          eb.fn.sum<string | number>("poor").as("poor"),
        ])
        .groupBy("transaction")
        .execute();
      return rows.map((r) => ({ transaction: r.transaction, ...counters(r) }));
    },

    async spanBucketTotals(projectId, metric, range, transactions) {
      if (transactions.length === 0) return [];
      const rows = await bucketRows(projectId, metric, range)
        .select((eb) => ["transaction", "bucket", eb.fn.sum<string | number>("count").as("count")])
        .where("transaction", "in", transactions)
        .groupBy(["transaction", "bucket"])
        .execute();
      return rows.map((r) => ({ transaction: r.transaction, bucket: Number(r.bucket), count: Number(r.count) }));
    },

    async spanHourSeries(projectId, metric, transaction, range) {
      const rows = await hourRows(projectId, metric, range)
        .select(["hour", "count", "failures", "sum", "good", "poor"])
        .where("transaction", "=", transaction)
        .orderBy("hour")
        .execute();
      return rows.map((r) => ({ hour: r.hour, ...counters(r) }));
    },

    async spanHourBuckets(projectId, metric, transaction, range) {
      const rows = await bucketRows(projectId, metric, range).select(["hour", "bucket", "count"]).where("transaction", "=", transaction).execute();
      return rows.map((r) => ({ hour: r.hour, bucket: Number(r.bucket), count: Number(r.count) }));
    },

    async recentSegments(projectId, transaction, limit) {
      const rows = await db
        .selectFrom("spans")
        .select(SPAN_COLUMNS)
        .where("project_id", "=", projectId)
        .where("is_segment", "=", isTrue)
        .where("transaction", "=", transaction)
        .orderBy("start_time", "desc")
        .limit(limit)
        .execute();
      return rows.map((r) => toSpan(r as SpanRow));
    },

    async traceSpans(organizationId, traceId, limit) {
      const rows = await db
        .selectFrom("spans")
        .innerJoin("projects", "projects.id", "spans.project_id")
        .select(SPAN_COLUMNS.map((c) => `spans.${c}` as const))
        .select(["projects.slug as project_slug", "spans.received_at"])
        .where("spans.trace_id", "=", traceId)
        .where("projects.organization_id", "=", organizationId)
        .orderBy("spans.start_time")
        .orderBy("spans.id")
        .limit(limit)
        .execute();
      const read = rows.map((r) => ({ ...toSpan(r as unknown as SpanRow), projectSlug: r.project_slug, receivedAt: r.received_at }));
      return withEventChildren(db, read, traceId, limit);
    },

    async traceErrors(organizationId, traceId, limit) {
      const rows = await db
        .selectFrom("trace_events")
        .innerJoin("events", "events.id", "trace_events.event_row_id")
        .innerJoin("projects", "projects.id", "events.project_id")
        .select(["events.project_id", "projects.slug", "events.event_id", "events.issue_id", "events.title", "events.level", "events.timestamp"])
        .where("trace_events.trace_id", "=", traceId)
        .where("projects.organization_id", "=", organizationId)
        .orderBy("events.timestamp")
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        projectId: r.project_id,
        projectSlug: r.slug,
        eventId: r.event_id,
        issueId: r.issue_id,
        title: r.title,
        level: r.level,
        timestamp: r.timestamp,
      }));
    },

    async pruneSpansBefore(cutoff, limit) {
      // PostgreSQL drops whole days (kysely/partitions.ts); rows outside every day partition go here.
      if (dialect === "postgres") return (await pruneDefaultPartition(db, "spans", cutoff, limit)).length;
      const rows = await db.selectFrom("spans").select(["id", "received_at"]).orderBy("id").limit(limit).execute();
      const ids = rows.filter((r) => r.received_at < cutoff).map((r) => r.id);
      if (ids.length === 0) return 0;
      const r = await db.deleteFrom("spans").where("id", "in", ids).executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    async pruneSpanHoursBefore(hour, limit) {
      let left = limit;
      const below = async (table: "span_hours" | "span_hour_buckets", key: string[], column: string, bound: string) => {
        if (left <= 0) return;
        const keys = sql.join(key.map((k) => sql.ref(k)));
        const r =
          await sql`delete from ${sql.table(table)} where (${keys}) in (select ${keys} from ${sql.table(table)} where ${sql.ref(column)} < ${bound} limit ${left})`.execute(
            db,
          );
        left -= Number(r.numAffectedRows ?? 0);
      };
      await below("span_hours", ["project_id", "metric", "hour", "transaction"], "hour", hour);
      await below("span_hour_buckets", ["project_id", "metric", "transaction", "hour", "bucket"], "hour", hour);
      return limit - left;
    },
  };
}
