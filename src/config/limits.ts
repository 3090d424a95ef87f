// Every limit Faultline enforces, in one place, each with its unit and the reason for its value.

export const AUTH_LIMITS = {
  /** characters; NIST SP 800-63B asks for at least 8. */
  minPasswordLength: 8,
  /** characters; long enough for passphrases, short enough that hashing stays cheap. */
  maxPasswordLength: 256,
  /** seconds (30 days); a monitor is opened daily, so people should not sign in every morning. */
  sessionLifetimeSeconds: 30 * 24 * 3600,
  /** seconds (1 day); how often an active session's expiry is pushed forward. */
  sessionRefreshSeconds: 24 * 3600,
  /** seconds; window for sign-in and password-change attempts per client address. */
  signInWindowSeconds: 60,
  /** attempts per window; enough for typos, far too few for guessing. */
  signInAttemptsPerWindow: 5,
  /** seconds; window for all other auth endpoints. */
  requestWindowSeconds: 60,
  /** requests per window per client address for the other auth endpoints. */
  requestsPerWindow: 100,
  /** seconds; window for password-reset requests per client address (better-auth's default for this endpoint). */
  passwordResetWindowSeconds: 60,
  /** requests per window; a person who lost a mail asks again once or twice, never more (better-auth's default). */
  passwordResetRequestsPerWindow: 3,
  /** seconds (1 hour); how long a password-reset link works (it works once). */
  passwordResetTokenSeconds: 3600,
} as const;

export const NAME_LIMITS = {
  /** characters; slugs appear in URLs and DSN-adjacent links, Sentry caps them at 50. */
  slugMaxLength: 50,
  /** characters; display names of organizations, teams, projects and keys. */
  nameMaxLength: 64,
  /** characters; e-mail addresses (RFC 5321 path limit). */
  emailMaxLength: 254,
} as const;

export const API_LIMITS = {
  /** items; default page size of list endpoints, as Sentry's. */
  defaultPageSize: 100,
  /** items; largest page a client may ask for. */
  maxPageSize: 100,
  /** bytes; JSON bodies of the web API are small objects, anything larger is a mistake or abuse. */
  maxJsonBodyBytes: 64 * 1024,
} as const;

export const ACTION_LIMITS = {
  /** bytes (1 MiB); the body of one server action. Next.js's own default (serverActions.bodySizeLimit "1 MB"). */
  maxBodyBytes: 1024 * 1024,
} as const;

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
   * and a few of them all of it, for Node's 5-minute request timeout.
   */
  bodyDeadline: { idleMs: 30_000, minBytesPerSecond: 64 * 1024, rateGraceBytes: 1024 * 1024 },
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

export const DIGEST_LIMITS = {
  /** items; read from the spool and written to the database in one transaction. */
  batchSize: 500,
  /**
   * bytes (8 MiB); a batch also ends once its payloads reach this, so that 500 large events (up to 1 MiB each) never
   * sit in the digest's memory at once, parsed, under the server's heap limit (package.json's start script).
   */
  batchBytes: 8 * 1024 * 1024,
  /**
   * milliseconds; how long the digest sleeps when the spool is empty. It finds new records by polling the segment
   * files (one fstat per poll), in a thread or in `faultline worker` alike: fs.watch misses changes made by another
   * host on shared storage. 50 ms adds at most that to an event's way to the issues list (target p95 under 1 s).
   */
  idlePollMs: 50,
  /**
   * nice value (0 normal, 19 lowest); the digest thread's scheduling priority. Below the intake's, so that under load
   * answering SDKs comes first; the spool absorbs the difference (up to SPOOL_LIMITS.maxBacklogBytes).
   */
  threadNiceness: 10,
  /**
   * milliseconds; with FAULTLINE_DIGEST=external, how often the server reads the position `faultline worker` saved in
   * the database. It only frees disk (whole 64 MiB segments) and measures the backlog for backpressure, whose limit
   * is gigabytes: one small indexed read a second is plenty and costs nothing.
   */
  externalPositionPollMs: 1000,
  /**
   * milliseconds; how often `faultline worker` looks for a spool the server has not created yet (only before the
   * server's first start on a new data dir).
   */
  spoolWaitMs: 1000,
  /**
   * milliseconds; how long one spool record may keep the digest thread's event loop from turning (normalizing,
   * mapping, grouping: synchronous work) before the thread is ended and restarted, and the record tried alone, then set
   * aside (progress.ts, supervisor.ts). The largest events (1 MiB, a thousand frames) take tens of milliseconds once
   * the thread is warm and a few hundred on a cold one; at nice 10 on a machine busy answering SDKs the thread may get a
   * tenth of a core, so 10 s still leaves a margin, while a record that never ends stalls the digest for about twice
   * this (the spool absorbs the backlog).
   */
  recordBudgetMs: 10_000,
  /** milliseconds; how often the digest thread's timer beats and the supervisor looks (a small share of the budget). */
  heartbeatMs: 250,
  /** milliseconds; before a digest thread that ended is started again (a crash loop stays slow). */
  restartDelayMs: 1000,
  /**
   * records; the dead-letter table keeps the newest this many, deleting older ones as new ones arrive: each holds up
   * to a request's largest item, so a flood of failing records cannot fill the database.
   */
  deadLettersKept: 1000,
  /**
   * discarded events counted by one entry of an SDK's client report, at most: Relay reads the quantity as a whole
   * number (protocol/client_report.rs `u64`; 1e20 or a negative one is refused), and 2^32 − 1 lets 2^31 such entries
   * add up in the 64-bit `outcomes.quantity` before it could overflow. An entry beyond it is dropped.
   */
  clientReportMaxQuantity: 2 ** 32 - 1,
} as const;

