// GET /api/0/issues/{id}/events/ – the issue's events, newest first, in Sentry's list shape.
import { listIssueEvents } from "@/core/issues";
import { pageRequest } from "@/core/pagination";
import { serializeEventListItem } from "@/web/api/event-serializers";
import { apiRoute, paged } from "@/web/api/handler";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ issueId: string }>("event:read", async (ctx) => {
  const page = pageRequest("id", { cursor: ctx.url.searchParams.get("cursor"), limit: ctx.url.searchParams.get("per_page") ?? undefined });
  const { page: events } = await listIssueEvents(ctx.core, ctx.params.issueId, page);
  return paged(events.items.map(serializeEventListItem), events.nextCursor, ctx);
});
