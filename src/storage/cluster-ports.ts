// What several Faultline nodes on one PostgreSQL share beyond events and issues (migration 0026): quota counts and
// claims of jobs that run on one node at a time. On SQLite (one process) they work the same and are simply unneeded.

/** Units a node took from one quota window since it last said so; `delta` may be 0 to only read the total. */
export type QuotaDelta = { name: string; windowStart: number; expiresAt: number; delta: number };
export type QuotaTotal = { name: string; windowStart: number; count: number };

export interface ClusterStore {
  /** Adds each delta to its window's shared count and returns the totals, every node's units included. */
  addQuotaCounts(deltas: QuotaDelta[]): Promise<QuotaTotal[]>;
  /** Deletes windows that ended before `now` (epoch milliseconds), at most `limit`; how many went. */
  pruneQuotaCounts(now: number, limit: number): Promise<number>;
  /**
   * Claims the job `name` for `holder` until `until` (ISO 8601) when nobody holds it at `now`, or `holder` itself
   * does. True when the claim is this holder's.
   */
  claimJob(name: string, holder: string, now: string, until: string): Promise<boolean>;
}
