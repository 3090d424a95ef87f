// Starts the digest in a worker thread of `faultline start` (on the second core), watched and restarted by
// supervisor.ts. The process holds the spool's digest lock (lock.ts) for as long as the thread may run, so
// `faultline worker` cannot consume the same spool meanwhile.
import { lockDigest } from "./lock";
import { type DigestHandle, type SupervisorOptions, superviseDigest } from "./supervisor";
import type { DigestWorkerData } from "./thread";

export type { DigestHandle } from "./supervisor";

/** Throws DigestLockedError when another digest consumes the spool already. */
export function startDigestWorker(
  data: DigestWorkerData,
  onPosition: (position: number) => void,
  log: (line: string) => void,
  options: Pick<SupervisorOptions, "entry" | "budgetMs" | "onNotifications" | "onBatch"> = {},
): DigestHandle {
  const lock = lockDigest(data.spoolDir, "the digest thread of faultline start");
  const digest = superviseDigest({ data: { nice: true, ...data }, onPosition, log, ...options });
  return {
    stop: async () => {
      await digest.stop();
      lock.release();
    },
  };
}
