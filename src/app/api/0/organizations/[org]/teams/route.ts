// GET|POST /api/0/organizations/{org}/teams/
import { getOrgAccess } from "@/core/access";
import { pageRequest } from "@/core/pagination";
import { createTeam, listTeams } from "@/core/teams";
import { apiRoute, paged, readJson } from "@/web/api/handler";
import { serializeTeam } from "@/web/api/serializers";

export const dynamic = "force-dynamic";
type P = { org: string };

export const GET = apiRoute<P>("team:read", async (ctx) => {
  const page = await listTeams(
    ctx.core,
    ctx.params.org,
    pageRequest("slug", { cursor: ctx.url.searchParams.get("cursor"), limit: ctx.url.searchParams.get("per_page") ?? undefined }),
  );
  const access = await getOrgAccess(ctx.core, ctx.params.org);
  const mine = access.memberId !== null ? await ctx.core.store.listTeamIdsOfMember(access.memberId) : [];
  return paged(
    page.items.map((t) => serializeTeam(t, mine.includes(t.id))),
    page.nextCursor,
    ctx,
  );
});

export const POST = apiRoute<P>("org:write", async ({ core, params, req }) => {
  const team = await createTeam(core, params.org, await readJson(req));
  return Response.json(serializeTeam(team, true), { status: 201 });
});
