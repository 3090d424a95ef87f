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
};