export const TRIAGE_LIMITS = {
  /** characters; one comment on an issue. Enough for a stack trace pasted with notes; the issue page renders it whole. */
  commentMaxLength: 10_000,
  /** values; the most frequent values listed per tag key on an issue's tags (Sentry's TOP_VALUES_DEFAULT_LIMIT). */
  tagTopValues: 9,
  /**
   * events; under an environment filter the issue page counts tag values from the issue's newest events there (tag
   * counts are kept per issue, not per environment). Decoding one stored event takes tens of microseconds, so 500
   * keep the page well inside its render budget while giving shares to within a few percent.
   */
  environmentTagSample: 500,
} as const;

export const ALERT_RULE_LIMITS = {
  /**
   * rules per project; the digest evaluates every active rule of a project for each issue a batch touches, so the
   * number bounds that work (issue 17 measures the digest with 50 rules per project; twice that is still cheap).
   */
  rulesPerProject: 100,
  /** characters; a rule's name (Sentry's RuleSerializer `name`, max_length 256). */
  nameMaxLength: 256,
  /** characters; an environment's name (Sentry's RuleSerializer `environment`, max_length 64). */
  environmentMaxLength: 64,
  /** nodes; conditions, filters and actions of one rule each. Sentry sets none; more than this is a mistake, not a rule. */
  nodesPerList: 20,
  /** minutes; the least and most time between two notifications of a rule for one issue (Sentry: 5 to 43,200). */
  frequencyMin: 5,
  frequencyMax: 60 * 24 * 30,
  /** minutes; a new rule's frequency when none is given (Sentry's default rule and form: 30). */
  frequencyDefault: 30,
  /**
   * events or users; the largest threshold of a frequency condition or of "issue occurrences". Well past any real
   * count in an interval, and far inside the integers both dialects and JSON keep exactly.
   */
  countMax: 1_000_000_000,
  /** units of `time` (minutes … weeks); the age filter's largest value (about 19 years in weeks). */
  ageMax: 1_000,
  /** characters; a tag key (Sentry's tag keys: 200) and a tag value or list to compare with (Sentry's values: 200; lists longer). */
  tagKeyMaxLength: 200,
  tagValueMaxLength: 1_000,
  /** characters; a webhook URL. Browsers and proxies agree on 2,048; no receiver needs more. */
  webhookUrlMaxLength: 2_048,
  /** projects; rule sets kept in the digest's cache (each checked with one cheap query per batch before use). */
  cachedProjects: 1_000,
  /** notifications; a rule's history and the project's failing deliveries, newest first, per page. */
  historyPageSize: 50,
} as const;

