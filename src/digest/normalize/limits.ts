// Limits applied by Faultline's event normalization, each with its unit and the Relay (or Sentry) source it
// follows. Lengths are counted in Unicode code points, as Relay counts `chars()`.

/** String length caps applied by trimming (code points). A longer string keeps `limit - 3` code points + "...". */
export const MAX_CHARS = {
  /** relay-event-schema protocol/event.rs `culprit`: `max_chars = 200` (MaxChars::Culprit, sentry constants.py MAX_CULPRIT_LENGTH). */
  culprit: 200,
  /** relay-event-schema protocol/event.rs `transaction`: `max_chars = 200`. */
  transaction: 200,
  /** relay-event-schema protocol/event.rs `logger`: `max_chars = 64` (database limit). */
  logger: 64,
  /** relay-event-schema protocol/event.rs `server_name`: `max_chars = 256`, allowance 20 (applied strictly here). */
  serverName: 256,
  /** relay-event-schema protocol/event.rs `site`: `max_chars = 256`. */
  site: 256,
  /** relay-event-schema protocol/event.rs `release`: `max_chars = 200` ("release ends in tag"). */
  release: 200,
  /** relay-event-schema protocol/event.rs `environment`: `max_chars = 64` (sentry ENVIRONMENT_NAME_MAX_LENGTH). */
  environment: 64,
  /** relay-event-schema protocol/event.rs `checksum`: `max_chars = 128`. */
  checksum: 128,
} as const;

/**
 * A Relay `max_chars` with its allowance: a string longer than `limit + allowance` code points keeps `limit - 3` of
 * them followed by "..." (relay-event-normalization trimming.rs `trim_string`); up to the allowance it stays whole.
 */
export type CharCap = { limit: number; allowance: number };

/** relay-event-schema processor/attrs.rs `MaxChars::limit` and `MaxChars::allowance`, by the names the schema uses. */
const SYMBOL: CharCap = { limit: 256, allowance: 20 };
const PATH: CharCap = { limit: 256, allowance: 40 };
const SUMMARY: CharCap = { limit: 1024, allowance: 100 };
const MESSAGE: CharCap = { limit: 8192, allowance: 200 };
const ENUMLIKE: CharCap = { limit: 128, allowance: 0 };

/**
 * The caps of the fields grouping, the event's summary and the metadata read, applied while normalizing (so
 * before grouping): every string grouping's regular expressions and hashes see is bounded, as in Sentry.
 */
export const FIELD_CAPS = {
  /** relay-event-schema protocol/exception.rs `ty`: max_chars 256, allowance 20 (MaxChars::Symbol). */
  exceptionType: SYMBOL,
  /** relay-event-schema protocol/exception.rs `value`: max_chars 8192, allowance 200 (MaxChars::Message). */
  exceptionValue: MESSAGE,
  /** relay-event-schema protocol/exception.rs `module`: max_chars 256, allowance 20. */
  exceptionModule: SYMBOL,
  /** relay-event-schema protocol/stacktrace.rs `Frame`: `function`, `raw_function`, `symbol` are max_chars "symbol". */
  frameSymbol: SYMBOL,
  /** relay-event-schema protocol/stacktrace.rs `Frame`: `filename`, `abs_path` are max_chars "path". */
  framePath: PATH,
  /** relay-event-schema protocol/stacktrace.rs `Frame`: `trust`, `lang` are max_chars "enumlike". */
  frameEnum: ENUMLIKE,
  /** relay-event-schema protocol/thread.rs `Thread::name`: max_chars "summary". */
  threadName: SUMMARY,
  /** relay-event-schema protocol/logentry.rs `message`, `formatted`: max_chars "message" (8192, allowance 200). */
  message: MESSAGE,
  /** relay-event-schema protocol/user.rs: `id`, `username`, `name` max_chars 128; `email` 75 (sentry MAX_EMAIL_FIELD_LENGTH). */
  userField: { limit: 128, allowance: 0 },
  userEmail: { limit: 75, allowance: 0 },
} as const satisfies Record<string, CharCap>;

/** Caps that remove the value with a `value_too_long` error instead of trimming it (code points). */
export const MAX_CHARS_OR_REMOVE = {
  /** relay-event-normalization event.rs `normalize_event_tags`: MaxChars::TagKey = 200 (sentry MAX_TAG_KEY_LENGTH). */
  tagKey: 200,
  /** relay-event-normalization event.rs `normalize_event_tags`: MaxChars::TagValue = 200 (sentry MAX_TAG_VALUE_LENGTH). */
  tagValue: 200,
  /** relay-event-normalization event.rs `normalize_dist`: MaxChars::Distribution = 64 (sentry models/distribution.py). */
  dist: 64,
} as const;

/**
 * A databag's limits (relay-event-normalization trimming.rs `TrimmingProcessor`): levels below the field
 * (`max_depth`; a container on the last level becomes its JSON text) and estimated JSON bytes (`max_bytes`, Relay's
 * `estimate_size_flat`: every value inside counts its own bytes plus one, keys count nothing; past the limit strings
 * are cut and the remaining keys and items dropped). `each` opens a bag of its own for every direct child, `fields`
 * for the named ones (Relay's newtypes `ExtraValue` and `ContextInner`, and the bags nested in some contexts).
 */
