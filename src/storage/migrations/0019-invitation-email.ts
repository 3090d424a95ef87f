// Invitations name the person they are for. An organization's owners and admins invite an e-mail address; only an
// account with that address joins through the link, and an account made there gets that address. Open links made
// before this (for whoever held them) end now: anyone with such a link could have made an account for any address.
import type { Kysely } from "kysely";
import { sql } from "kysely";

export function invitationEmail() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("invitations").addColumn("email", "text").execute();
      await sql`UPDATE invitations SET expires_at = created_at WHERE accepted_at IS NULL`.execute(db);
      await db.schema.createIndex("invitations_org_email_idx").on("invitations").columns(["organization_id", "email"]).execute();
    },
  };
}
