// Single sign-on with an OpenID Connect provider (issue 20).
// - sso_settings: the provider a superuser configured in the instance settings (one row, id 1): issuer, client id,
//   the client secret encrypted with the instance secret (auth/sso-secret.ts), the button's name. The environment
//   (FAULTLINE_OIDC_*) takes precedence over it.
// - organizations.require_sso: members of such an organization may not sign in with a password.
// - organizations.sso_auto_join_role and sso_auto_join_domains: a person whose provider-verified e-mail is at one of
//   the organization's domains joins it with that role at their single sign-on (Sentry's auto-join by domain).
// The link between a person and their provider account is better-auth's `accounts` row (provider_id "sso").
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function sso(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("organizations")
        .addColumn("require_sso", t.bool, (c) => c.notNull().defaultTo(t.false))
        .execute();
      await db.schema
        .alterTable("organizations")
        .addColumn("sso_auto_join_role", "text", (c) => c.notNull().defaultTo("member"))
        .execute();
      await db.schema
        .createTable("sso_auto_join_domains")
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        // Lower case, without a trailing dot.
        .addColumn("domain", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("sso_auto_join_domains_pk", ["organization_id", "domain"])
        .execute();
      await db.schema.createIndex("sso_auto_join_domains_domain_idx").on("sso_auto_join_domains").column("domain").execute();
      await db.schema
        .createTable("sso_settings")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("issuer", "text", (c) => c.notNull())
        .addColumn("client_id", "text", (c) => c.notNull())
        .addColumn("client_secret", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        // ISO 8601; also tells every node that the provider changed.
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
    },
  };
}
