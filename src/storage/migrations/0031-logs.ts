// Structured logs (issue 19): one row per log line of a `log` or `otel_log` envelope item, written by the digest in its
// batch transaction. Newest first per project is (project_id, timestamp, id); a level filter has its own index; a
// trace's lines are found by trace_id. The table is plain (no partitions, no foreign key from other tables) and
// ordered by its timestamp index, so that it can be partitioned by time later like events and spans.
//
// Text and `key:value` search use one full-text index per dialect, fed with the same terms computed by Faultline
// (core/log-terms.ts), so that both match alike: on SQLite a contentless FTS5 table (rowid = logs.id; body words in
// one column, the project's and the attributes' tokens in the other, positions not kept), emptied row by row by a
// trigger as logs are deleted (retention, a deleted project); on PostgreSQL a tsvector column built with
// array_to_tsvector from the same terms (no text parser in between) under a GIN index, both in core PostgreSQL.
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../db";

export function logs(dialect: Dialect) {
  const pg = dialect === "postgres";
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema
        .createTable("logs")
        // 64-bit on PostgreSQL: a busy install writes billions of log lines over the years, ids never reused.
        .addColumn("id", pg ? "bigserial" : "integer", (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        // ISO-8601 UTC with milliseconds: the SDK's time of the line (clamped to its arrival when in the future).
        .addColumn("timestamp", "text", (c) => c.notNull())
        .addColumn("received_at", "text", (c) => c.notNull())
        // trace, debug, info, warn, error or fatal.
        .addColumn("level", "text", (c) => c.notNull())
        .addColumn("severity_number", "integer", (c) => c.notNull())
        .addColumn("body", "text", (c) => c.notNull())
        // JSON: {key: {type, value}} as Sentry's log protocol sends them, trimmed to the limits.
        .addColumn("attributes", "text", (c) => c.notNull())
        .addColumn("trace_id", "text")
        .addColumn("span_id", "text")
        .addColumn("release", "text")
        .addColumn("environment", "text")
        // JSON or null: notes of what was trimmed or dropped, and data scrubbing's remarks (Relay's _meta).
        .addColumn("meta", "text");
      if (pg) table = table.addColumn("search", sql`tsvector`, (c) => c.notNull());
      await table.execute();
      await db.schema.createIndex("logs_project_time_idx").on("logs").columns(["project_id", "timestamp", "id"]).execute();
      await db.schema.createIndex("logs_project_level_time_idx").on("logs").columns(["project_id", "level", "timestamp", "id"]).execute();
      await db.schema.createIndex("logs_trace_idx").on("logs").column("trace_id").execute();
      if (pg) {
        await sql`create index logs_search_idx on logs using gin (search)`.execute(db);
      } else {
        await sql`create virtual table logs_fts using fts5(body, attrs, content='', contentless_delete=1, detail=column, tokenize='unicode61 remove_diacritics 0')`.execute(
          db,
        );
        await sql`create trigger logs_fts_delete after delete on logs begin delete from logs_fts where rowid = old.id; end`.execute(db);
      }
    },
  };
}