export const RELEASE_LIMITS = {
  /** characters; the longest release version (Sentry's DB_VERSION_LENGTH). */
  versionLength: 250,
  /** characters; the longest environment name a session may carry (Sentry's environment names). */
  environmentLength: 64,
  /** characters; the longest session id or distinct id kept (UUIDs and user ids are far shorter). */
  sessionIdLength: 128,
  /**
   * days; a session started longer ago is refused, and the state of its updates is forgotten after it (Relay's
   * max_session_secs_in_past: "updates are accepted for 5 days").
   */
  sessionMaxAgeDays: 5,
  /** seconds; a session starting further ahead of its arrival is refused (Relay's max_secs_in_future). */
  sessionMaxFutureSeconds: 60,
  /** entries; refs or commits set-commits may attach to one release. */
  maxCommits: 1000,
} as const;

/** sentry-cli's uploads: chunk upload, artifact bundle assembly and legacy release files (sentry-protocol.md §6). */
export const UPLOAD_LIMITS = {
  /**
   * bytes (8 MiB); one chunk, as Sentry's SENTRY_CHUNK_UPLOAD_BLOB_SIZE. A power of two, which sentry-cli up to 2.39.1
   * requires; each chunk is held in memory once while it is checked and stored.
   */
  chunkSize: 8 * 1024 * 1024,
  /** chunks; the most one chunk-upload request carries (Sentry's MAX_CHUNKS_PER_REQUEST). */
  chunksPerRequest: 64,
  /**
   * bytes (32 MiB); one chunk-upload request body as sent (gzip parts compressed), Sentry's MAX_REQUEST_SIZE. The body
   * is read as a stream, one part at a time, so this bounds the transfer, not what the request holds in memory.
   */
  maxRequestSize: 32 * 1024 * 1024,
  /**
   * bytes (8 MiB + 64 KiB); one multipart part as sent: a chunk, plus room for what gzip adds to data it cannot
   * compress (zlib's deflateBound: under 3 KB on 8 MiB). A request holds at most one part and one inflated chunk at a
   * time: each is checked and stored before the next part is read.
   */
  maxPartSize: 8 * 1024 * 1024 + 64 * 1024,
  /**
   * bytes (64 MiB); all chunks of one chunk-upload request together, after inflating: one bundle's worth
   * (maxBundleSize), as sentry-cli sends the missing chunks of one bundle at a time. Checked before each part is
   * inflated, so 64 gzip parts of 8 MiB of zeros (511 KB on the wire) stop after 64 MiB of inflating, not 512.
   */
  maxRequestChunkBytes: 64 * 1024 * 1024,
  /**
   * milliseconds; an upload whose body stops arriving for this long is answered 408. sentry-cli writes each body in
   * one go, so a pause this long is a stalled or hostile client, and the request would otherwise hold its part
   * and its socket for Node's 5-minute request timeout.
   */
  bodyIdleTimeoutMs: 30_000,
  /** form fields; the text fields a legacy release-file upload may carry (name, dist and one `header` each). */
  maxReleaseFileFields: 64,
  /** bytes (64 KiB); one text field of a legacy release-file upload (a URL as name, a header "Key:Value"). */
  maxReleaseFileFieldSize: 64 * 1024,
  /** requests; how many chunk uploads sentry-cli runs at once (Sentry's MAX_CONCURRENCY 8, lower for a 2-core host). */
  concurrency: 4,
  /**
   * bytes (64 MiB); one artifact bundle (a ZIP of minified files and source maps), advertised as maxFileSize. A bundle
   * is assembled in memory under the server's 384 MiB heap limit, so this is far below Sentry's 2 GiB; a large app's
   * bundle of a few thousand files compresses to well under it.
   */
  maxBundleSize: 64 * 1024 * 1024,
  /** bytes (32 MiB); one file inside a bundle, or one legacy release file, uncompressed (a large app's source map). */
  maxFileSize: 32 * 1024 * 1024,
  /** bytes (256 MiB); all files of one bundle, uncompressed: a ZIP bomb stops here. */
  maxBundleUnzippedSize: 256 * 1024 * 1024,
  /** files; the most one bundle may hold (sentry-cli refused more than 20,000 release files on the legacy path). */
  maxBundleFiles: 20_000,
  /** chunks; the most one assemble request may name (maxBundleSize / chunkSize, with room for smaller chunks). */
  maxAssembleChunks: 1024,
  /**
   * requests; assemble calls waiting while a bundle is assembled. Bundles are assembled one at a time: one may take
   * maxBundleSize of chunks and maxBundleUnzippedSize of files in memory, from a request of a few hundred bytes (a
   * ZIP of zeros), so calls arriving together must not add up. sentry-cli assembles one bundle per upload; past this
   * line the call gets 429.
   */
  maxWaitingAssemblies: 16,
  /**
   * bytes (1 GiB); chunks an organization may hold unassembled at once. Beyond it chunk uploads get 429 until
   * assembly or cleanup frees some, so an upload that never assembles cannot fill the disk.
   */
  maxPendingChunkBytes: 1024 * 1024 * 1024,
  /** hours; chunks not assembled this long after they arrived are deleted (sentry-cli assembles within minutes). */
  chunkMaxAgeHours: 24,
  /** days; a bundle is deleted this long after its last upload or use, as Sentry keeps artifact bundles 90 days. */
  bundleRetentionDays: 90,
  /** files; the most a release's page and its files list show. */
  listedFiles: 1000,
} as const;

