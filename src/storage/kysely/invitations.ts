// Invitations by e-mail address, accepted by link (storage/dashboard-ports.ts), on SQLite and PostgreSQL. Making one
// and accepting one are each one transaction; on PostgreSQL the invitation row is locked, on SQLite the single writer
// serializes them.
import type { Role } from "../../core/roles";
import type { Invitation, InvitationStore } from "../dashboard-ports";
import type { InvitationsTable } from "../schema";
import { type Ctx, nowIso } from "./shared";

type Row = Omit<InvitationsTable, "id" | "token_hash"> & { id: number };
const toInvitation = (r: Row): Invitation => ({
  id: r.id,
  organizationId: r.organization_id,
  email: r.email,
  role: r.role as Role,
  createdBy: r.created_by,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  acceptedBy: r.accepted_by,
  acceptedAt: r.accepted_at,
});
const COLUMNS = ["id", "organization_id", "email", "role", "created_by", "created_at", "expires_at", "accepted_by", "accepted_at"] as const;

export function invitationStore({ db, dialect }: Ctx): InvitationStore {
  return {
    async createInvitation({ organizationId, email, role, tokenHash, createdBy, createdAt, expiresAt }) {
      const address = email.trim().toLowerCase();
      return db.transaction().execute(async (trx) => {
        const member = await trx
          .selectFrom("members")
          .innerJoin("users", "users.id", "members.user_id")
          .select("members.id")
          .where("members.organization_id", "=", organizationId)
          .where("users.email", "=", address)
          .executeTakeFirst();
        if (member) return "already_member" as const;
        await trx
          .deleteFrom("invitations")
          .where("organization_id", "=", organizationId)
          .where("email", "=", address)
          .where("accepted_at", "is", null)
          .execute();
        const row = await trx
          .insertInto("invitations")
          .values({
            organization_id: organizationId,
            email: address,
            role,
            token_hash: tokenHash,
            created_by: createdBy,
            created_at: createdAt,
            expires_at: expiresAt,
            accepted_by: null,
            accepted_at: null,
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toInvitation(row);
      });
    },
    async listPendingInvitations(organizationId) {
      const rows = await db
        .selectFrom("invitations")
        .select(COLUMNS)
        .where("organization_id", "=", organizationId)
        .where("accepted_at", "is", null)
        .orderBy("id", "desc")
        .execute();
      return rows.map(toInvitation);
    },
    async getInvitationByHash(tokenHash) {
      const row = await db.selectFrom("invitations").select(COLUMNS).where("token_hash", "=", tokenHash).executeTakeFirst();
      return row ? toInvitation(row) : null;
    },
    async deleteInvitation(organizationId, invitationId) {
      const r = await db.deleteFrom("invitations").where("organization_id", "=", organizationId).where("id", "=", invitationId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async acceptInvitation(tokenHash, userId, now) {
      return db.transaction().execute(async (trx) => {
        let q = trx.selectFrom("invitations").select(COLUMNS).where("token_hash", "=", tokenHash);
        if (dialect === "postgres") q = q.forUpdate();
        const inv = await q.executeTakeFirst();
        if (!inv || inv.accepted_at !== null || inv.expires_at <= now || inv.email === null) return "invalid" as const;
        const user = await trx.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
        if (!user || user.email.toLowerCase() !== inv.email) return "other_address" as const;
        const existing = await trx
          .selectFrom("members")
          .select("id")
          .where("organization_id", "=", inv.organization_id)
          .where("user_id", "=", userId)
          .executeTakeFirst();
        if (existing) return "already_member" as const;
        const { id } = await trx
          .insertInto("members")
          .values({ organization_id: inv.organization_id, user_id: userId, role: inv.role, created_at: nowIso() })
          .returning("id")
          .executeTakeFirstOrThrow();
        await trx.updateTable("invitations").set({ accepted_by: userId, accepted_at: now }).where("id", "=", inv.id).execute();
        return { organizationId: inv.organization_id, memberId: id };
      });
    },
  };
}
