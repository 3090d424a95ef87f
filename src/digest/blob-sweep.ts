// Retention's sweep of attachment blobs (issue 19) that no row names. A blob is written before the batch transaction
// that inserts its row, and removed after the transaction that deletes it, so a crash in between, a batch set aside
// or dead-lettered after its blobs were written, or a write cut off (`<key>.tmp`) leaves bytes nothing names. Each
// step lists a bounded number of blobs after a cursor (storage/attachment-ports.ts listBlobs), asks in one query
// which of those past ATTACHMENT_LIMITS.blobSweepGraceMs a row names, and removes the others and old partial writes.
// A blob younger than the grace (a digest writing it right now) or named by a row is never removed.
import type { AttachmentBlobs, AttachmentStore } from "../storage/attachment-ports";

export type BlobSweepStep = { removed: number; next: string | null };

/** One step of the sweep from `cursor` ("" for the start): what it removed and where the next step goes on (null: the end). */
export async function sweepBlobsStep(
  blobs: AttachmentBlobs,
  store: Pick<AttachmentStore, "namedBlobKeys">,
  cursor: string,
  limit: number,
  before: number,
): Promise<BlobSweepStep> {
  const { blobs: listed, next } = await blobs.listBlobs(cursor, limit);
  const old = listed.filter((b) => b.writtenAt < before);
  const named = await store.namedBlobKeys([...new Set(old.filter((b) => !b.partial).map((b) => b.key))]);
  const unnamed = old.filter((b) => b.partial || !named.has(b.key));
  return { removed: await blobs.sweepBlobs(unnamed, before), next };
}