export const RETENTION_LIMITS = {
  /** days; how long events are kept by default (FAULTLINE_RETENTION_DAYS): Sentry's and GlitchTip's default too. */
  defaultDays: 90,
  /** days (10 years); the longest FAULTLINE_RETENTION_DAYS accepted: longer is a typo, not a retention policy. */
  maxDays: 3650,
  /**
   * events; an issue keeps its newest this many events, and its first one. One error thrown in a loop can send millions
   * of events; this bounds such an issue at about 16 MB of browser errors (bench:storage: about 1.6 KB each) long before
   * age does. Counts, users, tags and the hourly series are counted when events arrive, so no number shown shrinks;
   * nobody pages through more events than this (100 a page). An ignore "until N times in a window" up to 10,000 is
   * counted exactly from stored events; beyond (Sentry offers up to 100,000), from the hourly counts.
   */
  eventsPerIssue: 10_000,
  /**
   * rows; the most one retention step deletes (events, raw items, counters), in its own short transaction between two
   * digest batches. About 2.5 ms for 500 events on SQLite here, 13 ms at worst (bench:storage), so a batch never waits
   * long, and 500 per batch of up to 500 events keeps up with any intake the digest keeps up with.
   */
  chunkRows: 500,
  /** issues; the most one step deletes when their last event is past retention (their remaining rows go with them). */
  chunkIssues: 20,
  /** events; how many newer events one step looks at to find issues that may have passed eventsPerIssue (3.5 ms here). */
  scanEvents: 5000,
  /**
   * milliseconds (5 minutes); how often a retention pass starts. Events past the cap or the age linger at most this
   * long; a pass with nothing to delete costs a handful of indexed queries.
   */
  passIntervalMs: 5 * 60 * 1000,
} as const;

export const STORAGE_LIMITS = {
  /**
   * statements; prepared SQLite statements one connection keeps by SQL text. Faultline runs a few hundred distinct
   * statements (multi-row inserts differ by row count); past this the memory starts over rather than growing with
   * odd queries.
   */
  preparedStatements: 500,
  /**
   * the largest row id; ids are PostgreSQL `serial` (integer) columns, so a larger number names no row, and a query
   * with it would fail ("value out of range for type integer") instead of finding nothing.
   */
  maxId: 2_147_483_647,
} as const;

export const STREAM_LIMITS = {
  /** issues; one page of the dashboard's issue stream (each row draws a sparkline from one batched read). */
  pageSize: 25,
  /** projects; the most an organization-wide stream spans (and lists in its project picker). */
  maxProjects: 500,
  /** milliseconds; how often the live stream polls the database for new issues and changed counts. */
  pollIntervalMs: 2000,
  /** milliseconds (5 min); a live stream closes after this and the browser reconnects, so no request lives forever. */
  maxConnectionMs: 5 * 60 * 1000,
  /** issues; new issues counted per poll ("100+ new issues" beyond). */
  newIssuesCap: 100,
  /** issues; the most issues one live stream watches for changed counts (a page holds fewer). */
  maxWatchedIssues: 100,
  /** values; releases and environments offered by the search suggestions. */
  suggestionValues: 50,
  /**
   * characters; the longest issue search (`query`) the API and the issue stream take. A search of fifty terms fits;
   * percent-encoded it still makes a URL under 8 KB, which every proxy passes. The parser reads a search in one pass,
   * and the live stream parses it again on every poll, so its length is the work each poll does.
   */
  maxQueryLength: 2000,
  /**
   * connections; live streams one user may hold open at once, one per open issue-stream page. Browsers open at most
   * 6 connections per host over HTTP/1.1, so more come only through an HTTP/2 proxy; past this the user's oldest
   * stream ends (its page says so and stops updating), so the newest tab always updates.
   */
  maxStreamsPerUser: 8,
} as const;

