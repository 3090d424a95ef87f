// The storage port of retention (digest/retention.ts): bounded deletes, each at most `limit` rows in one short
// statement, so the digest can run them between batches without holding the database for long. Every method returns
// how many rows it deleted; fewer than `limit` means nothing more is due.
export interface RetentionStore {
  /**
   * Deletes events received before `cutoff` (ISO), oldest first: among the `limit` events with the lowest ids (ids
   * follow arrival), those older than the cutoff. Arrival order makes old events sit at the low end, so this never
   * scans the table, and stops once the oldest events are recent.
   */
  pruneEventsBefore(cutoff: string, limit: number): Promise<number>;
  /**
   * Deletes up to `limit` events of the projects whose own retention (projects.retention_days) is shorter than
   * `instanceDays`, received before `now` minus their days, oldest first.
   */
  pruneProjectEvents(now: string, instanceDays: number, limit: number): Promise<number>;
  /**
   * The issues that may hold more than `keep` events (seen more often than that) among the events of the `scan` ids
   * after `afterEventId`, and the last id looked at (afterEventId itself when there were none), to go on from.
   */
  crowdedIssuesAfter(afterEventId: number, scan: number, keep: number): Promise<{ issueIds: number[]; lastEventId: number }>;
  /**
   * Where the per-issue cap's walk over events stands: every issue of the events up to this id was within its cap when
   * looked at (0 before the first walk). Kept in the database, so that a restart goes on from there instead of reading
   * every stored event again, and shared by the nodes, which take passes in turn.
   */
  overflowCursor(): Promise<number>;
  /** Moves the cursor on to `eventId`; a lower id than the one kept leaves it. */
  saveOverflowCursor(eventId: number): Promise<void>;
  /** Deletes up to `limit` events of the issue older than its newest `keep` (by arrival), never its first event. */
  pruneIssueOverflow(issueId: number, keep: number, limit: number): Promise<number>;
  /** As pruneEventsBefore, for raw_items (sessions, attachments, spans, check-ins…). */
  pruneRawItemsBefore(cutoff: string, limit: number): Promise<number>;
  /** As pruneEventsBefore, for user feedback (issue 19): among the `limit` lowest ids, those received before `cutoff`. */
  pruneFeedbackBefore(cutoff: string, limit: number): Promise<number>;
  /** Deletes up to `limit` hourly counters (issue events per hour, outcomes) of hours before `hour`. */
  pruneHourlyCountersBefore(hour: string, limit: number): Promise<number>;
  /**
   * Deletes up to `limit` rows of release health: session counts of hours before `hour`, then the users of releases
   * last seen before `cutoff`.
   */
  pruneReleaseHealthBefore(cutoff: string, hour: string, limit: number): Promise<number>;
  /**
   * Deletes up to `limit` issues last seen before `cutoff` that have no event received since then (last seen is the
   * SDK's timestamp, which may be far older than the arrival), with everything that belongs to them (as Sentry's cleanup).
   */
  pruneIssuesBefore(cutoff: string, limit: number): Promise<number>;
  /**
   * Deletes up to `limit` artifact bundles (with their files) last used before `bundleCutoff`, then chunks of uploads
   * never assembled that arrived before `chunkCutoff`.
   */
  pruneArtifactsBefore(bundleCutoff: string, chunkCutoff: string, limit: number): Promise<number>;
}
