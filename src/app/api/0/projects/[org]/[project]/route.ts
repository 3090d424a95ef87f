// GET|PUT|DELETE /api/0/projects/{org}/{project}/
import { scrubbingOptionsOf } from "@/core/data-scrubbing";
import { deleteProject, getProject, updateProject } from "@/core/projects";
import { getServices } from "@/runtime/services";
import { apiRoute, readJson } from "@/web/api/handler";
import { projectViews } from "@/web/api/views";

export const dynamic = "force-dynamic";
type P = { org: string; project: string };

export const GET = apiRoute<P>("project:read", async ({ core, params }) => {
  const { access, project } = await getProject(core, params.org, params.project);
  const [view] = await projectViews(core, [project], new Map([[access.org.id, access]]));
  return Response.json({ ...view, ...(await scrubbingOptionsOf(core, { projectId: project.id })) });
});

export const PUT = apiRoute<P>("project:write", async ({ core, params, req }) => {
  const updated = await updateProject(core, params.org, params.project, await readJson(req), { instanceRetentionDays: getServices().config.retentionDays });
  const { access } = await getProject(core, params.org, updated.slug);
  const [view] = await projectViews(core, [updated], new Map([[access.org.id, access]]));
  return Response.json({ ...view, ...(await scrubbingOptionsOf(core, { projectId: updated.id })) });
});

export const DELETE = apiRoute<P>("project:admin", async ({ core, params }) => {
  await deleteProject(core, params.org, params.project);
  return new Response(null, { status: 204 });
});