/** The release, settings and invitation screens of the dashboard. */
export const DASHBOARD_LIMITS = {
  /** releases; one page of the releases list (each row counts its events with one indexed query). */
  releasesPageSize: 25,
  /** issues; the new issues a release page lists (the issue stream shows the rest with `release:`). */
  releaseNewIssues: 50,
  /** days; the release page's session chart, one bar per day (hourly counters are kept as long as the retention). */
  releaseChartDays: 30,
  /** days; an invitation link is accepted this long after it is made, so a leaked old link opens nothing. */
  invitationDays: 7,
} as const;

export const BUILD_LIMITS = {
  /**
   * bytes (150 kB, gzipped, kB = 1000 bytes as Next.js prints it); the JavaScript a browser downloads before a route
   * is interactive. React and Next.js's runtime take about 90 kB of it, so the dashboard's own client code stays small
   * and big libraries (charts) load after hydration. Checked by tests/build/bundle-budget.test.ts.
   */
  firstLoadJsGzipBytes: 150 * 1000,
} as const;

export const SYMBOLICATION_LIMITS = {
  /**
   * bytes (estimated: a map's size times `parsedBytesFactor`); parsed source maps kept by the digest, least recently
   * used dropped first. A quarter of the 384 MiB heap `npm start` gives: about three 5 MB maps, or dozens of the
   * usual few hundred KB, beside the batches the digest holds.
   */
  cacheBytes: 96 * 1024 * 1024,
  /**
   * ratio; a parsed map holds its sources' text and the decoded mappings (one small array per segment): measured at
   * 5.7 times the map's bytes for a 5.3 MB esbuild map (bench:symbolicate's), plus the lines split for context.
   */
  parsedBytesFactor: 6,
  /**
   * milliseconds (5 minutes); how long a map found by release and URL, or fetched, is trusted before it is read again
   * (a release's files may be uploaded again under the same name). Maps found by debug id never change.
   */
  cacheTtlMs: 5 * 60 * 1000,
  /** bytes; the largest source or source map read (Sentry refuses remote files over 40 MB; uploads are capped by the upload API). */
  maxFileBytes: 40 * 1024 * 1024,
  /** files per event; distinct minified files looked up for one event, the rest are left as sent (Sentry: 50). */
  maxFilesPerEvent: 50,
  /** lines; source lines kept before and after the frame's line, as Sentry's SDKs and processing give (5). */
  contextLines: 5,
  /** characters; a context line longer than this is cut around the column, as Sentry trims minified lines. */
  maxContextLineLength: 150,
  /** milliseconds; a fetch from a project's public URL (connect and read) gives up after this (Sentry: 30 s total). */
  fetchTimeoutMs: 10_000,
  /** redirects; followed only when the new host passes the same address checks. */
  fetchMaxRedirects: 3,
  /** bytes; the largest file fetched from a public URL (Sentry: 40 MB). */
  fetchMaxBytes: 40 * 1024 * 1024,
  /** files per event; fetches from public URLs for one event (a slow site must not stall the digest for long). */
  fetchMaxPerEvent: 10,
} as const;

/** Performance monitoring: spans, the transaction table and the trace view. */
export const PERFORMANCE_LIMITS = {
  /** spans; the most one transaction event or span item is expanded into (Relay's max_spans_per_transaction is 1000). */
  spansPerItem: 1000,
  /** characters; names, ops and descriptions of spans are cut here (a SQL statement as description is long enough). */
  spanText: 500,
  /** spans; the most a trace view draws (one waterfall of 2,000 rows is already a long page). */
  traceSpans: 2000,
  /** events; the errors a trace view lists. */
  traceErrors: 100,
  /** transactions; the rows of a project's transaction table, busiest first. */
  transactionRows: 100,
  /** segments; a transaction's newest traces listed under its chart. */
  recentSegments: 20,
  /** hours; the periods the performance pages offer (24 hours, 7 days, 14 days), each compared with the one before. */
  periodsHours: [24, 168, 336],
} as const;

