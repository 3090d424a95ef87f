// PUT /api/0/issues/{id}/comments/{commentId}/ {text} – the author edits a comment; DELETE – the author, an admin or
// an owner removes it.
import { deleteComment, updateComment } from "@/core/issue-comments";
import { apiRoute, readJson } from "@/web/api/handler";
import { serializeActivities } from "@/web/api/issue-response";

export const dynamic = "force-dynamic";

export const PUT = apiRoute<{ issueId: string; commentId: string }>("event:write", async (ctx) => {
  const note = await updateComment(ctx.core, ctx.params.issueId, ctx.params.commentId, await readJson(ctx.req));
  return Response.json((await serializeActivities(ctx.core, [note]))[0]);
});

export const DELETE = apiRoute<{ issueId: string; commentId: string }>("event:write", async (ctx) => {
  await deleteComment(ctx.core, ctx.params.issueId, ctx.params.commentId);
  return new Response(null, { status: 204 });
});
