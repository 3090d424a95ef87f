// Organization auth tokens (storage/org-token-ports.ts) on SQLite and PostgreSQL.
import { recordUse } from "../storage-full";
import type { OrgToken, OrgTokenStore } from "../org-token-ports";
import type { Ctx } from "./shared";

/** A use is recorded at most once a minute per token: a busy CI job must not turn every read into a write. */
const USE_RECORD_INTERVAL_MS = 60_000;

type Row = {
  id: number;
  organization_id: number;
  name: string;
  token_suffix: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  creator_name: string | null;
  creator_email: string | null;
};

const toOrgToken = (r: Row): OrgToken => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  tokenSuffix: r.token_suffix,
  createdBy: r.created_by !== null && r.creator_email !== null ? { id: r.created_by, name: r.creator_name ?? "", email: r.creator_email } : null,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

export function orgTokenStore({ db }: Ctx): OrgTokenStore {
  const select = () =>
    db
      .selectFrom("org_auth_tokens as t")
      .leftJoin("users as u", "u.id", "t.created_by")
      .select([
        "t.id",
        "t.organization_id",
        "t.name",
        "t.token_suffix",
        "t.created_by",
        "t.created_at",
        "t.last_used_at",
        "t.revoked_at",
        "u.name as creator_name",
        "u.email as creator_email",
      ]);
  const byId = async (id: number) => toOrgToken(await select().where("t.id", "=", id).executeTakeFirstOrThrow());

  return {
    async createOrgToken({ organizationId, name, tokenHash, tokenSuffix, createdBy, createdAt }) {
      const { id } = await db
        .insertInto("org_auth_tokens")
        .values({
          organization_id: organizationId,
          name,
          token_hash: tokenHash,
          token_suffix: tokenSuffix,
          created_by: createdBy,
          created_at: createdAt,
          last_used_at: null,
          revoked_at: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return byId(id);
    },
    async listOrgTokens(organizationId) {
      const rows = await select().where("t.organization_id", "=", organizationId).where("t.revoked_at", "is", null).orderBy("t.id").execute();
      return rows.map(toOrgToken);
    },
    async revokeOrgToken(organizationId, tokenId, now) {
      const r = await db
        .updateTable("org_auth_tokens")
        .set({ revoked_at: now })
        .where("organization_id", "=", organizationId)
        .where("id", "=", tokenId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async useOrgToken(tokenHash, now) {
      const row = await select().where("t.token_hash", "=", tokenHash).where("t.revoked_at", "is", null).executeTakeFirst();
      if (!row) return null;
      if (!row.last_used_at || Date.parse(now) - Date.parse(row.last_used_at) > USE_RECORD_INTERVAL_MS) {
        const recorded = await recordUse(db.updateTable("org_auth_tokens").set({ last_used_at: now }).where("id", "=", row.id).execute(), "orgTokenUse");
        return toOrgToken(recorded ? { ...row, last_used_at: now } : row);
      }
      return toOrgToken(row);
    },
  };
}
