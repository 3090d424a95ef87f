// Performance monitoring: one row per span (a transaction event's root span and child spans, and span items of
// either version, all in the same shape; a segment span is a transaction), hourly rollups per project, transaction
// and metric that the digest writes as it stores spans (so the transaction table and the web vitals never scan
// spans), and the error events that name a trace, for the trace view's links.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function spans(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("spans")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("trace_id", "text", (c) => c.notNull())
        .addColumn("span_id", "text", (c) => c.notNull())
        .addColumn("parent_span_id", "text")
        .addColumn("segment_id", "text")
        .addColumn("is_segment", t.bool, (c) => c.notNull())
        .addColumn("transaction", "text", (c) => c.notNull())
        .addColumn("op", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("start_time", "text", (c) => c.notNull())
        .addColumn("duration_ms", "real", (c) => c.notNull())
        .addColumn("environment", "text")
        .addColumn("release", "text")
        .addColumn("event_id", "text")
        .addColumn("received_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("spans_trace_idx").on("spans").columns(["trace_id", "start_time"]).execute();
      await db.schema.createIndex("spans_project_segment_idx").on("spans").columns(["project_id", "is_segment", "transaction", "start_time"]).execute();

      // One row per project, metric ("duration" of transactions, or a web vital), hour and transaction ("" is the
      // whole project): count, failures, sum, and the counts below the good and above the poor threshold (Apdex's
      // satisfied and frustrated for durations).
      await db.schema
        .createTable("span_hours")
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("metric", "text", (c) => c.notNull())
        .addColumn("hour", "text", (c) => c.notNull())
        .addColumn("transaction", "text", (c) => c.notNull())
        .addColumn("count", t.bigint, (c) => c.notNull())
        .addColumn("failures", t.bigint, (c) => c.notNull())
        .addColumn("sum", "real", (c) => c.notNull())
        .addColumn("good", t.bigint, (c) => c.notNull())
        .addColumn("poor", t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint("span_hours_pkey", ["project_id", "metric", "hour", "transaction"])
        .execute();
      // One transaction's series (a chart) reads by name first.
      await db.schema.createIndex("span_hours_transaction_idx").on("span_hours").columns(["project_id", "metric", "transaction", "hour"]).execute();
      await db.schema.createIndex("span_hours_hour_idx").on("span_hours").column("hour").execute();
      // The same rows' values as a log-bucketed histogram (core/performance-metrics.ts): percentiles within 5%. Read
      // for named transactions (the table's, a chart's), so by name first.
      await db.schema
        .createTable("span_hour_buckets")
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("metric", "text", (c) => c.notNull())
        .addColumn("hour", "text", (c) => c.notNull())
        .addColumn("transaction", "text", (c) => c.notNull())
        .addColumn("bucket", "integer", (c) => c.notNull())
        .addColumn("count", t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint("span_hour_buckets_pkey", ["project_id", "metric", "transaction", "hour", "bucket"])
        .execute();
      await db.schema.createIndex("span_hour_buckets_hour_idx").on("span_hour_buckets").column("hour").execute();

      await db.schema
        .createTable("trace_events")
        .addColumn("trace_id", "text", (c) => c.notNull())
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("event_id", "text", (c) => c.notNull())
        .addColumn("issue_id", "integer", (c) => c.references("issues.id").onDelete("cascade"))
        .addColumn("received_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("trace_events_pkey", ["trace_id", "project_id", "event_id"])
        .execute();
      await db.schema.createIndex("trace_events_received_idx").on("trace_events").column("received_at").execute();
    },
  };
}
