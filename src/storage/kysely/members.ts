import type { Role } from "../../core/roles";
import type { Member, MemberStore } from "../ports";
import { type Ctx, nowIso, uniquely } from "./shared";

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

export function memberStore({ db }: Ctx): MemberStore {
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
    async addMember({ organizationId, userId, role }) {
      const { id } = await uniquely("member", () =>
        db.insertInto("members").values({ organization_id: organizationId, user_id: userId, role, created_at: nowIso() }).returning("id").executeTakeFirstOrThrow(),
      );
      const m = await one(organizationId, id);
      if (!m) throw new Error("member vanished after insert");
      return m;
    },
    async updateMemberRole(organizationId, memberId, role) {
      await db.updateTable("members").set({ role }).where("organization_id", "=", organizationId).where("id", "=", memberId).execute();
      return one(organizationId, memberId);
    },
    async removeMember(organizationId, memberId) {
      const r = await db.deleteFrom("members").where("organization_id", "=", organizationId).where("id", "=", memberId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
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
