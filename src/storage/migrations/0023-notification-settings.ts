// Personal notification settings (issue 17, "People"): each person's language and time zone for what Faultline
// sends them, e-mail alerts per project, workflow notices, the weekly summary per organization, and issue
// subscriptions with Sentry's participation reasons (GroupSubscription: assigned, commented, subscribed). A setting
// without a row is its default (on), so a new project, organization or person needs no rows to be notified.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function notificationSettings(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("user_notification_settings")
        .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
        // en or de; null: the instance's default language.
        .addColumn("locale", "text")
        // An IANA zone (Europe/Berlin); null: UTC.
        .addColumn("time_zone", "text")
        // Assigned to me, a comment or a regression on an issue I take part in.
        .addColumn("workflow", t.bool, (c) => c.notNull().defaultTo(t.true))
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("project_notification_settings")
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        // E-mail from the project's alert rules.
        .addColumn("email", t.bool, (c) => c.notNull())
        .addPrimaryKeyConstraint("project_notification_settings_pk", ["user_id", "project_id"])
        .execute();
      await db.schema
        .createTable("organization_notification_settings")
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("weekly_summary", t.bool, (c) => c.notNull())
        .addPrimaryKeyConstraint("organization_notification_settings_pk", ["user_id", "organization_id"])
        .execute();
      await db.schema
        .createTable("issue_subscriptions")
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
        // false: the person unsubscribed; taking part again later does not subscribe them again.
        .addColumn("is_active", t.bool, (c) => c.notNull())
        // assigned, comment, subscribed: why they first came to take part.
        .addColumn("reason", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("issue_subscriptions_pk", ["user_id", "issue_id"])
        .execute();
      await db.schema.createIndex("issue_subscriptions_issue_idx").on("issue_subscriptions").columns(["issue_id", "is_active"]).execute();
    },
  };
}
