// GET|PUT|DELETE /api/0/organizations/{org}/
import { scrubbingOptionsOf } from "@/core/data-scrubbing";
import { deleteOrganization, getOrganization, updateOrganization } from "@/core/organizations";
import { apiRoute, readJson } from "@/web/api/handler";
import { serializeOrganization } from "@/web/api/serializers";

export const dynamic = "force-dynamic";
type P = { org: string };

export const GET = apiRoute<P>("org:read", async ({ core, params }) => {
  const { org, role, scopes } = await getOrganization(core, params.org);
  const scrubbing = await scrubbingOptionsOf(core, { organizationId: org.id });
  return Response.json({ ...serializeOrganization(org, scopes === null ? { role } : {}), ...scrubbing }); // an organization token has no role
});

export const PUT = apiRoute<P>("org:write", async ({ core, params, req }) => {
  const org = await updateOrganization(core, params.org, await readJson(req));
  return Response.json({ ...serializeOrganization(org), ...(await scrubbingOptionsOf(core, { organizationId: org.id })) });
});

export const DELETE = apiRoute<P>("org:admin", async ({ core, params }) => {
  await deleteOrganization(core, params.org);
  return new Response(null, { status: 204 });
});
