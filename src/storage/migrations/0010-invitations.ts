// Invitations to an organization by link: Faultline sends no mail yet, so an admin copies the link and passes it on.
// Only the SHA-256 of the link's secret is kept; a link is used once and ends at `expires_at`.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function invitations(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("invitations")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("expires_at", "text", (c) => c.notNull())
        .addColumn("accepted_by", "text", (c) => c.references("users.id").onDelete("set null"))
        .addColumn("accepted_at", "text")
        .execute();
      await db.schema.createIndex("invitations_org_idx").on("invitations").columns(["organization_id", "id"]).execute();
    },
  };
}
