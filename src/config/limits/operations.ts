// Running Faultline: its own metrics, `faultline doctor`, backups.
// Each limit with its unit and the reason for its value; config/limits.ts gathers the files.

export const METRICS_LIMITS = {
  /** milliseconds; the resolution of the event-loop delay histogram (perf_hooks): finer costs CPU on every turn. */
  eventLoopPrecisionMs: 10,
  /**
   * seconds; buckets of the event-to-visible latency. A quiet install shows an event within 50-100 ms (the digest polls
   * the spool every 50 ms), a busy one within seconds, and a backlog the spool absorbs takes minutes to catch up.
   */
  visibleLatencyBuckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
  /** seconds; buckets of page and API answers: the pages' budget is p95 ≤ 80-100 ms (bench:pages), slow ones show above. */
  pageBuckets: [0.01, 0.025, 0.05, 0.08, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  /** characters; the shortest FAULTLINE_METRICS_TOKEN taken: 128 bits as hex, so it cannot be guessed. */
  minTokenLength: 32,
  /** records; spool records counted together while measuring a backlog left from before a start (precision of the count's age). */
  backlogScanChunk: 1000,
} as const;

export const DOCTOR_LIMITS = {
  /** bytes (2 GiB); free space on the data dir below which doctor warns: the intake refuses below 1 GiB (SPOOL_LIMITS). */
  minFreeDiskBytes: 2 * 1024 * 1024 * 1024,
  /** milliseconds; the most this host's clock may differ from the database's: sessions, quotas and retention use both. */
  maxClockSkewMs: 2000,
  /**
   * seconds; age of the oldest undigested spool record above which doctor says the digest is behind. A busy install
   * catches up from a burst within minutes (bench:digest); five minutes behind means it is stopped or overwhelmed.
   */
  maxBacklogSeconds: 300,
  /** milliseconds; how long doctor waits for the public URL to answer. */
  requestTimeoutMs: 5000,
  /**
   * locks; what one query over every day partition holds until its transaction ends: each day's tables and their
   * indexes. Measured on PostgreSQL 15: a query over events alone, 7 a day (668 locks for 90 days + 4 ahead); the
   * trace view's errors, which read a trace's links (trace_events, partitioned by migration 0041) and their events
   * across the days, 12 a day (61 locks with 5 days made, against 37 for events alone).
   */
  locksPerPartitionDay: 12,
  /** days; the partitions made ahead of today (retention.ts), which such a query also locks. */
  partitionDaysAhead: 4,
  /**
   * connections; the fewest that doctor assumes may run such a query at once, when fewer are connected as it runs:
   * two nodes with their pools of 10 (storage/db.ts), the smallest cluster README.md describes.
   */
  minConnectionsAssumed: 20,
} as const;

export const VACUUM_LIMITS = {
  /**
   * milliseconds (7 days); the server's vacuum runs at most this often, claimed by one node: deleting by retention
   * frees pages every hour, and returning them weekly keeps the file near its live size without busy work.
   */
  intervalMs: 7 * 86_400_000,
  /** milliseconds (1 hour); how often the server looks whether the weekly vacuum is due: the first look is one interval after the start. */
  checkIntervalMs: 3_600_000,
  /**
   * pages (4 MiB at SQLite's 4 KiB pages); freed per incremental step: one step holds the write lock for milliseconds,
   * so the digest waits at most that long (busy_timeout is 5 s).
   */
  stepPages: 1024,
  /** milliseconds; the pause between two incremental steps, so the digest's batches come first. */
  stepPauseMs: 250,
  /** tables; PostgreSQL's largest tables that `faultline vacuum` and the weekly vacuum run VACUUM (ANALYZE) on. */
  postgresTables: 12,
  /**
   * ratio; free disk a full SQLite VACUUM needs, times the database's size, on the data dir's file system (the whole
   * database passes through the WAL) and on the temporary directory's (SQLite builds the copy there); both, when one.
   */
  fullVacuumFreeRatio: 1.1,
} as const;

export const DISK_USAGE_LIMITS = {
  /** days; daily samples kept in the data dir's disk-usage.json: a month to look back on, a few KiB of JSON. */
  keptSamples: 30,
  /** samples (days); the growth per day is measured over the last this many: a week evens out weekdays and weekends. */
  growthSamples: 7,
  /** milliseconds (1 hour); how often the server looks whether today's sample is taken: one a day is written. */
  sampleCheckIntervalMs: 3_600_000,
  /** files; the most counted when adding up the data dir's sizes, so a data dir full of stray files cannot stall a page. */
  maxFilesWalked: 100_000,
} as const;

/** A write the disk had no room for (storage/storage-full.ts), outside the intake (INGEST_LIMITS' own floor). */
export const STORAGE_FULL_LIMITS = {
  /** seconds; the Retry-After of the web API's 503: the intake's for its own full disk (backpressureRetryAfterSeconds). */
  retryAfterSeconds: 30,
  /** milliseconds; the log says a kind of write failed for want of space at most this often, not once per request. */
  reportEveryMs: 60_000,
  /**
   * milliseconds (5 minutes); /api/health and the diagnostics page say the disk is full while a write failed for want
   * of space this recently and none has been seen to succeed since. Nothing probes the disk with a write: with no write
   * tried for this long the state is no longer known, and "full" would be a guess (a busy install tries several a minute).
   */
  shownForMs: 300_000,
  /**
   * sessions; signed-out sessions whose rows could not be deleted (auth/revoked-sessions.ts), kept in memory and refused
   * until the rows go. A full disk creates no session (signing in writes), so only the sessions alive when it filled can
   * be signed out: 10,000 (about 2 MB of hashes and ids) is more than an install has. Past it the oldest is forgotten,
   * and its session is refused again only once its row is deleted or it expires.
   */
  revokedSessionsMax: 10_000,
  /**
   * milliseconds; how often the rows of those sessions are tried again: one delete every 15 s (the first that meets a
   * full disk ends the round) costs nothing, and a freed disk ends them for every node within 15 s.
   */
  revokedSessionsRetryMs: 15_000,
} as const;

export const SHUTDOWN_LIMITS = {
  /**
   * milliseconds; on SIGTERM, how long the HTTP server keeps its open connections to finish the requests in flight
   * and to answer, with `Connection: close`, the ones a proxy still sends on its kept-alive connections (new connections
   * are refused at once, which a proxy takes as a cue to use another node). SDK requests take milliseconds; a live
   * update stream (up to 5 minutes) is closed at the end, and the browser reconnects.
   */
  drainMs: 3000,
  /**
   * milliseconds; on SIGTERM, the kept-alive connections that are idle are closed once no request has come for this
   * long (server/http-server.ts): a proxy still picking the node sends it a request every few milliseconds under load,
   * and one that has met a refused connection (nginx then leaves the node alone for its fail_timeout) sends none. A
   * fixed wait of 500 ms raced with nginx on a busy machine. Short beside drainMs.
   */
  idleQuietMs: 250,
  /**
   * milliseconds; the process exits by this time after SIGTERM whatever is still running (drainMs, then the digest's
   * batch in flight and the database): below systemd's default of 90 s and the 10 s most supervisors give.
   */
  exitMs: 8000,
} as const;

/** The HTTP server's connections (server/http-server.ts). */
export const CONNECTION_LIMITS = {
  /**
   * milliseconds; how long an answer may wait for a client that reads none of it (its socket's buffer full, no byte
   * taken) before the connection is closed. Such a client held the answer in memory for as long as it kept the
   * connection: 20 MB per attachment download, gigabytes from a few dozen stalled downloads. A client must take what
   * one write buffered (a block of Next's, 64 KiB) within this: about 1 KiB/s, below any link still in use.
   */
  sendStallMs: 60_000,
} as const;
