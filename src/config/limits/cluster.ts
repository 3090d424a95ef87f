// Several Faultline nodes on one PostgreSQL (README, "Several nodes"): what they share and how often.
// Each limit with its unit and the reason for its value; config/limits.ts gathers the files.

export const CLUSTER_LIMITS = {
  /**
   * attempts; how often a digest batch whose transaction PostgreSQL rolled back for a deadlock (40P01) or a
   * serialization failure (40001) is written again at once, before the failure goes to the digest's own retry with
   * backoff (digest/failures.ts: the database's trouble, never the data's). Batches lock shared rows in key order, so
   * a cycle is rare; one retry almost always succeeds, five cover a burst of new issues on every node at once.
   */
  transactionRetries: 5,
  /**
   * milliseconds; the longest pause before a retried transaction, chosen at random below it so that two nodes that
   * just deadlocked do not meet again in step.
   */
  transactionRetryJitterMs: 50,
  /**
   * milliseconds; how often each node's intake sends the units it took from its quotas to the shared count in
   * PostgreSQL and learns the other nodes' (ingest/quota-sync.ts). A quota can be exceeded by what the other nodes
   * accept in this time (their rate times a quarter second, for a window they have just started using); each exchange
   * is one small upsert of the open windows, four a second per node.
   */
  quotaSyncMs: 250,
  /** milliseconds; how often ended quota windows are deleted from the shared count. */
  quotaPruneEveryMs: 60_000,
  /** rows; ended quota windows deleted at most per prune, in one short statement each. */
  quotaPruneRows: 1_000,
};
