// Records the digest set aside (the dead-letter table): a spool record whose processing failed, or whose batch's
// transaction the database refused for a reason about its data, once in its batch and again alone, or that kept the
// digest thread busy past its time budget. The record itself is kept (spool-record.ts's encoding: its fields and
// payload), so that it can be sent through the digest again after its spool segment is long deleted; with it the
// error, when, and how many attempts were made. Superusers list, retry and discard them on the diagnostics page.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function deadLetters(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("dead_letters")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("spool_id", "text", (c) => c.notNull())
        // The record's spool position (the log offset just past it): with spool_id, which record it was.
        .addColumn("record_id", t.bigint, (c) => c.notNull())
        // Null for a record of the intake's outcome counts, which name several projects.
        .addColumn("project_id", "integer", (c) => c.references("projects.id").onDelete("cascade"))
        .addColumn("item_type", "text", (c) => c.notNull())
        .addColumn("event_id", "text")
        .addColumn("received_at", "text", (c) => c.notNull())
        .addColumn("record", t.blob, (c) => c.notNull())
        .addColumn("size", "integer", (c) => c.notNull())
        .addColumn("error", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("failed_at", "text", (c) => c.notNull())
        // When a superuser sent it through the digest again; null while it waits.
        .addColumn("retried_at", "text")
        .execute();
      await db.schema.createIndex("dead_letters_record_idx").on("dead_letters").columns(["spool_id", "record_id"]).unique().execute();
    },
  };
}
