import type { Team, TeamStore } from "../ports";
import { type Ctx, decodeCursor, nowIso, toPage, uniquely } from "./shared";

type TeamRow = { id: number; organization_id: number; slug: string; name: string; created_at: string; member_count: number | string | null };
const toTeam = (r: TeamRow): Team => ({
  id: r.id,
  organizationId: r.organization_id,
  slug: r.slug,
  name: r.name,
  createdAt: r.created_at,
  memberCount: Number(r.member_count ?? 0),
});

export function teamStore({ db }: Ctx): TeamStore {
  const base = () =>
    db
      .selectFrom("teams")
      .select(["teams.id", "teams.organization_id", "teams.slug", "teams.name", "teams.created_at"])
      .select((eb) =>
        eb
          .selectFrom("team_members")
          .select((e) => e.fn.countAll<number | string>().as("n"))
          .whereRef("team_members.team_id", "=", "teams.id")
          .as("member_count"),
      );
  return {
    async createTeam({ organizationId, slug, name }) {
      const r = await uniquely("team", () =>
        db
          .insertInto("teams")
          .values({ organization_id: organizationId, slug, name, created_at: nowIso() })
          .returning(["id", "organization_id", "slug", "name", "created_at"])
          .executeTakeFirstOrThrow(),
      );
      return toTeam({ ...r, member_count: 0 });
    },
    async getTeamBySlug(organizationId, slug) {
      const r = await base().where("teams.organization_id", "=", organizationId).where("teams.slug", "=", slug).executeTakeFirst();
      return r ? toTeam(r) : null;
    },
    async getTeamById(organizationId, teamId) {
      const r = await base().where("teams.organization_id", "=", organizationId).where("teams.id", "=", teamId).executeTakeFirst();
      return r ? toTeam(r) : null;
    },
    async listTeams(organizationId, page) {
      const after = decodeCursor(page.cursor);
      let q = base()
        .where("teams.organization_id", "=", organizationId)
        .orderBy("teams.slug")
        .limit(page.limit + 1);
      if (after !== null) q = q.where("teams.slug", ">", after);
      return toPage((await q.execute()).map(toTeam), page, (t) => t.slug);
    },
    async deleteTeam(organizationId, teamId) {
      const r = await db.deleteFrom("teams").where("organization_id", "=", organizationId).where("id", "=", teamId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async addTeamMember(teamId, memberId) {
      await db
        .insertInto("team_members")
        .values({ team_id: teamId, member_id: memberId })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    async removeTeamMember(teamId, memberId) {
      await db.deleteFrom("team_members").where("team_id", "=", teamId).where("member_id", "=", memberId).execute();
    },
    async listTeamIdsOfMember(memberId) {
      return (await db.selectFrom("team_members").select("team_id").where("member_id", "=", memberId).orderBy("team_id").execute()).map((r) => r.team_id);
    },
  };
}
