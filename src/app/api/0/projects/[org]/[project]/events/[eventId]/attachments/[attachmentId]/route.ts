// GET /api/0/projects/{org}/{project}/events/{eventId}/attachments/{id}/[?download=1[&inline=1]] – one attachment: its
// details, or with ?download its contents (for roles at or above the project's attachments role); ?inline=1 lets the
// event page show a raster image in place.
import { downloadEventAttachment, getEventAttachment } from "@/core/attachments";
import { attachmentResponse, serializeAttachment } from "@/web/api/attachment-serializers";
import { apiRoute } from "@/web/api/handler";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string; project: string; eventId: string; attachmentId: string }>("event:read", async ({ core, params, url }) => {
  const download = url.searchParams.get("download");
  if (download === null || download === "0" || download === "false") {
    return Response.json(serializeAttachment(await getEventAttachment(core, params.org, params.project, params.eventId, params.attachmentId)));
  }
  const { attachment, body } = await downloadEventAttachment(core, params.org, params.project, params.eventId, params.attachmentId);
  return attachmentResponse(attachment, body, url.searchParams.get("inline") === "1");
});
