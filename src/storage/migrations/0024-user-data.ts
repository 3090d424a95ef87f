// A person's data (issue 18): which stored events name which user, so that a person's events are found, exported and
// erased without decoding every event; the record of each erasure; and a project's own, shorter retention.
//
// event_users holds, per stored event, the parts of its user object (id, email, username, ip) and the key the event
// counts for ("key": the digest's userKey, "id:…"/"email:…"…), written by the digest in its batch transaction. Events
// stored before this migration have no rows: they are not found (retention removes them in time).
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function userData(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("event_users")
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("event_id", "text", (c) => c.notNull())
        // The issue the event joined; its rows go with the issue (deleted, or pruned by retention).
        .addColumn("issue_id", "integer", (c) => c.references("issues.id").onDelete("cascade"))
        // "id", "email", "username", "ip", or "key" (the user key the event's issue counted).
        .addColumn("field", "text", (c) => c.notNull())
        .addColumn("value", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("event_users_pk", ["project_id", "event_id", "field"])
        .execute();
      await db.schema.createIndex("event_users_value_idx").on("event_users").columns(["value", "field"]).execute();
      await db.schema.createIndex("event_users_issue_idx").on("event_users").columns(["issue_id", "field", "value"]).execute();
      await db.schema
        .createTable("personal_data_erasures")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        // Who erased; the person erased is not named again: only which field matched and a SHA-256 of the value.
        .addColumn("actor_user_id", "text", (c) => c.notNull())
        .addColumn("field", "text", (c) => c.notNull())
        .addColumn("value_sha256", "text", (c) => c.notNull())
        // JSON: what was deleted ({ events, attachments, tagValues, users, projects }).
        .addColumn("counts", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("personal_data_erasures_org_idx").on("personal_data_erasures").columns(["organization_id", "id"]).execute();
      // Days a project keeps its events when shorter than the instance's FAULTLINE_RETENTION_DAYS; null: the instance's.
      await db.schema.alterTable("projects").addColumn("retention_days", "integer").execute();
    },
  };
}