/** Faultline reporting its own errors and page loads into its internal project (self-monitoring). */
export const SELF_MONITORING_LIMITS = {
  /**
   * bytes (2 MiB); an envelope posted to the browser tunnel (`/monitoring`). The browser SDK sends one event (at most
   * 1 MiB, Relay's max_event_size) or a page load's spans per envelope, uncompressed; anything larger is no envelope
   * of Faultline's own pages, so it is refused with 413 before it is read further.
   */
  maxTunnelBodyBytes: 2 * 1024 * 1024,
  /**
   * fraction (0.1); of page loads whose timing is sent by default. Every page load of every user would otherwise add
   * an envelope per page view to the install's own intake; a tenth shows the timing's distribution just as well.
   */
  defaultTracesSampleRate: 0.1,
  /** fraction (1); of Faultline's own errors sent by default: each one is worth seeing. */
  defaultErrorSampleRate: 1,
  /**
   * The internal project's DSN key's quotas unless set on the key itself: its DSN is in every page of Faultline,
   * sign-in included, so anyone can send with it, and these keep what they can send small. Each is many times what
   * a busy install's own pages send: an error is worth a look at 100 a minute already, page loads are sampled at
   * 10 %, and the browser SDK sends one session per page load and a few web-vital spans per page.
   */
  internalKeyQuotas: {
    error: { count: 100, windowSeconds: 60 },
    transaction: { count: 300, windowSeconds: 60 },
    span: { count: 3000, windowSeconds: 60 },
    session: { count: 600, windowSeconds: 60 },
    /** bytes; Faultline's pages send no attachments. */
    attachment: { count: 1024 * 1024, windowSeconds: 3600 },
    feedback: { count: 30, windowSeconds: 3600 },
    /** Faultline's pages have no cron monitors. */
    monitor: { count: 60, windowSeconds: 3600 },
    /** client reports; the browser SDK sends one now and then, with the discards it saved up. */
    internal: { count: 120, windowSeconds: 60 },
  },
} as const;

/** Personal notifications: workflow notices and the weekly summary (issue 17, "People"). */
export const PERSONAL_NOTIFICATION_LIMITS = {
  /** characters (2,000); of a comment carried in a workflow notice: enough for a mail's body, the issue page has the rest. */
  noticeTextChars: 2000,
  /** issues (5); the most frequent issues a weekly summary lists, as Sentry's weekly report does. */
  summaryTopIssues: 5,
  /** hour of the day (8), in the person's time zone, from which Monday's summary is due: read at the start of the working day. */
  summaryDueHour: 8,
  /**
   * hours (24); how long after Monday's due hour a summary not yet written is still written (a server down on Monday
   * morning sends it once it is back that day), but never a week late.
   */
  summaryDueWindowHours: 24,
  /** milliseconds (5 minutes); between the scheduler's looks for summaries that are due: a summary is at most this late. */
  summaryIntervalMs: 5 * 60_000,
  /** characters (64); of an IANA time zone name (the longest, America/Argentina/ComodRivadavia, has 32). */
  timeZoneMaxLength: 64,
} as const;

