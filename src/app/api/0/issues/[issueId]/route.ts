// GET, PUT and DELETE /api/0/issues/{id}/ – one issue in Sentry's shape; PUT changes its status (resolved,
// resolvedInNextRelease, unresolved, ignored, with statusDetails), as sentry-cli's issues resolve|mute|unresolve do.
import { deleteIssue, getIssue, updateIssue } from "@/core/issues";
import { apiRoute, readJson } from "@/web/api/handler";
import { issueResponse } from "@/web/api/issue-response";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ issueId: string }>("event:read", async (ctx) =>
  Response.json(await issueResponse(ctx.core, await getIssue(ctx.core, ctx.params.issueId), ctx)),
);

export const PUT = apiRoute<{ issueId: string }>("event:write", async (ctx) => {
  const view = await updateIssue(ctx.core, ctx.params.issueId, await readJson(ctx.req));
  return Response.json(await issueResponse(ctx.core, view, ctx));
});

export const DELETE = apiRoute<{ issueId: string }>("event:admin", async (ctx) => {
  await deleteIssue(ctx.core, ctx.params.issueId);
  return new Response(null, { status: 202 });
});
