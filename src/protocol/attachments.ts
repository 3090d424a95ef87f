// What an attachment says about itself (develop's envelope items: `attachment` with `filename`, `content_type` and
// `attachment_type`; a multipart file part's filename and type), made safe to keep and to serve: a name that is a
// plain file name (no folders, no control characters, no NUL, at most ATTACHMENT_LIMITS.maxNameLength characters), a
// content type that is one `type/subtype` token, and one of Sentry's attachment types.
import { ATTACHMENT_LIMITS } from "../config/limits";
import { ATTACHMENT_TYPES, type AttachmentType } from "../storage/attachment-ports";

/** A file name as sent, reduced to its last path segment without control characters; "attachment" when nothing is left. */
export function safeAttachmentName(raw: unknown, fallback = "attachment"): string {
  if (typeof raw !== "string") return fallback;
  // Control characters (NUL included) and the bidirectional overrides that make a name read differently go.
  const cleaned = raw.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "");
  const last =
    cleaned
      .split(/[\\/]/)
      .filter((s) => s !== "")
      .pop() ?? "";
  const name = last === "." || last === ".." ? "" : last.trim();
  return name === "" ? fallback : Array.from(name).slice(0, ATTACHMENT_LIMITS.maxNameLength).join("");
}

const TYPE_TOKEN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The `type/subtype` of a content type (parameters dropped, lower case); application/octet-stream when it is not one. */
export function safeContentType(raw: unknown): string {
  if (typeof raw !== "string") return "application/octet-stream";
  const base = raw.split(";")[0]!.trim().toLowerCase();
  return TYPE_TOKEN.test(base) ? base : "application/octet-stream";
}

/** Sentry's attachment type; anything else (or nothing) is a plain `event.attachment`, as Relay's default. */
export function attachmentTypeOf(raw: unknown): AttachmentType {
  return typeof raw === "string" && (ATTACHMENT_TYPES as readonly string[]).includes(raw) ? (raw as AttachmentType) : "event.attachment";
}

/** Kinds of attachments the event page can show (images inline, a view hierarchy as a tree) or only list. */
export function isInlineImage(contentType: string): boolean {
  // Raster formats only: SVG is a document that may run script, never shown inline.
  return ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp"].includes(contentType);
}

/** Text a scrubbing rule can be applied to: text/*, JSON, XML, or a name that says log or text. */
export function isTextAttachment(contentType: string, name: string): boolean {
  return (
    contentType.startsWith("text/") || /^application\/(json|xml|x-ndjson|.*\+json|.*\+xml)$/.test(contentType) || /\.(txt|log|json|xml|csv|md)$/i.test(name)
  );
}