/** Delivering the notification outbox (notify/): webhooks, chat services, e-mail. */
export const NOTIFICATION_LIMITS = {
  /** milliseconds; how often an idle sender looks for due notifications when nothing woke it (the digest wakes it at once). */
  pollMs: 500,
  /** notifications per claim; delivered side by side, so a slow receiver holds up no more than these few. */
  batchSize: 10,
  /**
   * milliseconds; how long a claim holds a notification for its sender. Far longer than a delivery may take (one
   * request's time limit, an SMTP exchange), so a live sender never loses its claim; a crashed sender's claims pass
   * after this, and another sender delivers them (the receiver may then see the key twice: at least once).
   */
  claimMs: 60_000,
  /** milliseconds; one webhook request, connect to last byte (Sentry gives its webhooks 3 s; chat services answer in well under 1 s). */
  requestTimeoutMs: 5_000,
  /** bytes; the most of a receiver's answer read (the rest is dropped); answers are a status line for us. */
  responseMaxBytes: 64 * 1024,
  /** bytes; the first bytes of an answer kept in the history of a notification (notification_attempts). */
  responseExcerptBytes: 1024,
  /** milliseconds; the first retry's delay; each further one doubles it. */
  retryBaseMs: 15_000,
  /** milliseconds (1 hour); no wait between two attempts is longer, so a receiver back after an outage hears soon. */
  retryMaxDelayMs: 60 * 60 * 1000,
  /** ratio; each delay is spread by ± this much, so the retries of many notifications do not arrive at once. */
  retryJitter: 0.2,
  /** milliseconds (24 hours); a notification not delivered by this long after it was decided is marked failed. */
  maxAgeMs: 24 * 60 * 60 * 1000,
  /** characters; the error kept with a failed attempt or notification. */
  errorMaxChars: 500,
  /** characters; Slack: a section's text (Block Kit's limit 3000) and a header's (150). */
  slackSectionChars: 3000,
  slackHeaderChars: 150,
  /** characters; Discord embeds: title 256, description 4096, field value 1024, all of a message's embeds 6000. */
  discordTitleChars: 256,
  discordDescriptionChars: 4096,
  discordFieldChars: 1024,
  discordTotalChars: 6000,
  /** bytes; Teams workflow messages: about 28 KB with the card; the text in one card is kept well under it. */
  teamsTextChars: 8000,
  /** milliseconds; each step of an SMTP exchange (connect, greeting, each reply): well inside a claim (nodemailer waits minutes by default). */
  smtpTimeoutMs: 15_000,
  /** characters; an e-mail's subject line (RFC 5322 suggests lines under 78; clients cut long subjects anyway). */
  mailSubjectChars: 200,
  /** characters; an event's message or an issue's title in a message body. */
  messageChars: 2000,
} as const;

export const MAIL_LIMITS = {
  /** characters; a subject longer than this is cut (renderLayout) or refused (send): a line in a mail list stays readable. */
  subjectMaxChars: 200,
  /** recipients per message; alert mail goes one message per person, so more than this is a caller's mistake. */
  recipientsMax: 50,
  /** bytes (512 KiB) per part (text, HTML); alert and account mail is a few KiB, so a larger part is bad input. */
  partMaxBytes: 512 * 1024,
  /** custom headers per message (e.g. List-Unsubscribe, X-Faultline-*); a handful is all any caller needs. */
  headersMax: 20,
  /** characters per custom header value; RFC 5322's line limit (998), before folding. */
  headerValueMaxChars: 998,
  /** paragraphs per renderLayout call; more are dropped, so a huge list of lines cannot make a huge mail. */
  paragraphsMax: 50,
  /** characters per paragraph in renderLayout; longer ones are cut with "…" (an event's message can be megabytes). */
  paragraphMaxChars: 4000,
  /** milliseconds (10 s) to open the TCP (and TLS) connection to the SMTP server before giving up on this attempt. */
  connectionTimeoutMs: 10_000,
  /** milliseconds (10 s) to wait for the server's greeting once connected. */
  greetingTimeoutMs: 10_000,
  /** milliseconds (30 s) of silence on an open SMTP connection before it is dropped (and an idle pooled one closed). */
  socketTimeoutMs: 30_000,
  /** connections kept to the SMTP server; alert bursts go out in parallel without opening a connection per message. */
  poolConnections: 3,
} as const;

/** Metric alerts (issue 17): thresholds on the organization's counters, evaluated every minute. */
export const METRIC_ALERT_LIMITS = {
  /** milliseconds; how often rules are evaluated, as Sentry's subscriptions (one value per rule and minute). */
  evaluationIntervalMs: 60_000,
  /** minutes; the evaluation windows offered, Sentry's (1 minute to 1 day). */
  timeWindowsMinutes: [1, 5, 10, 15, 30, 60, 120, 240, 1440],
  /** rules per organization; each is evaluated every minute, so the number bounds the minute's work. */
  maxRulesPerOrganization: 100,
  /** actions per trigger; one outbox row each per state change. */
  maxActionsPerTrigger: 10,
  /** characters; a rule's name (Sentry's alert names run long: what, where, how much). */
  maxNameLength: 256,
  /** characters; the query (a few `key:value` terms). */
  maxQueryLength: 200,
  /** characters; a webhook URL of an action. */
  maxUrlLength: 2048,
  /** hours; the values each evaluation saw, kept for the chart (24 hours shown, a day's margin). */
  valuesKeptHours: 48,
  /** state changes; the history a rule's page and API list, newest first. */
  historyShown: 100,
  /** rules; evaluated per pass of one process, so a pass is bounded however many rules are due. */
  rulesPerPass: 500,
} as const;
