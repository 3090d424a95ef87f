// GET /api/0/projects/{org}/{project}/issues/?query=&sort=&cursor= – the project's issues in Sentry's list shape.
// PUT and DELETE with ?id=1&id=2 – the bulk forms: one status change for several issues, or their deletion.
import { deleteProjectIssues, listProjectIssues, updateProjectIssues } from "@/core/issues";
import { pageRequest } from "@/core/pagination";
import { apiRoute, paged, readJson } from "@/web/api/handler";
import { issuePermalink } from "@/web/api/issue-response";
import { serializeIssue, statsSince } from "@/web/api/issue-serializers";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string; project: string }>(async (ctx) => {
  const params = ctx.url.searchParams;
  const page = pageRequest({ cursor: params.get("cursor"), limit: params.get("limit") ?? params.get("per_page") ?? undefined });
  const { project, page: issues } = await listProjectIssues(ctx.core, ctx.params.org, ctx.params.project, { query: params.get("query"), sort: params.get("sort"), page });
  const counts = await ctx.core.store.issueCountsOf(issues.items.map((i) => i.id), statsSince());
  const permalink = issuePermalink(ctx, ctx.params.org, project.slug);
  return paged(issues.items.map((i) => serializeIssue(i, project, counts.get(i.id) ?? [], permalink)), issues.nextCursor, ctx);
});

export const PUT = apiRoute<{ org: string; project: string }>(async (ctx) => {
  const body = await readJson(ctx.req);
  await updateProjectIssues(ctx.core, ctx.params.org, ctx.params.project, ctx.url.searchParams.getAll("id"), body);
  // Sentry answers a bulk update with the change it applied.
  return Response.json({ status: body.status, statusDetails: body.statusDetails ?? {} });
});

export const DELETE = apiRoute<{ org: string; project: string }>(async (ctx) => {
  await deleteProjectIssues(ctx.core, ctx.params.org, ctx.params.project, ctx.url.searchParams.getAll("id"));
  return new Response(null, { status: 204 });
});
