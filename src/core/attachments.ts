// An event's attachments (issue 19): the list with names, types and sizes (event:read), and their contents for those
// whose role is at or above the project's attachments role (Sentry's attachmentsRole, member by default): the API's
// `…/events/{event_id}/attachments/[{id}/?download=1]` and the event page read through here. Organization tokens
// (sentry-cli's org:ci) never download; an install superuser always may.
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { StoredAttachment } from "../storage/attachment-ports";
import type { Project } from "../storage/ports";
import { allowed, assertCan, type OrgAccess, requireId } from "./access";
import type { CoreContext } from "./context";
import { AppError, forbidden, notFound } from "./errors";
import { getProject } from "./projects";
import { ROLES, type Role } from "./roles";
import { normalizeEventId } from "../protocol/json";
import { ATTACHMENT_LIMITS } from "../config/limits";
import { type ViewHierarchy, readViewHierarchy } from "./view-hierarchy";

const gunzip = promisify(zlib.gunzip);

/** The least role that may download a project's attachments; member unless the project says otherwise. */
export const attachmentsRoleOf = (project: Project): Role => project.attachmentsRole ?? "member";

/** Whether the actor may download the project's attachments: a role at or above its attachments role. */
export function canDownloadAttachments(access: OrgAccess, project: Project): boolean {
  if (access.scopes !== null) return false;
  if (access.role === null) return true;
  if (!allowed(access, "event:read")) return false;
  return ROLES.indexOf(access.role) <= ROLES.indexOf(attachmentsRoleOf(project));
}

function eventIdOf(value: string): string {
  const id = normalizeEventId(value);
  if (!id) throw notFound("Event");
  return id;
}

export type EventAttachments = { project: Project; attachments: StoredAttachment[]; canDownload: boolean };

/** An event's attachments, oldest first, and whether the actor may download them. */
export async function listEventAttachments(ctx: CoreContext, orgSlug: string, projectSlug: string, eventId: string): Promise<EventAttachments> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "event:read");
  const attachments = await ctx.store.listAttachments(project.id, eventIdOf(eventId));
  return { project, attachments, canDownload: canDownloadAttachments(access, project) };
}

/** One attachment's row, readable by event:read (the API's detail without ?download). */
export async function getEventAttachment(ctx: CoreContext, orgSlug: string, projectSlug: string, eventId: string, id: string): Promise<StoredAttachment> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "event:read");
  const attachment = await ctx.store.getAttachment(project.id, eventIdOf(eventId), requireId(id, "Attachment"));
  if (!attachment) throw notFound("Attachment");
  return attachment;
}

/**
 * One attachment's contents as sent, inflated piece by piece as the caller takes them: a download holds a piece at a
 * time, not the file (up to INGEST_LIMITS.maxAttachmentBytes, 100 MiB, from a blob that may be a few KiB of gzip).
 * For roles at or above the project's attachments role only (403 otherwise).
 */
export async function downloadEventAttachment(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  eventId: string,
  id: string,
): Promise<{ attachment: StoredAttachment; body: AsyncIterable<Uint8Array> }> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "event:read");
  const attachment = await ctx.store.getAttachment(project.id, eventIdOf(eventId), requireId(id, "Attachment"));
  if (!attachment) throw notFound("Attachment");
  if (!canDownloadAttachments(access, project)) throw forbidden("Your role may not download this project's attachments");
  const stored = await ctx.store.streamAttachmentBlob(attachment.blobKey);
  if (!stored) throw new AppError("not_found", "The attachment's file is missing");
  return { attachment, body: inflated(stored, attachment) };
}

/**
 * The stored gzip inflated as it is read. The answer's length is the attachment's size, sent before its body: a blob
 * that inflates to more or less (damaged, or cut short by retention mid-download) fails the download, which then ends
 * short rather than sending other bytes than it announced.
 */
async function* inflated(stored: AsyncIterable<Uint8Array>, attachment: StoredAttachment): AsyncGenerator<Uint8Array> {
  const gunzip = zlib.createGunzip({ chunkSize: ATTACHMENT_LIMITS.chunkBytes });
  // Its failures come out of the iteration below; leaving early destroys gunzip, and with it the stored blob's reader.
  const piped = pipeline(stored, gunzip).catch(() => {});
  let sent = 0;
  try {
    for await (const piece of gunzip as AsyncIterable<Buffer>) {
      sent += piece.byteLength;
      if (sent > attachment.size) throw new Error(`attachment ${attachment.id} inflates to more than its ${attachment.size} bytes`);
      yield piece;
    }
    if (sent !== attachment.size) throw new Error(`attachment ${attachment.id} inflates to ${sent} of its ${attachment.size} bytes`);
  } finally {
    gunzip.destroy();
    await piped;
  }
}

/** What the event page shows of an event's attachments: the list, and its view hierarchy drawn when one may open it. */
export type EventAttachmentsView = EventAttachments & { viewHierarchy: { attachmentId: number; tree: ViewHierarchy } | null };

export async function eventAttachmentsView(ctx: CoreContext, orgSlug: string, projectSlug: string, eventId: string): Promise<EventAttachmentsView> {
  const listed = await listEventAttachments(ctx, orgSlug, projectSlug, eventId);
  const vh = listed.attachments.find((a) => a.attachmentType === "event.view_hierarchy" && a.size <= ATTACHMENT_LIMITS.maxViewHierarchyBytes);
  if (!vh || !listed.canDownload) return { ...listed, viewHierarchy: null };
  const stored = await ctx.store.readAttachmentBlob(vh.blobKey);
  const tree = stored ? readViewHierarchy(await gunzip(stored)) : null;
  return { ...listed, viewHierarchy: tree ? { attachmentId: vh.id, tree } : null };
}
