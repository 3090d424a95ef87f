// GET /api/0/projects/{org}/{project}/events/ – the project's events, newest first, in Sentry's list shape.
import { listProjectEvents } from "@/core/events";
import { pageRequest } from "@/core/pagination";
import { apiRoute, paged } from "@/web/api/handler";
import { serializeEventListItem } from "@/web/api/event-serializers";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string; project: string }>("event:read", async (ctx) => {
  const page = await listProjectEvents(
    ctx.core,
    ctx.params.org,
    ctx.params.project,
    pageRequest("id", { cursor: ctx.url.searchParams.get("cursor"), limit: ctx.url.searchParams.get("per_page") ?? undefined }),
  );
  return paged(page.items.map(serializeEventListItem), page.nextCursor, ctx);
});
