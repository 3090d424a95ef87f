// What the digest makes of events: issues (Sentry's groups) with their per-project short ids, the grouping hashes
// that lead to them (with the grouping config that made each), each event's issue, an activity log per issue,
// counters for the dashboard (events per hour, distinct users, tag values), and the releases and environments that
// events name.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function issues(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("projects")
        .addColumn("issue_counter", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable("issues")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("short_id", "integer", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("culprit", "text", (c) => c.notNull())
        .addColumn("level", "text", (c) => c.notNull())
        .addColumn("platform", "text", (c) => c.notNull())
        .addColumn("metadata", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("substatus", "text")
        .addColumn("resolution", "text")
        .addColumn("snooze", "text")
        .addColumn("first_seen", "text", (c) => c.notNull())
        .addColumn("last_seen", "text", (c) => c.notNull())
        .addColumn("times_seen", t.bigint, (c) => c.notNull())
        .addColumn("first_release", "text")
        .addColumn("assignee_id", "text", (c) => c.references("users.id").onDelete("set null"))
        .addUniqueConstraint("issues_project_short_id_key", ["project_id", "short_id"])
        .execute();
      await db.schema.createIndex("issues_project_last_seen_idx").on("issues").columns(["project_id", "last_seen"]).execute();
      await db.schema.createIndex("issues_project_status_last_seen_idx").on("issues").columns(["project_id", "status", "last_seen"]).execute();
      await db.schema
        .createTable("issue_hashes")
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("hash", "text", (c) => c.notNull())
        .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
        .addColumn("grouping_config", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("issue_hashes_pkey", ["project_id", "hash"])
        .execute();
      await db.schema.createIndex("issue_hashes_issue_idx").on("issue_hashes").column("issue_id").execute();
      await db.schema
        .alterTable("events")
        .addColumn("issue_id", "integer", (c) => c.references("issues.id").onDelete("cascade"))
        .execute();
      await db.schema.createIndex("events_issue_id_idx").on("events").columns(["issue_id", "id"]).execute();
      await db.schema
        .createTable("issue_activity")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("issue_activity_issue_idx").on("issue_activity").columns(["issue_id", "id"]).execute();
      await db.schema
        .createTable("issue_counts")
        .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
        .addColumn("hour", "text", (c) => c.notNull())
        .addColumn("count", t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint("issue_counts_pkey", ["issue_id", "hour"])
        .execute();
      await db.schema
        .createTable("issue_users")
        .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
        .addColumn("user_key", "text", (c) => c.notNull())
        .addColumn("first_seen", "text", (c) => c.notNull())
        .addColumn("last_seen", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("issue_users_pkey", ["issue_id", "user_key"])
        .execute();
      await db.schema
        .createTable("issue_tags")
        .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
        .addColumn("key", "text", (c) => c.notNull())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("times_seen", t.bigint, (c) => c.notNull())
        .addColumn("first_seen", "text", (c) => c.notNull())
        .addColumn("last_seen", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("issue_tags_pkey", ["issue_id", "key", "value"])
        .execute();
      await db.schema
        .createTable("releases")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("version", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("released_at", "text")
        .addColumn("ref", "text")
        .addColumn("url", "text")
        .addUniqueConstraint("releases_org_version_key", ["organization_id", "version"])
        .execute();
      await db.schema
        .createTable("release_projects")
        .addColumn("release_id", "integer", (c) => c.notNull().references("releases.id").onDelete("cascade"))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("new_issues", "integer", (c) => c.notNull())
        .addColumn("first_event", "text")
        .addColumn("last_event", "text")
        .addPrimaryKeyConstraint("release_projects_pkey", ["release_id", "project_id"])
        .execute();
      await db.schema
        .createTable("environments")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addUniqueConstraint("environments_org_name_key", ["organization_id", "name"])
        .execute();
      await db.schema
        .createTable("environment_projects")
        .addColumn("environment_id", "integer", (c) => c.notNull().references("environments.id").onDelete("cascade"))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addPrimaryKeyConstraint("environment_projects_pkey", ["environment_id", "project_id"])
        .execute();
    },
  };
}
