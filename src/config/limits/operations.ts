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
} as const;
