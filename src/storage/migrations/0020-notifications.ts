// The notification outbox. Deciding that a notification is due happens in the transaction that makes it due (the
// digest's batch, an assignment, a metric alert's evaluation): a row here, with a key that names the decision, so a
// crash can neither lose nor repeat it (the key is unique; writing the same decision again changes nothing). Senders
// claim due rows (FOR UPDATE SKIP LOCKED on PostgreSQL), deliver at least once with the key in a header, and record
// every attempt; a failing one is retried with backoff for up to a day, then marked failed.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function notifications(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("notifications")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("project_id", "integer", (c) => c.references("projects.id").onDelete("cascade"))
        // What decided it: issue_rule, metric_alert, workflow, weekly_summary, test.
        .addColumn("source", "text", (c) => c.notNull())
        // The issue alert rule or metric alert that fired (no foreign key: the history outlives a deleted rule).
        .addColumn("rule_id", "integer")
        .addColumn("issue_id", "integer")
        // One action, as the rule held it when it fired (JSON): where and how to send.
        .addColumn("action", "text", (c) => c.notNull())
        // What the message says (JSON, storage/notification-ports.ts NotificationPayload).
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
        // pending, sent, failed
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "text", (c) => c.notNull())
        // A sender's claim: which process, until when (ISO); another may take the row once it has passed.
        .addColumn("claimed_by", "text")
        .addColumn("claimed_until", "text")
        .addColumn("last_error", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("sent_at", "text")
        .execute();
      await db.schema.createIndex("notifications_due_idx").on("notifications").columns(["status", "next_attempt_at"]).execute();
      await db.schema.createIndex("notifications_rule_idx").on("notifications").columns(["source", "rule_id", "created_at"]).execute();
      await db.schema.createIndex("notifications_project_idx").on("notifications").columns(["project_id", "created_at"]).execute();
      await db.schema
        .createTable("notification_attempts")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("notification_id", "integer", (c) => c.notNull().references("notifications.id").onDelete("cascade"))
        .addColumn("attempted_at", "text", (c) => c.notNull())
        .addColumn("duration_ms", "integer", (c) => c.notNull())
        // Where it went: the webhook's origin and path, or the e-mail address.
        .addColumn("target", "text", (c) => c.notNull())
        // The receiver's HTTP status or SMTP reply code; null when no answer came (refused, timed out).
        .addColumn("status_code", "integer")
        .addColumn("ok", t.bool, (c) => c.notNull())
        .addColumn("error", "text")
        // The first bytes of the answer's body (NOTIFICATION_LIMITS.responseExcerptBytes).
        .addColumn("response_excerpt", "text")
        .execute();
      await db.schema.createIndex("notification_attempts_notification_idx").on("notification_attempts").columns(["notification_id", "attempted_at"]).execute();
    },
  };
}
