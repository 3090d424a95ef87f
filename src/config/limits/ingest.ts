// The intake and its spool: what a request may carry and hold, and what waits for the digest.
// Each limit with its unit and the reason for its value; config/limits.ts gathers the files.

export const INGEST_LIMITS = {
  /** bytes (20 MiB); a compressed request body, as Relay's max_envelope_size for what arrives on the wire. */
  maxCompressedBodyBytes: 20 * 1024 * 1024,
  /** bytes (100 MiB); a decompressed envelope, as Relay. Checked while inflating, so a bomb stops at this size. */
  maxDecompressedBodyBytes: 100 * 1024 * 1024,
  /** bytes (1 MiB); one event, transaction, span or feedback item, and a /store/ body once decoded: Relay's max_event_size. */
  maxEventBytes: 1024 * 1024,
  /** bytes (100 MiB); one attachment, and all attachments of an envelope together (Relay's max_attachment(s)_size). */
  maxAttachmentBytes: 100 * 1024 * 1024,
  /** items; session updates plus session aggregates in one envelope (Relay's max_session_count). */
  maxSessionsPerEnvelope: 100,
  /** bytes (4 KiB); one client_report item (Relay's max_client_reports_size). */
  maxClientReportBytes: 4 * 1024,
  /** bytes (100 KiB); one check_in item (develop's envelope size limits). */
  maxCheckInBytes: 100 * 1024,
  /** bytes (1 MiB); any other kept item (user_report, session, sessions): generous for JSON this small. */
  maxOtherItemBytes: 1024 * 1024,
  /**
   * items; the most one envelope may hold. SDKs send one event with its attachments, or batches of at most 1,000
   * spans, sessions or logs; an envelope of millions of tiny item headers (a 200 KB gzip body inflates to 100 MiB of
   * them) would otherwise build millions of objects before any key or quota is checked.
   */
  maxItemsPerEnvelope: 2000,
  /**
   * bytes (64 KiB); one envelope or item header line. SDKs write a few hundred bytes (the trace context and SDK info
   * are the largest); the line is searched for its end within this window, never through a whole payload.
   */
  maxHeaderLineBytes: 64 * 1024,
  /** levels; arrays and objects nested in a header line. SDKs' headers nest 2 levels (the trace context). */
  maxHeaderDepth: 64,
  /**
   * levels; arrays and objects nested in an event or report payload. serde_json's recursion limit, which Relay parses
   * every payload with: deeper JSON is invalid to Sentry too, and walking it (JSON.stringify, normalization) would
   * overflow the stack.
   */
  maxJsonDepth: 128,
  /**
   * milliseconds (5 s, nginx's lingering_timeout); after answering a request whose body was not read to its end (413),
   * how long the connection keeps reading and dropping what the client still sends before it closes. Closing at
   * once would reset the connection, and a reset can discard the answer before the SDK reads it (ingest/linger.ts).
   */
  lingerMs: 5000,
  /**
   * bytes (128 MiB); request bodies, as read from the sockets, that the intake holds in memory at once, all requests
   * together. Beyond it a request is refused with 503 and Retry-After until others are done: the per-request limits
   * (20 MiB compressed, 100 MiB plain) bound one request, and this bounds a burst of them. Normal traffic holds a few
   * MiB at most (5,000 requests a second of a few KB each, each held for milliseconds).
   */
  maxBufferedBodyBytes: 128 * 1024 * 1024,
  /**
   * decodes; compressed bodies that inflate past maxSyncInflateBytes, decoded at once (the others wait their turn).
   * Each may produce up to maxDecompressedBodyBytes, so this bounds what a burst of bombs inflates in memory together;
   * SDK bodies are nearly all smaller and decode synchronously without waiting.
   */
  maxConcurrentInflates: 2,
  /**
   * How slowly a request body may arrive (a 408 beyond, then the connection closes): 30 s without a byte, as for
   * uploads, and past its first MiB at least 64 KiB/s on average (a 100 MiB attachment within 27 minutes). SDKs
   * write their bodies at once; without these a client trickling bytes would hold its share of maxBufferedBodyBytes,
   * and a few of them all of it, for Node's 5-minute request timeout. And whatever its size, the whole body within
   * a minute plus a second per 64 KiB it brought (wholeGraceMs): a byte a second never idles and never passes the
   * first MiB, and was held those 5 minutes (a 100 KiB envelope on a 2G link of 5 KiB/s takes 20 s).
   */
  bodyDeadline: { idleMs: 30_000, minBytesPerSecond: 64 * 1024, rateGraceBytes: 1024 * 1024, wholeGraceMs: 60_000 },
  /** bytes (64 KiB); a CSP or Expect-CT report; browsers send a few hundred bytes. */
  maxSecurityReportBytes: 64 * 1024,
  /**
   * bytes (256 KiB); a compressed body that inflates to at most this is decoded on the event loop in one call (under a
   * millisecond), skipping the stream machinery that cost more than the inflating itself for typical 2-20 KB events.
   * Larger bodies, bombs included, go to zlib's thread pool as a stream, so none can hold the loop for longer.
   */
  maxSyncInflateBytes: 256 * 1024,
} as const;

export const SPOOL_LIMITS = {
  /**
   * milliseconds; how long an accepted item may wait for the spool's next group commit. 0: the commit runs once the
   * event loop's current turn is done, and every request that finished reading its body in that turn shares it;
   * waiting longer made bigger commits but slower answers, and no more of them per second (bench:ingest).
   */
  maxCommitDelayMs: 0,
  /** items; the most one commit writes, so one write never blocks the event loop for long. */
  maxItemsPerCommit: 2000,
  /**
   * bytes (64 MiB); a spool segment is closed and the next begun past this size. The digest's progress frees disk a
   * whole segment at a time, so this much digested data may stay on disk for a while.
   */
  segmentBytes: 64 * 1024 * 1024,
  /** bytes (1 MiB); what the digest reads from the spool in one call; a larger record is read on its own. */
  readChunkBytes: 1024 * 1024,
  /**
   * bytes (2 GiB); undigested items in the spool above which the intake answers 503: the digest is behind. The spool
   * plays the part Kafka plays in Sentry: it takes a burst at the intake's full rate (about 60 MB/s on 2 cores, several
   * times what the digest sustains) for about half a minute; the free-disk floor below still applies.
   */
  maxBacklogBytes: 2 * 1024 * 1024 * 1024,
  /** bytes (64 MiB); accepted items waiting in memory for a commit above which the intake answers 503. */
  maxPendingBytes: 64 * 1024 * 1024,
  /** bytes (1 GiB); free space on the data dir's disk below which the intake answers 503 rather than risk a full disk. */
  minFreeDiskBytes: 1024 * 1024 * 1024,
  /** milliseconds; how often free disk space is measured (statfs), rather than on every request. */
  diskCheckIntervalMs: 1000,
  /** seconds; the Retry-After sent with a 503 for backpressure: long enough for the digest to catch up. */
  backpressureRetryAfterSeconds: 30,
} as const;

export const INTAKE_CACHE_LIMITS = {
  /** milliseconds; how long a DSN key's state is cached: a key disabled in the dashboard stops within this time. */
  keyTtlMs: 2000,
  /** entries; DSN keys cached at once, known or unknown, so random keys cannot grow memory without bound. */
  maxKeys: 10_000,
} as const;
