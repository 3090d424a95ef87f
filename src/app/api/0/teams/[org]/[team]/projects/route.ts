// POST /api/0/teams/{org}/{team}/projects/ – create a project owned by the team.
import { getOrgAccess } from "@/core/access";
import { createProject } from "@/core/projects";
import { getTeam } from "@/core/teams";
import { apiRoute, readJson } from "@/web/api/handler";
import { projectViews } from "@/web/api/views";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ org: string; team: string }>("project:write", async ({ core, params, req }) => {
  const team = await getTeam(core, params.org, params.team);
  const body = await readJson(req);
  const project = await createProject(core, params.org, { ...body, team: team.slug });
  const access = await getOrgAccess(core, params.org);
  const [view] = await projectViews(core, [project], new Map([[access.org.id, access]]));
  return Response.json(view, { status: 201 });
});
