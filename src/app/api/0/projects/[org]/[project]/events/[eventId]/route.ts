// GET /api/0/projects/{org}/{project}/events/{eventId}/ – one stored event of the project, with the ids of its
// issue's next (newer) and previous (older) events.
import { getProjectEvent } from "@/core/issue-details";
import { serializeEventDetail } from "@/web/api/event-serializers";
import { apiRoute } from "@/web/api/handler";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string; project: string; eventId: string }>("event:read", async (ctx) =>
  Response.json(serializeEventDetail(await getProjectEvent(ctx.core, ctx.params.org, ctx.params.project, ctx.params.eventId))),
);
