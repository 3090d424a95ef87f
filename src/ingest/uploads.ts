// The intake's multipart uploads (issue 19), Relay's endpoints/attachments.rs and endpoints/minidump.rs:
//   POST /api/{project_id}/events/{event_id}/attachments/  files for an event, answered 201;
//   POST /api/{project_id}/minidump/  a crash as Crashpad and Breakpad send it: the minidump in `upload_file_minidump`
//     (or the whole body, typed application/octet-stream or application/x-dmp), the event in form fields; answered
//     200 with the event id as text, and never 429 (crash reporters retry): a rate-limited crash is dropped and counted.
// Files are staged on disk as they arrive (upload-form.ts); the spool records name the staged files (item type
// `staged_attachment`, which no envelope can carry). A minidump file compressed with gzip, xz, bzip2 or zstd is decoded
// (minidump-decoders.ts); sentry-native's msgpack parts are read into the crash's event (protocol/native-parts.ts). Key, backpressure and quotas as for envelopes: each file is one
// `attachment` quantity of its bytes, against the key's, project's and organization's quotas.
import type http from "node:http";
import { ATTACHMENT_LIMITS } from "../config/limits";
import { eventFromForm } from "../protocol/form-event";
import { normalizeEventId } from "../protocol/json";
import { isMinidump, readMinidump } from "../protocol/minidump";
import { minidumpEvent } from "../protocol/minidump-event";
import { containerOf } from "../protocol/minidump-container";
import { type NativePart, isNativePart, mergeNativeParts } from "../protocol/native-parts";
import { ProtocolError } from "../protocol/errors";
import type { ActiveRateLimit } from "../protocol/rate-limits";
import { attachmentTypeOf, safeAttachmentName, safeContentType } from "../protocol/attachments";
import type { AttachmentType } from "../storage/attachment-ports";
import type { IntakeKey, OutcomeIncrement } from "../storage/ports";
import { newEventId, outcome, quotaRefusal } from "./accept";
import { discardStaged } from "./attachment-staging";
import { decodeStagedMinidump } from "./minidump-decoders";
import type { RateLimiter } from "./rate-limiter";
import { IntakeRefusal } from "./refusals";
import type { SpoolEntry } from "./spool";
import { type StagedPart, readRawUpload, readUploadForm } from "./upload-form";

/** `hold` and `gate`: the intake's read budget, for sentry-native's parts in memory and compressed minidumps' decodes. */
export type UploadContext = {
  key: IntakeKey;
  now: number;
  meta: string;
  limiter: RateLimiter;
  stagingDir: string;
  sync: boolean;
  hold?: (bytes: number) => boolean;
  gate?: <T>(run: () => Promise<T>) => Promise<T>;
};
export type UploadResult = { entries: SpoolEntry[]; outcomes: OutcomeIncrement[]; limits: ActiveRateLimit[]; staged: StagedPart[]; eventId: string };

/**
 * Relay's infer_attachment_type for the minidump endpoint's fields (and the view hierarchy of RFC 33). sentry-native's
 * `__sentry-event` and `__sentry-breadcrumb1`/`2` (event.payload, event.breadcrumbs) never get here: they are read
 * into the event and, as Relay takes them out of the envelope, not kept.
 */
function typeOfField(field: string, endpoint: "attachments" | "minidump"): AttachmentType {
  if (endpoint === "attachments") return "event.attachment";
  if (field === "upload_file_minidump") return "event.minidump";
  if (field === "view-hierarchy.json") return "event.view_hierarchy";
  return attachmentTypeOf(null);
}

function stagedEntry(ctx: UploadContext, eventId: string, part: StagedPart, type: AttachmentType, name: string): SpoolEntry {
  const headers = {
    type: "attachment",
    filename: name,
    content_type: safeContentType(part.contentType),
    attachment_type: type,
    staged: part.name,
    length: part.size,
    stored_length: part.storedSize,
    sha1: part.sha1,
  };
  return {
    projectId: ctx.key.projectId,
    keyId: ctx.key.keyId,
    receivedAt: ctx.now,
    itemType: "staged_attachment",
    eventId,
    headers: JSON.stringify(headers),
    meta: ctx.meta,
    payload: new Uint8Array(0),
  };
}

/** Each file against the attachment quotas: kept, or dropped and counted. */
function quotaFiles(
  ctx: UploadContext,
  out: UploadResult,
  files: { part: StagedPart; type: AttachmentType; name: string }[],
  dropAll: { limit: ActiveRateLimit; reason: string } | null,
): void {
  for (const f of files) {
    const limited = dropAll ?? quotaRefusal(ctx, "attachment", f.part.size);
    if (limited) {
      if (!out.limits.includes(limited.limit)) out.limits.push(limited.limit);
      out.outcomes.push(outcome(ctx, "attachment", "rate_limited", limited.reason, f.part.size));
      continue;
    }
    out.entries.push(stagedEntry(ctx, out.eventId, f.part, f.type, f.name));
  }
}

/**
 * The event of a minidump upload's form fields (form-event.ts) with sentry-native's msgpack parts read into it
 * (native-parts.ts), and its id: the attached event's, else the form's, else a new one. If the parts make it larger
 * than an upload's event may be, they are left out, and the event says so.
 */
