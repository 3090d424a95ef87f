// What the intake accepts and the digest keeps: events (errors, messages, security reports, transactions, feedback)
// stored once per event id and project; other kept items (sessions, attachments, user reports, spans, check-ins)
// for the later stages that read them; outcome counters per hour; the digest's position in each node's spool; and
// per-key and per-project rate limits.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function ingest(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("events")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("event_id", "text", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("received_at", "text", (c) => c.notNull())
        .addColumn("timestamp", "text", (c) => c.notNull())
        .addColumn("platform", "text", (c) => c.notNull())
        .addColumn("level", "text", (c) => c.notNull())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("message", "text", (c) => c.notNull())
        .addColumn("culprit", "text", (c) => c.notNull())
        .addColumn("release", "text")
        .addColumn("environment", "text")
        .addColumn("size", "integer", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addUniqueConstraint("events_project_event_id_key", ["project_id", "event_id"])
        .execute();
      await db.schema.createIndex("events_project_id_id_idx").on("events").columns(["project_id", "id"]).execute();
      await db.schema
        .createTable("raw_items")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("event_id", "text")
        .addColumn("received_at", "text", (c) => c.notNull())
        .addColumn("headers", "text", (c) => c.notNull())
        .addColumn("payload", t.blob, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("raw_items_project_type_idx").on("raw_items").columns(["project_id", "type", "id"]).execute();
      await db.schema
        .createTable("outcomes")
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("hour", "text", (c) => c.notNull())
        .addColumn("category", "text", (c) => c.notNull())
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("reason", "text", (c) => c.notNull())
        .addColumn("quantity", t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint("outcomes_pkey", ["project_id", "hour", "category", "outcome", "reason"])
        .execute();
      await db.schema
        .createTable("spool_cursors")
        .addColumn("spool_id", "text", (c) => c.primaryKey())
        .addColumn("position", t.bigint, (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      for (const table of ["project_keys", "projects"]) {
        await db.schema.alterTable(table).addColumn("rate_limit_count", "integer").execute();
        await db.schema.alterTable(table).addColumn("rate_limit_window", "integer").execute();
      }
    },
  };
}
