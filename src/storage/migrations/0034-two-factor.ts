// Two-factor sign-in (issue 20): TOTP (RFC 6238) with recovery codes, through better-auth's twoFactor plugin, and an
// organization's "require two-factor".
// - users.two_factor_enabled: better-auth's `twoFactorEnabled`, set once the person confirmed a first code.
// - two_factors: the plugin's table: the TOTP secret (encrypted with the instance secret), the recovery codes
//   (a JSON array of their HMAC-SHA-256 hashes, never the codes: auth/two-factor.ts), whether the enrolment was
//   confirmed, and the failed-code count and lock-out of the plugin's per-account lock-out.
// - two_factor_used_codes: codes that signed someone in or confirmed an enrolment, until they can no longer be valid,
//   so that a code read over someone's shoulder cannot be used a second time (RFC 6238 §5.2).
// - organizations.require_two_factor: members without two-factor see only the enrolment page of the organization.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function twoFactor(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("users")
        .addColumn("two_factor_enabled", t.bool, (c) => c.notNull().defaultTo(t.false))
        .execute();
      await db.schema
        .createTable("two_factors")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("backup_codes", "text", (c) => c.notNull())
        .addColumn("user_id", "text", (c) => c.notNull().unique().references("users.id").onDelete("cascade"))
        .addColumn("verified", t.bool, (c) => c.notNull().defaultTo(t.true))
        .addColumn("failed_verification_count", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("locked_until", t.timestamp)
        .execute();
      await db.schema
        .createTable("two_factor_used_codes")
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("code", "text", (c) => c.notNull())
        // ISO 8601; the row may go once this has passed.
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("two_factor_used_codes_pk", ["user_id", "code"])
        .execute();
      await db.schema
        .alterTable("organizations")
        .addColumn("require_two_factor", t.bool, (c) => c.notNull().defaultTo(t.false))
        .execute();
    },
  };
}
