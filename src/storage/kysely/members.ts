import type { Role } from "../../core/roles";
import type { Member, MemberStore } from "../ports";
import type { Ctx } from "./shared";

type MemberRow = { id: number; organization_id: number; user_id: string; role: string; created_at: string; email: string; name: string };
const toMember = (r: MemberRow): Member => ({
  id: r.id,
  organizationId: r.organization_id,
  userId: r.user_id,
  role: r.role as Role,
  createdAt: r.created_at,
  email: r.email,
  name: r.name,
});

export function memberStore({ db, dialect }: Ctx): MemberStore {
  /**
   * Runs `write` for the member unless it is the organization's last owner and `keepsOwnerRole` is false.
   * PostgreSQL: the owner rows are locked (FOR UPDATE) for the transaction. SQLite: Kysely runs transactions on its
   * one connection one at a time, and the database has a single writer.
   */
  const unlessLastOwner = <T>(organizationId: number, memberId: number, keepsOwnerRole: boolean, write: (trx: typeof db) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      let owners = trx.selectFrom("members").select(["id"]).where("organization_id", "=", organizationId).where("role", "=", "owner");
      if (dialect === "postgres") owners = owners.forUpdate();
      const ownerIds = (await owners.execute()).map((r) => r.id);
      if (!keepsOwnerRole && ownerIds.length === 1 && ownerIds[0] === memberId) return "last_owner" as const;
      return write(trx);
    });
  const base = () =>
    db
      .selectFrom("members")
      .innerJoin("users", "users.id", "members.user_id")
      .select(["members.id", "members.organization_id", "members.user_id", "members.role", "members.created_at", "users.email", "users.name"]);
  const one = async (organizationId: number, memberId: number) => {
    const r = await base().where("members.organization_id", "=", organizationId).where("members.id", "=", memberId).executeTakeFirst();
    return r ? toMember(r) : null;
  };
  return {
    async getMembership(organizationId, userId) {
      const r = await base().where("members.organization_id", "=", organizationId).where("members.user_id", "=", userId).executeTakeFirst();
      return r ? toMember(r) : null;
    },
    getMember: one,
    async listMembers(organizationId) {
      return (await base().where("members.organization_id", "=", organizationId).orderBy("users.email").execute()).map(toMember);
    },
    async updateMemberRole(organizationId, memberId, role) {
      const result = await unlessLastOwner(organizationId, memberId, role === "owner", (trx) =>
        trx.updateTable("members").set({ role }).where("organization_id", "=", organizationId).where("id", "=", memberId).execute(),
      );
      return result === "last_owner" ? result : one(organizationId, memberId);
    },
    async removeMember(organizationId, memberId) {
      const result = await unlessLastOwner(organizationId, memberId, false, (trx) =>
        trx.deleteFrom("members").where("organization_id", "=", organizationId).where("id", "=", memberId).executeTakeFirst(),
      );
      return result === "last_owner" ? result : Number(result.numDeletedRows) > 0;
    },
    async countOwners(organizationId) {
      const r = await db
        .selectFrom("members")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("organization_id", "=", organizationId)
        .where("role", "=", "owner")
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
