// Attachments and minidumps (issue 19): what one upload may carry, how it is kept, what the event page shows.
// Each limit with its unit and the reason for its value; config/limits.ts gathers the files. The size of one
// attachment item in an envelope is INGEST_LIMITS.maxAttachmentBytes (Relay's max_attachment_size, 100 MiB).

export const ATTACHMENT_LIMITS = {
  /** bytes (100 MiB); one file of a multipart upload (the attachment and minidump endpoints): Relay's max_attachment_size. */
  maxFileBytes: 100 * 1024 * 1024,
  /**
   * bytes (200 MiB); all files of one multipart upload together. These bodies never sit in memory: each file is
   * compressed into a staging file on disk as it arrives (ingest/attachment-staging.ts), so the intake's read budget
   * (INGEST_LIMITS.maxBufferedBodyBytes) holds only the current chunk of each.
   */
  maxRequestBytes: 200 * 1024 * 1024,
  /** files; parts with a filename in one multipart upload. Crashpad sends the minidump and a few logs. */
  maxFiles: 20,
  /** form fields (without a filename) in one multipart upload: Crashpad's annotations and Breakpad's `sentry[…]` keys. */
  maxFields: 500,
  /** bytes (1 MiB); all form fields of an upload together, as the event they become (INGEST_LIMITS.maxEventBytes). */
  maxFieldBytes: 1024 * 1024,
  /** bytes (64 KiB); one form field's name, or one part's header block (busboy's own default is 16 KiB per header). */
  maxFieldNameBytes: 64 * 1024,
  /** characters; a stored attachment's name. File systems and Sentry's EventAttachment.name stop at 255. */
  maxNameLength: 255,
  /** characters; a stored content type (RFC 6838 names stop at 127 per part). */
  maxContentTypeLength: 255,
  /**
   * bytes (64 KiB); chunks of a stored attachment on PostgreSQL (attachment_chunks.data): small enough that a read
   * holds little of a 100 MiB file in memory at once, large enough that one has few rows.
   */
  chunkBytes: 64 * 1024,
  /** chunks (512 KiB); read per query by a download on PostgreSQL: a few round trips per MiB sent, little held. */
  streamPageChunks: 8,
  /** gzip level of stored attachments: 6 is zlib's default, the usual balance of CPU and size for logs and JSON. */
  gzipLevel: 6,
  /**
   * files; how many of a digest batch's attachment blobs are written at once. Each file is four or five round trips to
   * libuv's thread pool (four threads), which overlap; more would only queue there.
   */
  blobWritesInFlight: 4,
  /**
   * bytes (10 MiB); the largest text attachment that data scrubbing rules naming attachments are applied to. One
   * that a rule names but that is binary or larger is not stored (fail closed: it might hold what the rule removes).
   */
  maxScrubbedTextBytes: 10 * 1024 * 1024,
  /**
   * milliseconds (24 hours); an attachment whose event is not stored this long after it arrived is deleted by
   * retention: a standalone upload may come before its event, and an event may wait in a backlog, but one that was
   * dropped (rate limited, invalid) never comes.
   */
  orphanGraceMs: 24 * 3600 * 1000,
  /** attachments looked at per retention step for a missing event (one indexed lookup each). */
  orphanScanRows: 500,
  /**
   * milliseconds (1 hour); a stored blob that no attachment row names, or a partial write (`<key>.tmp`), is removed by
   * retention's sweep once it was last written this long ago. A blob is written before the batch transaction that
   * inserts its row: writing a batch's blobs (up to 100 MiB each, a few at once) takes seconds, a minute on a slow disk,
   * and a batch whose commit fails is digested again whole, its blobs written again, before retention's next step (the
   * digest loop runs both). After a restart the digest writes the interrupted batch again first too, so a spool replay
   * never meets a blob of its own swept meanwhile.
   */
  blobSweepGraceMs: 3600 * 1000,
  /**
   * blobs looked at per retention step of the sweep: one readdir of a folder of the store (a few thousand names at
   * most) and a stat per file on SQLite, one indexed range scan on PostgreSQL, then one query for which are named.
   */
  blobSweepPerStep: 500,
  /**
   * steps of the sweep per retention pass (RETENTION_LIMITS.passIntervalMs): 10,000 blobs every 5 minutes, so a
   * store of a million blobs is walked in about 8 hours; its cursor carries on from pass to pass and wraps around.
   */
  blobSweepStepsPerPass: 20,
  /** bytes (16 MiB); an image shown inline on the event page: a bigger one is listed with its download link only. */
  maxInlineImageBytes: 16 * 1024 * 1024,
  /** bytes (2 MiB); a view hierarchy drawn as a tree on the event page; larger ones are downloaded. */
  maxViewHierarchyBytes: 2 * 1024 * 1024,
  /** nodes of a view hierarchy drawn (depth-first); the rest are counted. A screen rarely has a thousand views. */
  maxViewHierarchyNodes: 2000,
  /** levels of a view hierarchy drawn; deeper nodes are counted, not drawn. */
  maxViewHierarchyDepth: 64,
  /** attachments listed per event (the API and the page); SDKs send a handful. */
  maxListed: 100,
  /**
   * bytes (1 MiB); one msgpack part of a sentry-native crash (`__sentry-event`, `__sentry-breadcrumb1`/`2`), read into
   * memory at the intake. Relay refuses a part larger than its max_event_size (1 MiB, services/processor/event.rs);
   * sentry-native writes a few KB of scope and at most `max_breadcrumbs` (100 by default) breadcrumbs per file.
   */
  maxNativePartBytes: 1024 * 1024,
  /**
   * levels; how deeply a msgpack part may nest. Relay's MAX_DEPTH (relay-server utils/rmp.rs, as serde_json's): deeper
   * parts are invalid. Checked on the bytes before decoding, since the decoder builds every level it reads.
   */
  maxMsgpackDepth: 128,
  /**
   * values; how many msgpack values one part may hold (every string, number, array and map counts). A full breadcrumb
   * file is a few thousand; 1 MiB of one-byte empty arrays would be a million objects (about 40 MB of heap).
   */
  maxMsgpackValues: 100_000,
} as const;
