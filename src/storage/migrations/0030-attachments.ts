// Attachments and minidumps (issue 19). An event's files (`attachment` envelope items, the standalone attachment
// endpoint, the minidump endpoint) are kept outside the events table: one row each in `event_attachments`, the bytes
// compressed elsewhere, named by `blob_key`: files in the data dir on SQLite, rows of `attachment_chunks` on
// PostgreSQL (so that several nodes share them). The row names its event by id only: a standalone upload may come
// before or after its event, and retention removes attachments whose event is gone (digest/retention.ts).
//
// `blob_key` is unique and derived from the spool record that carried the attachment, so a batch written again after
// a crash stores it once. `projects.attachments_role` is Sentry's attachmentsRole (who may download; null: member);
// `organizations.quotas` holds per-organization quotas ({"attachment": {count, window}}: bytes per window).
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function attachments(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("event_attachments")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("event_id", "text", (c) => c.notNull())
        .addColumn("blob_key", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("content_type", "text", (c) => c.notNull())
        // Sentry's attachment_type: event.attachment, event.minidump, event.view_hierarchy, event.applecrashreport…
        .addColumn("attachment_type", "text", (c) => c.notNull())
        // Bytes as sent, and as stored (compressed).
        .addColumn("size", t.bigint, (c) => c.notNull())
        .addColumn("stored_size", t.bigint, (c) => c.notNull())
        // "gzip": the stored bytes are one gzip member of the original.
        .addColumn("codec", "text", (c) => c.notNull())
        .addColumn("sha1", "text", (c) => c.notNull())
        .addColumn("received_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("event_attachments_blob_idx").on("event_attachments").column("blob_key").unique().execute();
      await db.schema.createIndex("event_attachments_event_idx").on("event_attachments").columns(["project_id", "event_id"]).execute();
      await db.schema
        .createTable("attachment_chunks")
        .addColumn("blob_key", "text", (c) => c.notNull())
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("data", t.blob, (c) => c.notNull())
        .addPrimaryKeyConstraint("attachment_chunks_pk", ["blob_key", "seq"])
        .execute();
      await db.schema.alterTable("projects").addColumn("attachments_role", "text").execute();
      await db.schema.alterTable("organizations").addColumn("quotas", "text").execute();
    },
  };
}
