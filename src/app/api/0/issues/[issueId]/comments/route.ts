// GET /api/0/issues/{id}/comments/ – the issue's comments, newest first; POST {text} adds one (Sentry's GroupNotes).
import { addComment, listComments } from "@/core/issue-comments";
import { pageRequest } from "@/core/pagination";
import { apiRoute, paged, readJson } from "@/web/api/handler";
import { serializeActivities } from "@/web/api/issue-response";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ issueId: string }>("event:read", async (ctx) => {
  const params = ctx.url.searchParams;
  const page = await listComments(
    ctx.core,
    ctx.params.issueId,
    pageRequest("id", { cursor: params.get("cursor"), limit: params.get("limit") ?? params.get("per_page") ?? undefined }),
  );
  return paged(await serializeActivities(ctx.core, page.items), page.nextCursor, ctx);
});

export const POST = apiRoute<{ issueId: string }>("event:write", async (ctx) => {
  const note = await addComment(ctx.core, ctx.params.issueId, await readJson(ctx.req));
  return Response.json((await serializeActivities(ctx.core, [note]))[0], { status: 201 });
});
