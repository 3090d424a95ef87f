// Cron monitors (issue 19): monitors with their schedule, their state per environment, and their check-ins.
//
// A monitor's slug is unique in its organization (Sentry's Monitor unique_together organization_id, slug); it belongs
// to one project, whose DSN its check-ins arrive with. monitor_environments holds what the scheduler reads: the next
// expected check-in and its deadline (next_checkin_latest = next_checkin + margin), and the incident counters (the
// consecutive failures and, during an incident, successes). monitor_checkins are unique per monitor and check-in id,
// so a check-in repeated (the SDK's retries, or the scheduler's missed check-in written twice) is stored once.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function monitors(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("monitors")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("guid", "text", (c) => c.notNull().unique())
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("slug", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        // "active" or "disabled" (Sentry's ObjectStatus as the API shows it).
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("is_muted", t.bool, (c) => c.notNull().defaultTo(t.false))
        // "crontab" (schedule: the expression) or "interval" (schedule: the count, interval_unit: minute … year).
        .addColumn("schedule_type", "text", (c) => c.notNull())
        .addColumn("schedule", "text", (c) => c.notNull())
        .addColumn("interval_unit", "text")
        .addColumn("timezone", "text", (c) => c.notNull())
        .addColumn("checkin_margin", "integer")
        .addColumn("max_runtime", "integer")
        .addColumn("failure_issue_threshold", "integer")
        .addColumn("recovery_threshold", "integer")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addUniqueConstraint("monitors_org_slug_key", ["organization_id", "slug"])
        .execute();
      await db.schema.createIndex("monitors_project_idx").on("monitors").columns(["project_id", "slug"]).execute();
      await db.schema
        .createTable("monitor_environments")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("monitor_id", "integer", (c) => c.notNull().references("monitors.id").onDelete("cascade"))
        .addColumn("environment", "text", (c) => c.notNull())
        // "active" (no check-in yet), "ok" or "error".
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("last_checkin", "text")
        .addColumn("next_checkin", "text")
        .addColumn("next_checkin_latest", "text")
        .addColumn("in_incident", t.bool, (c) => c.notNull().defaultTo(t.false))
        .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("successes", "integer", (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint("monitor_environments_key", ["monitor_id", "environment"])
        .execute();
      await db.schema.createIndex("monitor_environments_due_idx").on("monitor_environments").columns(["next_checkin_latest"]).execute();
      await db.schema
        .createTable("monitor_checkins")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("guid", "text", (c) => c.notNull())
        .addColumn("monitor_id", "integer", (c) => c.notNull().references("monitors.id").onDelete("cascade"))
        .addColumn("monitor_environment_id", "integer", (c) => c.notNull().references("monitor_environments.id").onDelete("cascade"))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        // ok, error, in_progress, missed, timeout, unknown.
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("duration_ms", t.bigint)
        .addColumn("date_added", "text", (c) => c.notNull())
        .addColumn("date_updated", "text", (c) => c.notNull())
        .addColumn("expected_time", "text")
        // When an in-progress check-in times out; null once it has finished.
        .addColumn("timeout_at", "text")
        .addUniqueConstraint("monitor_checkins_guid_key", ["monitor_id", "guid"])
        .execute();
      await db.schema.createIndex("monitor_checkins_env_idx").on("monitor_checkins").columns(["monitor_environment_id", "id"]).execute();
      await db.schema.createIndex("monitor_checkins_timeout_idx").on("monitor_checkins").columns(["timeout_at"]).execute();
    },
  };
}
