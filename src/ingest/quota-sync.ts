// Quotas across nodes (several Faultline processes on one PostgreSQL): every CLUSTER_LIMITS.quotaSyncMs the intake's
// RateLimiter sends the units it took to the shared count of each open window (quota_counts) and learns the total.
// Requests are still decided in memory, so a quota can be exceeded by what the other nodes take between two
// exchanges (at most their rate times quotaSyncMs); then every node refuses until the window ends. Windows that
// ended are pruned from the table now and then. A failed exchange (the database away) is retried with the same units.
import { CLUSTER_LIMITS } from "../config/limits";
import type { ClusterStore } from "../storage/cluster-ports";
import type { RateLimiter } from "./rate-limiter";

export function startQuotaSync(
  limiter: RateLimiter,
  store: ClusterStore,
  log: (line: string) => void,
  intervalMs: number = CLUSTER_LIMITS.quotaSyncMs,
): { stop: () => Promise<void> } {
  let running: Promise<void> | null = null;
  let failing = false;
  let nextPrune = Date.now() + CLUSTER_LIMITS.quotaPruneEveryMs;
  const exchange = async () => {
    const now = Date.now();
    const deltas = limiter.outgoing(now);
    if (deltas.length > 0) {
      try {
        limiter.learn(await store.addQuotaCounts(deltas));
      } catch (err) {
        limiter.unsent(deltas);
        throw err;
      }
    }
    if (now >= nextPrune) {
      nextPrune = now + CLUSTER_LIMITS.quotaPruneEveryMs;
      await store.pruneQuotaCounts(now, CLUSTER_LIMITS.quotaPruneRows);
    }
  };
  const tick = () => {
    if (running) return;
    running = exchange()
      .then(() => {
        if (failing) log("faultline: quota counts are shared again");
        failing = false;
      })
      .catch((err: unknown) => {
        if (!failing)
          log(`faultline: quota counts not shared (each node counts its own until this passes): ${String((err as Error)?.message ?? err).split("\n", 1)[0]}`);
        failing = true;
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
      tick();
      await running;
    },
  };
}
