// User feedback (issue 19): one row per feedback, whatever carried it: a `feedback` envelope item (the feedback
// widget, Sentry.captureFeedback: an event of type feedback with contexts.feedback), a legacy `user_report` item, or
// POST /api/0/projects/{org}/{project}/user-feedback/ (older SDKs' capture_user_feedback). The feedback event itself
// stays in events as before; this row is what the inbox lists and triages.
//
// `dedupe_key` makes a batch written twice, or an SDK's retry, store one row: "feedback:<feedback event id>" or
// "report:<associated event id>" (Sentry keeps one user report per event, the newest one winning). The associated
// event and its issue are linked when both are known, whichever arrives first (digest/feedback.ts).
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function userFeedback(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("user_feedback")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("dedupe_key", "text", (c) => c.notNull())
        // "feedback" (envelope item), "user_report" (envelope item) or "api" (the user-feedback endpoint).
        .addColumn("source", "text", (c) => c.notNull())
        // The feedback event's own id (source "feedback"); null for user reports, which are no events.
        .addColumn("feedback_event_id", "text")
        .addColumn("associated_event_id", "text")
        // The associated event's issue once both are stored; an issue deleted or pruned leaves the feedback.
        .addColumn("issue_id", "integer", (c) => c.references("issues.id").onDelete("set null"))
        .addColumn("message", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("url", "text", (c) => c.notNull())
        // JSON: what the feedback event tells of where it came from (browser, os, user, tags, environment, release).
        .addColumn("details", "text", (c) => c.notNull())
        // "new", "resolved" or "spam".
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("assignee_user_id", "text")
        .addColumn("received_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("user_feedback_dedupe_idx").on("user_feedback").columns(["project_id", "dedupe_key"]).unique().execute();
      await db.schema.createIndex("user_feedback_project_status_idx").on("user_feedback").columns(["project_id", "status", "id"]).execute();
      await db.schema.createIndex("user_feedback_event_idx").on("user_feedback").columns(["project_id", "associated_event_id"]).execute();
      await db.schema.createIndex("user_feedback_issue_idx").on("user_feedback").columns(["issue_id"]).execute();
    },
  };
}
