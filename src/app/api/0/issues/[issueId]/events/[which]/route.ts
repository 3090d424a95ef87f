// GET /api/0/issues/{id}/events/latest/ and …/oldest/ – one end of the issue's events.
import { notFound } from "@/core/errors";
import { issueEventAt } from "@/core/issues";
import { serializeEventListItem } from "@/web/api/event-serializers";
import { apiRoute } from "@/web/api/handler";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ issueId: string; which: string }>(async (ctx) => {
  const which = ctx.params.which;
  if (which !== "latest" && which !== "oldest") throw notFound("Event");
  const { event } = await issueEventAt(ctx.core, ctx.params.issueId, which);
  return Response.json(serializeEventListItem(event));
});
