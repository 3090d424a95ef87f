// Attachments in the digest (issue 19): an `attachment` spool record (its bytes in the record, from an envelope) or a
// `staged_attachment` record (its bytes gzipped in a staging file, from a multipart upload) becomes a pending
// attachment: the row the batch's transaction stores, and where its compressed bytes come from. Before the batch
// commits, writePendingBlobs puts those bytes in the attachment store under a key derived from the spool and record,
// so writing the batch again rewrites the same blob; staging files the store copied are removed after the commit.
// Data scrubbing rules that name an attachment (`$attachments.'name'`) are applied to text attachments here.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { ATTACHMENT_LIMITS } from "../config/limits";
import { hourOf } from "../core/hours";
import { STAGED_NAME } from "../ingest/attachment-staging";
import type { SpoolRow } from "../ingest/spool";
import { attachmentTypeOf, isTextAttachment, safeAttachmentName, safeContentType } from "../protocol/attachments";
import type { AttachmentBlobs, NewAttachment } from "../storage/attachment-ports";
import type { OutcomeIncrement } from "../storage/ports";
import type { Scrubber } from "../scrub";

const gzip = promisify(zlib.gzip);

/**
 * Formats compressed already (screenshots): gzip's level 0, stored blocks that every reader of the blob still inflates
 * as gzip. Level 1 gained nothing on them and cost about 5 ms per 200 KB screenshot, a seventh of the digest's time
 * with bench:ingest's mix (2 % of envelopes with a screenshot); level 0 only copies and sums the bytes.
 */
const COMPRESSED = /^(image\/(png|jpeg|gif|webp|avif)|video\/|audio\/|application\/(zip|gzip|x-7z-compressed|zstd))/;
const levelFor = (contentType: string) => (COMPRESSED.test(contentType) ? 0 : ATTACHMENT_LIMITS.gzipLevel);
const gunzip = promisify(zlib.gunzip);

/** A row to store and its compressed bytes: in memory, or a staging file (its name, in `stagingDir`). */
export type PendingAttachment = { row: Omit<NewAttachment, "blobKey">; recordId: number; bytes?: Uint8Array; staged?: string };

type Header = {
  filename?: unknown;
  content_type?: unknown;
  attachment_type?: unknown;
  staged?: unknown;
  length?: unknown;
  stored_length?: unknown;
  sha1?: unknown;
};

const dropped = (row: SpoolRow, reason: string, quantity: number): OutcomeIncrement => ({
  projectId: row.projectId,
  hour: hourOf(row.receivedAt),
  category: "attachment",
  outcome: "invalid",
  reason,
  quantity,
});

/**
 * The pending attachment of a record, or the outcome it is dropped with: no event id (`missing_event_id`), a staging
 * file that is gone or not one (`missing_file`), or a rule naming it that cannot be applied (`scrubbing`).
 */
