// GET /api/0/projects/{org}/{project}/events/{eventId}/attachments/ – the event's attachments (Sentry's shape).
import { listEventAttachments } from "@/core/attachments";
import { serializeAttachment } from "@/web/api/attachment-serializers";
import { apiRoute } from "@/web/api/handler";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string; project: string; eventId: string }>("event:read", async ({ core, params }) => {
  const { attachments } = await listEventAttachments(core, params.org, params.project, params.eventId);
  return Response.json(attachments.map(serializeAttachment));
});
