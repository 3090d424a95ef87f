// Attachments (issue 19) in Sentry's EventAttachment shape, and the answer that serves one's contents safely:
// always Content-Disposition (attachment, or inline for a raster image the event page shows), nosniff, and a policy
// under which the answer can run nothing even when opened as a document (SVG and HTML are never served inline).
import { isInlineImage } from "../../protocol/attachments";
import type { StoredAttachment } from "../../storage/attachment-ports";
import { iterableBody } from "../iterable-body";

export function serializeAttachment(a: StoredAttachment) {
  return {
    id: String(a.id),
    event_id: a.eventId,
    type: a.attachmentType,
    name: a.name,
    mimetype: a.contentType,
    dateCreated: a.receivedAt,
    size: a.size,
    headers: { "Content-Type": a.contentType },
    sha1: a.sha1,
  };
}

/** A file name for Content-Disposition: ASCII fallback, and RFC 5987's UTF-8 form. */
function disposition(kind: "attachment" | "inline", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The contents of an attachment, streamed: inline only when asked and a raster image, otherwise a download. */
export function attachmentResponse(a: StoredAttachment, body: AsyncIterable<Uint8Array>, inline: boolean): Response {
  const showInline = inline && isInlineImage(a.contentType);
  return new Response(iterableBody(body), {
    status: 200,
    headers: {
      "content-type": showInline ? a.contentType : "application/octet-stream",
      "content-length": String(a.size),
      "content-disposition": disposition(showInline ? "inline" : "attachment", a.name),
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
      "cross-origin-resource-policy": "same-origin",
      "cache-control": "private, no-store",
    },
  });
}