export type BagLimit = {
  maxDepth: number;
  maxBytes: number;
  each?: BagLimit;
  fields?: Record<string, BagLimit>;
  /** The bag is a list of [key, value] pairs (request.rs's typed pairs). */
  pairs?: true;
  /** The bag is a context, whose `type` is its kind and not data: never charged or cut. */
  keepsType?: true;
};

/** relay-event-schema processor/attrs.rs `BagSize`: depth and estimated bytes of each size. */
const SMALL: BagLimit = { maxDepth: 3, maxBytes: 1024 };
const MEDIUM: BagLimit = { maxDepth: 5, maxBytes: 2048 };
const LARGE: BagLimit = { maxDepth: 7, maxBytes: 8192 };
const LARGER: BagLimit = { maxDepth: 7, maxBytes: 16_384 };
const MASSIVE: BagLimit = { maxDepth: 7, maxBytes: 262_144 };

/**
 * The event's databags, as relay-event-schema's protocol declares them (`bag_size`, or `max_depth` and `max_bytes`
 * where the field has them now). Everything else is bounded by the intake's size limits only, as in Relay.
 */
export const DATABAGS = {
  /** protocol/event.rs `extra`: `max_depth = 7, max_bytes = 262_144`; each value (`ExtraValue`): 7 and 16,384. */
  extra: { ...MASSIVE, each: LARGER },
  /** protocol/event.rs `modules`: `max_depth = 7, max_bytes = 8192`. */
  modules: LARGE,
  /** protocol/breadcrumb.rs `data`: `max_depth = 5, max_bytes = 2048`. */
  breadcrumbData: MEDIUM,
  /** protocol/logentry.rs `params`: `bag_size = "medium"`. */
  logentryParams: MEDIUM,
  /** protocol/mechanism.rs `data`: `bag_size = "medium"`. */
  mechanismData: MEDIUM,
  /** protocol/stacktrace.rs `Frame::vars`: `bag_size = "medium"`. */
  frameVars: MEDIUM,
  /**
   * protocol/request.rs: `data`, `headers` and `env` large, `cookies` medium, `query_string` small. The pair lists'
   * items are Relay's typed pairs: one is kept whole or with its value cut, never as a key alone (`pairs`).
   */
  request: {
    data: LARGE,
    headers: { ...LARGE, pairs: true },
    env: LARGE,
    cookies: { ...MEDIUM, pairs: true },
    query_string: { ...SMALL, pairs: true },
  } as Record<string, BagLimit>,
  /**
   * protocol/contexts/mod.rs `ContextInner`: `max_depth = 7`, and `max_bytes = 8192` on every kind of context but
   * `flags` (132,072); contexts/response.rs `cookies` (medium), `headers` and `data` (large); contexts/otel.rs
   * `attributes` and `resource` (large).
   */
  context: { ...LARGE, keepsType: true } as BagLimit,
  contextOf: {
    flags: { maxDepth: 7, maxBytes: 132_072, keepsType: true },
    response: { ...LARGE, keepsType: true, fields: { cookies: MEDIUM, headers: LARGE, data: LARGE } },
    otel: { ...LARGE, keepsType: true, fields: { attributes: LARGE, resource: LARGE } },
  } as Record<string, BagLimit>,
  /** protocol/event.rs `spans`: `max_bytes = 819_200`, no depth of its own. */
  spans: { maxDepth: Number.POSITIVE_INFINITY, maxBytes: 819_200 },
} as const;

/**
 * Lines of source context kept on each side of a frame's `context_line` (`pre_context` the last ones, `post_context`
 * the first). Not a Relay limit: SDKs send 5 to 7 lines by default, and a megabyte of `[0,0,…]` stored 2.5 MB of
 * nulls. The original count is noted in `_meta`, as Relay notes a trimmed array.
 */
export const MAX_CONTEXT_LINES = 50;

/** relay-event-normalization trimming.rs `enforce_frame_hard_limit(frames, meta, 250)`: frames kept, newest last. */
export const MAX_FRAMES = 250;

/** relay-event-normalization trimming.rs `slim_frame_data(frames, 50)`: frames beyond this lose vars/pre_context/post_context. */
export const FRAME_DATA_ALLOWANCE = 50;

/**
 * Breadcrumbs kept per event (the most recent ones). Not a Relay limit: Relay keeps every breadcrumb. This is the
 * SDKs' default `max_breadcrumbs` (100), applied so one event cannot carry an unbounded trail.
 */
export const MAX_BREADCRUMBS = 100;

/**
 * Processing errors kept per event (`event.errors`, the SDK's and normalization's together). Not a Relay limit: one
 * entry per invalid item made a megabyte of `[0,0,…]` breadcrumbs 50 MB of stored errors, past what a stored event
 * may inflate to (storage/event-codec.ts). The rest are counted in one last entry.
 */
export const MAX_PROCESSING_ERRORS = 100;

/** relay-config `default_max_secs_in_future`: 60 seconds of clock drift tolerated before `future_timestamp`. */
export const MAX_SECS_IN_FUTURE = 60;

/** relay-config `default_max_secs_in_past`: 30 days before `past_timestamp`. */
export const MAX_SECS_IN_PAST = 30 * 24 * 3600;

/** relay-event-schema protocol/types.rs `impl FromValue for Timestamp`: years above 9999 are "timestamp out of range". */
export const MAX_TIMESTAMP_YEAR = 9999;
