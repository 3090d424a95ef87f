// A person's data (issue 18): finding, exporting and erasing a user's events, and a project's own retention.
// Each limit with its unit and the reason for its value; config/limits.ts gathers the files.

export const PERSONAL_DATA_LIMITS = {
  /** characters; the longest value searched for: user ids, e-mail addresses and usernames are far shorter, and tag values are cut at 200. */
  maxValueLength: 200,
  /** events; the most one search lists (newest first), so that a page stays small; the export and erasure go further. */
  listed: 200,
  /** events; the most one export file holds (about 5 KB each: some 50 MB at worst, read from the database 100 at a time). */
  exportEvents: 10_000,
  /** events; read and decoded per query while exporting, so memory holds one slice of events, not the whole file. */
  exportSlice: 100,
  /** feedback rows; the most one export holds per project (a few KB each at most: user feedback messages are cut at 64 KiB, most are a sentence). */
  exportFeedbackPerProject: 1_000,
  /** events; the most erased in one project's transaction: an erasure that finds more runs again for the rest. */
  eraseEventsPerProject: 5_000,
  /** days; the shortest retention a project may set: a day keeps today's events long enough to be looked at. */
  minRetentionDays: 1,
} as const;

// Data scrubbing (issue 18): the advanced rules (`relayPiiConfig`) people save per organization and per project, and
// the walk over each event. The rules are checked at save time against these limits, so the digest never compiles an
// unbounded rule set.
export const SCRUB_LIMITS = {
  /** bytes (UTF-8) of one `relayPiiConfig` JSON text; Sentry's own rule sets are a few KB, this leaves room for hundreds of rules. */
  maxConfigBytes: 65_536,
  /** rules defined in one config (`rules`); each application walks every value, so more rules cost every event. */
  maxRules: 100,
  /** selectors in one config (`applications`), for the same reason as rules. */
  maxApplications: 100,
  /** characters of one selector; Relay's longest built-in selector (the cookie list) is about 1,300. */
  maxSelectorLength: 2_000,
  /** characters of one regular expression (`pattern`, `keyPattern`); a readable rule is far shorter. */
  maxPatternLength: 1_000,
  /** instructions of one compiled regular expression (re2js program size): Relay refuses patterns over 256 KB compiled. */
  maxProgramSize: 5_000,
  /** levels of `alias` and `multiple` rules referring to others; Relay's built-ins go two deep, and a cycle stops here. */
  maxRuleNesting: 8,
  /** levels of nesting walked in one event; normalization already caps bags at 7 to 10, this guards the recursion. */
  maxWalkDepth: 128,
  /** strings; answers of a rule set's gates kept per string (values repeat from event to event: paths, variable reprs, messages); cleared when full. */
  gateMemoEntries: 8_192,
  /** characters; only strings up to this long are remembered, so the memo holds at most about 4 MB. */
  gateMemoMaxLength: 256,
  /** children; a scrubbing note's node finds a child by scanning its list up to this many (most have a few: a frame's variables, an array's items), and through a Map past it, so that an object of thousands of keys with notes stays linear. */
  metaChildrenScanned: 16,
  /** values; HMAC answers of `hash` redactions kept (a user's e-mail, id or address comes again event after event, and each HMAC costs about 2 µs); all cleared when full. */
  hashMemoEntries: 4_096,
  /** characters; only values up to this long are remembered, so the memo holds at most about 2.5 MB. */
  hashMemoMaxLength: 256,
  /**
   * UTF-16 units; the built-in patterns that backtrack (e-mail, URL credentials, PEM keys, user paths, the password
   * key's `token…=`) run natively on texts up to this long, where their worst case is about a millisecond, and in
   * re2js (linear, about 1 µs a character) past it: natively, a 100 KB text of "token" or a run of "a." before an
   * "@" took seconds, and a 1 MB one hours.
   */
  nativePatternMaxLength: 1_024,
} as const;

/** The data scrubbing settings of an organization or a project (core/data-scrubbing.ts), as the API and the screens take them. */
export const SCRUBBING_SETTINGS_LIMITS = {
  /** entries; sensitiveFields and safeFields each: every key is matched against every field the digest walks, so the list stays short. */
  fieldsPerList: 100,
  /** characters; one sensitive or safe field name (keys are matched as substrings: longer names are never keys). */
  fieldLength: 200,
  /** events; the newest of the project's events the settings screen previews a rule on. */
  previewEvents: 1,
  /** values; the most changes a preview lists (a rule that changes more is shown by its first ones). */
  previewChanges: 50,
} as const;
