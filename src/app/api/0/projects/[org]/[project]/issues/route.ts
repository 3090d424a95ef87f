// GET /api/0/projects/{org}/{project}/issues/?query=&sort=&environment=&statsPeriod=&cursor= – the project's issues in
// Sentry's list shape (sort: date, new, freq, user; environment may repeat).
// PUT and DELETE with ?id=1&id=2 – the bulk forms: one status change or assignment for several issues, or their deletion.
import { AppError } from "@/core/errors";
import { deleteProjectIssues, listProjectIssues, updateProjectIssues } from "@/core/issues";
import { pageRequest } from "@/core/pagination";
import { apiRoute, paged, readJson } from "@/web/api/handler";
import { isListStatsPeriod, issueListResponse } from "@/web/api/issue-response";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string; project: string }>("event:read", async (ctx) => {
  const params = ctx.url.searchParams;
  const page = pageRequest("sort|id", { cursor: params.get("cursor"), limit: params.get("limit") ?? params.get("per_page") ?? undefined });
  const statsPeriod = params.get("statsPeriod") ?? "24h";
  if (!isListStatsPeriod(statsPeriod)) throw new AppError("bad_request", `Unsupported statsPeriod "${statsPeriod}": use 24h, 14d or nothing`);
  const environments = params.getAll("environment");
  const { project, page: issues } = await listProjectIssues(ctx.core, ctx.params.org, ctx.params.project, {
    query: params.get("query"),
    sort: params.get("sort"),
    page,
    environments,
  });
  return paged(await issueListResponse(ctx.core, project, ctx.params.org, issues.items, statsPeriod, ctx), issues.nextCursor, ctx);
});

export const PUT = apiRoute<{ org: string; project: string }>("event:write", async (ctx) => {
  const body = await readJson(ctx.req);
  const views = await updateProjectIssues(ctx.core, ctx.params.org, ctx.params.project, ctx.url.searchParams.getAll("id"), body);
  // Sentry answers a bulk update with the change it applied; an assignment with the assignee as the issues now have it.
  const assigned =
    "assignedTo" in body && views[0]
      ? (await issueListResponse(ctx.core, views[0].project, ctx.params.org, [views[0].issue], "", ctx))[0]!.assignedTo
      : undefined;
  return Response.json({
    ...("status" in body ? { status: body.status, statusDetails: body.statusDetails ?? {} } : {}),
    ...(assigned !== undefined ? { assignedTo: assigned } : {}),
  });
});

export const DELETE = apiRoute<{ org: string; project: string }>("event:admin", async (ctx) => {
  await deleteProjectIssues(ctx.core, ctx.params.org, ctx.params.project, ctx.url.searchParams.getAll("id"));
  return new Response(null, { status: 204 });
});
