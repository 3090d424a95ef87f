// Accounts (the tables better-auth reads, frozen here), organizations, teams, projects, DSN keys and API tokens.
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function initial(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("users")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("email", "text", (c) => c.notNull().unique())
        .addColumn("email_verified", t.bool, (c) => c.notNull())
        .addColumn("image", "text")
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("updated_at", t.timestamp, (c) => c.notNull())
        .addColumn("is_superuser", t.bool, (c) => c.notNull().defaultTo(t.false))
        .execute();
      await db.schema
        .createTable("sessions")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .addColumn("token", "text", (c) => c.notNull().unique())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("updated_at", t.timestamp, (c) => c.notNull())
        .addColumn("ip_address", "text")
        .addColumn("user_agent", "text")
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .execute();
      await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();
      await db.schema
        .createTable("accounts")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("account_id", "text", (c) => c.notNull())
        .addColumn("provider_id", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("access_token", "text")
        .addColumn("refresh_token", "text")
        .addColumn("id_token", "text")
        .addColumn("access_token_expires_at", t.timestamp)
        .addColumn("refresh_token_expires_at", t.timestamp)
        .addColumn("scope", "text")
        .addColumn("password", "text")
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("updated_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("accounts_user_id_idx").on("accounts").column("user_id").execute();
      await db.schema
        .createTable("verifications")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("identifier", "text", (c) => c.notNull())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .addColumn("created_at", t.timestamp, (c) => c.notNull())
        .addColumn("updated_at", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("verifications_identifier_idx").on("verifications").column("identifier").execute();
      await db.schema
        .createTable("rate_limits")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("key", "text", (c) => c.notNull().unique())
        .addColumn("count", "integer", (c) => c.notNull())
        .addColumn("last_request", "bigint", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("organizations")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("slug", "text", (c) => c.notNull().unique())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("members")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('owner', 'admin', 'member', 'viewer')`))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addUniqueConstraint("members_org_user_unique", ["organization_id", "user_id"])
        .execute();
      await db.schema.createIndex("members_user_id_idx").on("members").column("user_id").execute();
      await db.schema
        .createTable("teams")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("slug", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addUniqueConstraint("teams_org_slug_unique", ["organization_id", "slug"])
        .execute();
      await db.schema
        .createTable("team_members")
        .addColumn("team_id", "integer", (c) => c.notNull().references("teams.id").onDelete("cascade"))
        .addColumn("member_id", "integer", (c) => c.notNull().references("members.id").onDelete("cascade"))
        .addPrimaryKeyConstraint("team_members_pk", ["team_id", "member_id"])
        .execute();
      await db.schema
        .createTable("projects")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("team_id", "integer", (c) => c.references("teams.id").onDelete("set null"))
        .addColumn("slug", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("platform", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addUniqueConstraint("projects_org_slug_unique", ["organization_id", "slug"])
        .execute();
      await db.schema
        .createTable("project_keys")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("label", "text", (c) => c.notNull())
        .addColumn("public_key", "text", (c) => c.notNull().unique())
        .addColumn("secret_key", "text", (c) => c.notNull())
        .addColumn("is_active", t.bool, (c) => c.notNull().defaultTo(t.true))
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("project_keys_project_id_idx").on("project_keys").column("project_id").execute();
      await db.schema
        .createTable("api_tokens")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("token_suffix", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("last_used_at", "text")
        .execute();
      await db.schema.createIndex("api_tokens_user_id_idx").on("api_tokens").column("user_id").execute();
    },
  };
}
