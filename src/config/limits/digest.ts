// The digest and what it stores: batches, triage, retention, storage, symbolication, performance data.
// Each limit with its unit and the reason for its value; config/limits.ts gathers the files.

export const DIGEST_LIMITS = {
  /** items; read from the spool and written to the database in one transaction. */
  batchSize: 500,
  /**
   * bytes (8 MiB); a batch also ends once its payloads reach this, so that 500 large events (up to 1 MiB each) never
   * sit in the digest's memory at once, parsed, under the server's heap limit (bin/faultline's node flags).
   */
  batchBytes: 8 * 1024 * 1024,
  /**
   * hours; on PostgreSQL, a batch's event ids are looked up among the events its project received this long before
   * the batch's earliest arrival and after its latest. Events are partitioned by day of arrival and a uniqueness
   * constraint there must include the day, so duplicates are found by reading: every partition would cost a lookup
   * per event id (a 500-event batch took 90-240 ms over 91 day partitions here, against 8 ms over three). A batch
   * written again after a crash has the same arrivals, and an SDK's retry comes seconds later; a copy sent again
   * after more than a day is stored again. SQLite has one uniqueness constraint over all events and no such window.
   */
  duplicateWindowHours: 24,
  /**
   * entries; compiled data scrubbers kept (digest/scrubbers.ts), one per distinct pair of organization and project
   * settings: an install has about as many as it has projects with settings of their own, and compiling one again
   * after a clear costs well under a millisecond.
   */
  scrubberCacheEntries: 1_000,
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
  /**
   * megabytes; the digest thread's young generation (V8's new space: two semi-spaces of a third each, 8 MB), apart
   * from the process's 2 MB semi-space (bin/faultline's --max-semi-space-size, which keeps the intake's memory small).
   * The digest makes much short-lived garbage per record (parsed events, rows, SQL): with the process's semi-space it
   * spent 17 % of its time collecting it. bench:digest, sustained 2,000/s for 30 s, runs alternated: 808–943 items/s
   * with the process's setting (six runs, median 885), 1,000–1,154 with 24 MB (five, median 1,020), 1,000–1,327 with
   * 48 MB (three), 923–1,058 with 96 (two): the smallest of those. It grows only as far as the garbage needs, and
   * only this thread's (digest/thread-heap.ts).
   */
  youngGenerationMb: 24,
  /**
   * megabytes; the preparing thread's young generation (FAULTLINE_DIGEST_THREADS=2; digest/thread-heap.ts, as
   * youngGenerationMb). It makes most of the digest's short-lived garbage. bench:digest, sustained 2,000/s for 30 s,
   * runs alternated, with whole batches sent at once: 1,558 and 1,616 items/s with 24 MB, 1,673 and 1,769 with 48,
   * 1,808–1,865 with 64 (four runs), 1,846 and 1,865 with 128; sent in parts (preparePartRecords): 1,654 and 1,673
   * with 24 MB, 1,808 and 1,903 with 64. Each 32 MB more is up to that much more memory under a full backlog.
   */
  prepareYoungGenerationMb: 64,
  /**
   * records; the preparing thread sends a batch on in parts of this many as it prepares them, so that what it has
   * prepared does not stay alive (and be copied by every scavenge) until the whole batch is done.
   */
  preparePartRecords: 50,
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
  /**
   * tags; of an event's own, the first this many are counted for its issue (issue_tags: the tag lists, search, alert
   * filters and notifications), then Faultline's (level, release, url…); the event keeps them all. SDKs set about ten,
   * applications a few dozen; Relay has no count limit, but one 700 KB event of 40,000 tags wrote 40,000 rows.
   */
  tagsPerEvent: 200,
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
  /**
   * days; on PostgreSQL, the day partitions each retention pass makes ahead of today (today, and this many after), so
   * that a pass that is late (every node down over midnight) still finds the day's partition made.
   */
  partitionDaysAhead: 3,
  /**
   * days; at most this many past days whose rows wait in a DEFAULT partition (their day had no partition when they
   * were written: a spool digested late, a clock set wrong) get their partition per pass, the rows moved into it.
   */
  defaultDaysPerPass: 7,
  /**
   * milliseconds; the longest a partition change waits for its table lock. Making or dropping a partition waits for
   * the queries that read the table, and everything after it waits behind it: past this it gives up, and the next
   * pass tries again.
   */
  partitionLockTimeoutMs: 5_000,
  /**
   * attempts; how often one partition change that met a deadlock with a digest batch (or its lock timeout) is tried
   * again at once before it is left for the next pass; three cover the batches of a few nodes.
   */
  partitionAttempts: 3,
} as const;

export const STORAGE_LIMITS = {
  /**
   * KiB (4 MiB); the digest's SQLite page cache. better-sqlite3 builds SQLite with a 16 MiB cache per connection, which
   * the digest, writing every page it touches, fills within seconds and keeps: under bench:ingest's load it held most of
   * a 54 MB malloc arena of its thread. What it reads again between commits (the indexes' upper levels) fits in 4 MiB,
   * and the rest comes from the OS's cache: about 3 % more CPU per record (the reads' system time), 30 MB less RSS.
   */
  digestCacheKiB: 4_096,
  /**
   * statements; prepared SQLite statements one connection keeps by SQL text. Faultline runs a few hundred distinct
   * statements (multi-row inserts differ by row count); past this the memory starts over rather than growing with
   * odd queries.
   */
  preparedStatements: 500,
  /**
   * characters of SQL; the prepared statements one connection keeps, together (sqlite-statements.ts). A statement holds
   * about 46 bytes per character of its text: 131,072 characters are about 6 MB per connection, room for every
   * statement of a batch and its full-size multi-row inserts, while the digest's inserts of odd row counts (667,000
   * characters in one drain) no longer stay, 30 MB of its thread's memory.
   */
  preparedStatementChars: 131_072,
  /**
   * the largest row id; ids are PostgreSQL `serial` (integer) columns, so a larger number names no row, and a query
   * with it would fail ("value out of range for type integer") instead of finding nothing.
   */
  maxId: 2_147_483_647,
  /**
   * pages (4 KiB each: 40 MiB); a SQLite connection checkpoints the write-ahead log itself, at the end of a commit, only
   * once the log holds this many pages. The process that runs the digest checkpoints it from a thread of its own
   * instead (storage/wal-checkpointer.ts): a checkpoint waits for two fsyncs, and on the digest's thread they were
   * about 8 % of its time (bench:digest's mix, 62 µs per record); on the server's thread they would hold up answers.
   * This is the backstop for when that thread falls behind or is not running (SQLite's default is 1,000 pages).
   */
  walAutocheckpointPages: 10_000,
  /**
   * milliseconds; how often the checkpoint thread moves the write-ahead log into the database (a passive checkpoint:
   * it never waits for readers or the writer). The digest commits a batch of up to 500 records every 100 ms or so at
   * full speed; a checkpoint with nothing new to move costs a few microseconds.
   */
  walCheckpointIntervalMs: 100,
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
