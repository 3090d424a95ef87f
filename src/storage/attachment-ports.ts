// Attachments (issue 19, migration 0030): an event's files, kept outside the events table. The rows (name, type,
// sizes, checksum) are written in the digest's batch transaction; the compressed bytes go to an AttachmentBlobs
// store before it (files in the data dir on SQLite, rows of attachment_chunks on PostgreSQL), under a key derived
// from the spool record, so writing a batch again rewrites the same blob. Deleting rows returns their blob keys and
// the store removes those blobs after the rows' transaction: a crash in between leaves a file no row names, never a
// row without its file. Such blobs, and partial writes a crash cut off, are found by retention's sweep
// (digest/blob-sweep.ts): listed in key order after a cursor with when each was last written, checked against the
// rows' keys, and removed once ATTACHMENT_LIMITS.blobSweepGraceMs has passed.

/** Sentry's attachment types (relay-server envelope.rs AttachmentType, as its `attachment_type` header names them). */
export const ATTACHMENT_TYPES = [
  "event.attachment",
  "event.minidump",
  "event.applecrashreport",
  "event.view_hierarchy",
  "event.payload",
  "event.breadcrumbs",
  "unreal.context",
  "unreal.logs",
] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

export type NewAttachment = {
  projectId: number;
  eventId: string;
  blobKey: string;
  name: string;
  contentType: string;
  attachmentType: AttachmentType;
  /** Bytes as sent. */
  size: number;
  /** Bytes stored (gzip). */
  storedSize: number;
  codec: "gzip";
  /** SHA-1 of the bytes as sent, in hex (Sentry's EventAttachment sha1). */
  sha1: string;
  receivedAt: string;
};

export type StoredAttachment = NewAttachment & { id: number };

export interface AttachmentTx {
  /** Stores attachment rows; a row whose blob key is stored already (the batch written again) is skipped. */
  insertAttachments(rows: NewAttachment[]): Promise<void>;
}

export interface AttachmentStore {
  /** The event's attachments, oldest first (at most ATTACHMENT_LIMITS.maxListed). */
  listAttachments(projectId: number, eventId: string): Promise<StoredAttachment[]>;
  getAttachment(projectId: number, eventId: string, id: number): Promise<StoredAttachment | null>;
  /** The stored (gzip) bytes of an attachment, whole (a view hierarchy: bounded); null when its blob is missing. */
  readAttachmentBlob(blobKey: string): Promise<Buffer | null>;
  /** The stored (gzip) bytes of an attachment in pieces, read as they are taken (downloads); null when it is missing. */
  streamAttachmentBlob(blobKey: string): Promise<AsyncIterable<Uint8Array> | null>;
  /**
   * Retention: deletes up to `limit` attachments received before `cutoff` (ISO), lowest ids first, and their blobs.
   * Returns how many rows it deleted.
   */
  pruneAttachmentsBefore(cutoff: string, limit: number): Promise<number>;
  /**
   * Retention: looks at up to `scan` attachments after id `afterId` and deletes, with their blobs, those received
   * before `orphanedBefore` whose event is not stored (deleted by retention, the per-issue cap, its issue's deletion or
   * erasure, or never stored). Returns what it deleted and the last id looked at (afterId when there were none).
   */
  pruneOrphanAttachments(afterId: number, scan: number, orphanedBefore: string): Promise<{ deleted: number; lastId: number }>;
  /** Which of these blob keys an attachment row names (the sweep: one query). */
  namedBlobKeys(keys: string[]): Promise<Set<string>>;
}

/** A blob as the sweep sees it: its key, whether it is a partial write (`<key>.tmp`), when it was last written (ms). */
export type StoredBlob = { key: string; partial: boolean; writtenAt: number };

/** Where the compressed bytes live: one implementation per dialect, one conformance suite. */
export interface AttachmentBlobs {
  /** Stores `data` under `key`, replacing what was there. */
  write(key: string, data: Uint8Array): Promise<void>;
  /**
   * Stores the file at `file` (compressed already, e.g. a staging file of the intake) under `key`: moved into place
   * where the store is files, copied where it is the database (the file is then left to the caller). Returns whether
   * the file was moved.
   */
  adopt(key: string, file: string): Promise<boolean>;
  /** Whether a blob is stored under `key`. */
  has(key: string): Promise<boolean>;
  read(key: string): Promise<Buffer | null>;
  /**
   * The blob in pieces of at most ATTACHMENT_LIMITS.chunkBytes, each read when the one before has been taken, so a
   * download holds a piece, not the blob; null when it is missing. Ending the iteration early releases what it holds.
   */
  stream(key: string): Promise<AsyncIterable<Uint8Array> | null>;
  remove(keys: string[]): Promise<void>;
  /**
   * The sweep: up to `limit` blobs after the position `after` ("" for the start), in key order, a partial write right
   * after its key. Names the store did not write are passed over. `next` is where the following call goes on, null
   * once this one reached the end.
   */
  listBlobs(after: string, limit: number): Promise<{ blobs: StoredBlob[]; next: string | null }>;
  /**
   * The sweep: removes these blobs (or partial writes) unless written again at or after `before` (ms); one gone
   * meanwhile is no error. Returns how many it removed.
   */
  sweepBlobs(blobs: StoredBlob[], before: number): Promise<number>;
}