export async function readAttachment(row: SpoolRow, stagingDir: string | null, scrubber: Scrubber | null): Promise<PendingAttachment | OutcomeIncrement> {
  const headers = JSON.parse(row.headers) as Header;
  const staged = row.itemType === "staged_attachment" && typeof headers.staged === "string" && STAGED_NAME.test(headers.staged) ? headers.staged : null;
  const size = staged ? Number(headers.length) || 0 : row.payload.byteLength;
  if (!row.eventId) return dropped(row, "missing_event_id", size);
  if (row.itemType === "staged_attachment" && (!staged || !stagingDir)) return dropped(row, "missing_file", size);
  const name = safeAttachmentName(headers.filename);
  const contentType = safeContentType(headers.content_type);
  const base = {
    projectId: row.projectId,
    eventId: row.eventId,
    name,
    contentType,
    attachmentType: attachmentTypeOf(headers.attachment_type),
    codec: "gzip" as const,
    receivedAt: new Date(row.receivedAt).toISOString(),
  };
  if (scrubber?.attachmentRulesApply(name)) {
    // A rule names it: scrubbed as text, or not stored (fail closed).
    let raw: Buffer;
    try {
      raw = staged ? await gunzip(await fs.readFile(path.join(stagingDir!, staged))) : Buffer.from(row.payload);
    } catch {
      return dropped(row, "missing_file", size);
    }
    if (!isTextAttachment(contentType, name) || raw.byteLength > ATTACHMENT_LIMITS.maxScrubbedTextBytes || raw.includes(0))
      return dropped(row, "scrubbing", size);
    const scrubbed = scrubber.scrubAttachmentText(name, raw.toString("utf8"));
    if (scrubbed.text === null) return dropped(row, "scrubbing", size);
    const text = Buffer.from(scrubbed.text, "utf8");
    const bytes = await gzip(text, { level: ATTACHMENT_LIMITS.gzipLevel });
    return {
      recordId: row.id,
      bytes,
      row: { ...base, size: text.byteLength, storedSize: bytes.byteLength, sha1: createHash("sha1").update(text).digest("hex") },
    };
  }
  if (staged) {
    const sha1 = typeof headers.sha1 === "string" && /^[0-9a-f]{40}$/.test(headers.sha1) ? headers.sha1 : "";
    return { recordId: row.id, staged, row: { ...base, size, storedSize: Number(headers.stored_length) || 0, sha1 } };
  }
  const level = levelFor(contentType);
  // Level 0 only copies: done at once, where the thread pool's round trips (one per 16 KiB) would cost more than it.
  const bytes = level === 0 ? zlib.gzipSync(row.payload, { level }) : await gzip(row.payload, { level });
  return { recordId: row.id, bytes, row: { ...base, size, storedSize: bytes.byteLength, sha1: createHash("sha1").update(row.payload).digest("hex") } };
}

/** The blob key of a record's attachment: the same for the same spool and record, so a batch written again reuses it. */
export const blobKeyOf = (spoolId: string, recordId: number) => createHash("sha256").update(`${spoolId}:${recordId}`).digest("hex").slice(0, 40);

/**
 * Writes the batch's blobs; returns the rows to insert and the staging files to remove once the batch has committed.
 * A staging file already moved (the batch written again after a crash) is found stored under its key.
 */
export async function writePendingBlobs(
  blobs: AttachmentBlobs,
  spoolId: string,
  stagingDir: string | null,
  pending: PendingAttachment[],
  log: (line: string) => void,
): Promise<{ rows: NewAttachment[]; cleanup: string[] }> {
  const stored: (NewAttachment | null)[] = new Array(pending.length).fill(null);
  const cleanup: string[] = [];
  const writeOne = async (p: PendingAttachment, at: number): Promise<void> => {
    const blobKey = blobKeyOf(spoolId, p.recordId);
    if (p.bytes) await blobs.write(blobKey, p.bytes);
    else if (p.staged && stagingDir) {
      const file = path.join(stagingDir, p.staged);
      try {
        if (!(await blobs.adopt(blobKey, file))) cleanup.push(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
        if (!(await blobs.has(blobKey))) {
          log(`faultline: attachment staging file ${p.staged} is missing; its attachment is not stored`);
          return;
        }
      }
    }
    stored[at] = { ...p.row, blobKey };
  };
  // A few at once: each file is several round trips to the thread pool (open, write, close, rename), which overlap.
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < pending.length) {
      const at = next++;
      await writeOne(pending[at]!, at);
    }
  };
  await Promise.all(Array.from({ length: Math.min(ATTACHMENT_LIMITS.blobWritesInFlight, pending.length) }, lane));
  return { rows: stored.filter((r): r is NewAttachment => r !== null), cleanup };
}

/** Removes staging files whose contents the store copied (PostgreSQL), after the batch committed. */
export async function removeStaged(files: string[]): Promise<void> {
  await Promise.all(files.map((f) => fs.rm(f, { force: true })));
}
