// Structured logs (issue 19): what one log keeps, what an envelope's log item may carry, and what the logs page and API
// read. Each limit with its unit and the reason for its value; config/limits.ts gathers the files.

export const LOG_LIMITS = {
  /**
   * bytes (10 MiB); one `log` or `otel_log` envelope item. SDKs send at most 100 logs per item (@sentry/core's
   * MAX_LOG_BUFFER_SIZE) and Relay takes each log up to 1 MiB (max_log_size): a full batch of large logs fits, and a
   * bigger item is refused whole with 413 as every oversized item is.
   */
  maxItemBytes: 10 * 1024 * 1024,
  /** logs; one `log` item's `items`. Ten times what SDKs batch; the rest of a longer list is dropped and counted as invalid. */
  maxLogsPerItem: 1_000,
  /**
   * bytes (1 MiB); one log, by Relay's canonical size (body, attribute keys and values: relay-ourlogs size.rs).
   * Relay's max_log_size: a bigger log is dropped with the outcome `too_large`, as Relay drops it.
   */
  maxLogBytes: 1024 * 1024,
  /**
   * characters; a log body beyond this is cut (and the log notes it). Log lines are short; 16,384 characters keep a
   * pasted stack trace or a long SQL statement and bound what the page renders per line.
   */
  maxBodyLength: 16_384,
  /**
   * attributes per log; beyond this they are dropped (and the log notes how many). The Node SDK sets about ten
   * (sentry.*, user.*, the message template and its parameters); 256 leave room for application attributes and bound
   * a hostile log of 10,000 attributes to a row the page can read.
   */
  maxAttributes: 256,
  /** characters of an attribute key; a longer key is dropped with its value (a key is an identifier, never cut). */
  maxAttributeKeyLength: 256,
  /** characters of a string attribute's value; a longer one is cut (and noted). Relay keeps the values whole within 1 MiB. */
  maxAttributeValueLength: 4_096,
  /**
   * characters of an attribute value that is still searchable as `key:value`. Longer values are kept and shown but not
   * indexed: a search term is typed by hand, and each indexed pair costs a token in the search index.
   */
  maxIndexedValueLength: 200,
  /** levels; an attribute value that is an object or array is kept as its JSON text, nested no deeper than this. */
  maxAttributeDepth: 8,
  /** seconds; a log timestamp later than its arrival by more than this is set to the arrival (Relay's max_secs_in_future). */
  maxSecondsInFuture: 60,
  /** log lines per page of the logs page and API, newest first. */
  pageSize: 50,
  /** log lines per page of the API when asked for more (per_page), as Sentry's events API caps it. */
  maxApiPageSize: 100,
  /** log lines of a trace shown on the trace page and the event page's trace section. */
  perTrace: 100,
  /** characters of the search box; longer queries are refused with 400. */
  maxQueryLength: 500,
  /** words and `key:value` terms of one search; more are refused with 400 (each is one term of the index query). */
  maxQueryTerms: 10,
  /**
   * rows; on SQLite a text or attribute search first reads this many matches from the search index, newest first by
   * arrival, and orders them by timestamp; when the page could hold an older arrival it reads ten, a hundred and a
   * thousand times more (up to searchCandidateMaxRows) before walking the timestamp index (storage/kysely/log-search.ts).
   * Four pages of lines: as long as lines arrive about when they happen, the newest 200 matches hold the page, and FTS5
   * reads them in a tenth of the time it takes for 2,000 (a word in 1 line of 100 at 1,000,000 lines: 30 → 3 ms).
   */
  searchCandidateRows: 200,
  /** rows; the most matches one step of a SQLite search reads from the index before it walks the timestamp index instead. */
  searchCandidateMaxRows: 200_000,
  /** log lines one live tail frame sends; a burst beyond this asks the page to reload for the rest. */
  tailBatch: 50,
} as const;
