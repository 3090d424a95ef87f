// The audit trail (issue 20): one row per security-relevant change, per organization (members, tokens and keys, data
// scrubbing, alert rules, project deletion, data erasure, sign-in settings) or of the instance (organization_id null:
// sign-in failures and lock-outs, personal tokens, password changes), with who, from which address, and what changed
// (`data`: JSON with the old and new values where there are any). Rows stay when their actor's account goes.
//
// Personal-data erasures (migration 0024's personal_data_erasures) become entries of the trail, event
// "personal-data.erase", with the same facts in `data` (the field, the value's SHA-256, the counts); the old table
// goes, so there is one record of who erased what.
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function auditLog(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("audit_log")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        // Null: an entry of the instance (seen by superusers only). An organization deleted takes its entries along.
        .addColumn("organization_id", "integer", (c) => c.references("organizations.id").onDelete("cascade"))
        // Sentry's audit log event names where Sentry has one ("member.invite", "projectkey.remove", …).
        .addColumn("event", "text", (c) => c.notNull())
        // The person acting; null for an organization token or nobody signed in (a failed sign-in).
        .addColumn("actor_user_id", "text")
        // How the actor reads in the trail even after their account is gone: an e-mail address or a token's name.
        .addColumn("actor_label", "text", (c) => c.notNull())
        .addColumn("ip_address", "text")
        .addColumn("target_object", "text")
        .addColumn("target_user_id", "text")
        .addColumn("note", "text", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("audit_log_org_idx").on("audit_log").columns(["organization_id", "id"]).execute();
      await db.schema.createIndex("audit_log_org_event_idx").on("audit_log").columns(["organization_id", "event", "id"]).execute();
      await sql`
        insert into audit_log (organization_id, event, actor_user_id, actor_label, ip_address, target_object, target_user_id, note, data, created_at)
        select e.organization_id, 'personal-data.erase', e.actor_user_id, coalesce(u.email, e.actor_user_id), null, null, null,
               'erased the events of a person (by ' || e.field || ')',
               '{"field":"' || e.field || '","valueSha256":"' || e.value_sha256 || '","counts":' || e.counts || '}',
               e.created_at
        from personal_data_erasures e left join users u on u.id = e.actor_user_id
        order by e.id`.execute(db);
      await db.schema.dropTable("personal_data_erasures").execute();
    },
  };
}