function nativeCrashEvent(fields: [string, string][], parts: NativePart[]): { event: Record<string, unknown>; eventId: string } {
  const formEvent = eventFromForm(fields);
  const limit = ATTACHMENT_LIMITS.maxFieldBytes * 2;
  if (Buffer.byteLength(JSON.stringify(formEvent)) > limit) throw new ProtocolError("payload_too_large", "the event of the form fields is too large");
  const merged = mergeNativeParts(formEvent, parts);
  const eventId = normalizeEventId(merged.attachedEventId) ?? normalizeEventId(formEvent.event_id) ?? newEventId();
  if (parts.length === 0 || Buffer.byteLength(JSON.stringify(merged.event)) <= limit) return { event: merged.event, eventId };
  const reason = `sentry-native's parts make the event larger than ${limit} bytes; they were left out`;
  const errors = [...(Array.isArray(formEvent.errors) ? formEvent.errors : []), ...parts.map((p) => ({ type: "invalid_data", name: p.field, reason }))];
  return { event: { ...formEvent, errors }, eventId };
}

/** Reads an upload and decides what of it is kept; staged files not kept are removed before this returns. */
export async function acceptUpload(
  req: http.IncomingMessage,
  endpoint: "attachments" | "minidump",
  pathEventId: string | undefined,
  ctx: UploadContext,
): Promise<UploadResult> {
  let eventId: string | null = null;
  if (endpoint === "attachments") {
    eventId = normalizeEventId(pathEventId);
    if (!eventId) throw new ProtocolError("invalid_multipart", "the URL names no valid event id");
  }
  const type = String(req.headers["content-type"] ?? "")
    .split(";")[0]!
    .trim()
    .toLowerCase();
  const raw = endpoint === "minidump" && (type === "application/octet-stream" || type === "application/x-dmp");
  const form = raw
    ? { files: [await readRawUpload(req, ctx.stagingDir, ctx.sync)], fields: [] as [string, string][], memory: [] }
    : await readUploadForm(req, ctx.stagingDir, ctx.sync, endpoint === "minidump" ? { inMemory: isNativePart, hold: ctx.hold } : {});
  const out: UploadResult = { entries: [], outcomes: [], limits: [], staged: form.files, eventId: eventId ?? "" };
  try {
    const files = form.files.map((part) => ({
      part,
      type: typeOfField(part.field, endpoint),
      name: safeAttachmentName(part.filename, part.field === "upload_file_minidump" ? "Minidump" : "attachment"),
    }));
    if (endpoint === "attachments") {
      if (files.length === 0) throw new ProtocolError("invalid_multipart", "the upload holds no file");
      quotaFiles(ctx, out, files, null);
    } else {
      const dump = files.find((f) => f.type === "event.minidump");
      if (!dump) throw new ProtocolError("missing_minidump", "the upload holds no upload_file_minidump");
      const container = containerOf(dump.part.head);
      if (container) {
        const at = form.files.indexOf(dump.part);
        dump.part = await decodeStagedMinidump(dump.part, container, ctx.stagingDir, ctx.sync, ctx.gate);
        form.files[at] = dump.part;
        dump.name = safeAttachmentName(dump.part.filename, "Minidump");
      }
      if (!isMinidump(dump.part.head)) throw new ProtocolError("invalid_minidump", "upload_file_minidump is not a minidump (no MDMP signature)");
      const { event: crashEvent, eventId } = nativeCrashEvent(form.fields, form.memory);
      out.eventId = eventId;
      const payload = Buffer.from(JSON.stringify(minidumpEvent(crashEvent, readMinidump(dump.part.head), out.eventId)));
      const limited = quotaRefusal(ctx, "error", 1);
      if (limited) {
        out.limits.push(limited.limit);
        out.outcomes.push(outcome(ctx, "error", "rate_limited", limited.reason));
      } else {
        out.entries.push({
          projectId: ctx.key.projectId,
          keyId: ctx.key.keyId,
          receivedAt: ctx.now,
          itemType: "event",
          eventId: out.eventId,
          headers: '{"type":"event"}',
          meta: ctx.meta,
          payload,
        });
      }
      quotaFiles(ctx, out, files, limited);
    }
  } catch (err) {
    await discardStaged(form.files);
    throw err;
  }
  const kept = new Set(out.entries.map((e) => (e.itemType === "staged_attachment" ? (JSON.parse(e.headers) as { staged: string }).staged : "")));
  await discardStaged(form.files.filter((f) => !kept.has(f.name)));
  out.staged = form.files.filter((f) => kept.has(f.name));
  return out;
}

/** The refusal of an attachments upload whose every file a quota refused: 429 with the limits, as for envelopes. */
export function rateLimitedUpload(limits: ActiveRateLimit[], header: string): IntakeRefusal {
  const retryAfter = Math.max(...limits.map((l) => l.retryAfterSeconds));
  return new IntakeRefusal("rate_limited", "attachments rejected due to rate limit", { "x-sentry-rate-limits": header, "retry-after": String(retryAfter) });
}
