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
  /** events; the most erased in one project's transaction: an erasure that finds more runs again for the rest. */
  eraseEventsPerProject: 5_000,
  /** days; the shortest retention a project may set: a day keeps today's events long enough to be looked at. */
  minRetentionDays: 1,
} as const;
