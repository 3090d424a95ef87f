// Runs the digest in a worker thread and watches it, for `faultline start` (spawn.ts) and `faultline worker`
// (process.ts) alike. The thread publishes the spool record it is processing and a heartbeat (progress.ts); when a
// record has kept the thread's event loop from turning for longer than the budget (DIGEST_LIMITS.recordBudgetMs), or
// the thread dies while processing one, the supervisor ends the thread and starts a new one that knows the record:
// the first time it is digested alone, the second time it is set aside unread (loop.ts), and the digest goes on. The
// watchdog sits outside the thread because a blocked event loop cannot watch itself: no timer of its own would run.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { DIGEST_LIMITS } from "../config/limits";
import { startWithOwnYoungGeneration } from "./thread-heap";
import type { DigestBatchFigures } from "../observability/metrics";
import { noteStorageWritable, reportStorageFull } from "../storage/storage-full";
import { startWalCheckpointer } from "../storage/wal-checkpointer";
import { ProgressView, newProgressBuffer, threadCpuMs } from "./progress";
import type { DigestThreadData, DigestWorkerData, DigestWorkerMessage } from "./thread";

export type DigestHandle = { stop: () => Promise<void> };

export type SupervisorOptions = {
  data: DigestWorkerData;
  onPosition: (position: number) => void;
  log: (line: string) => void;
  /** The thread's entry module; by default the built dist/digest-worker.mjs, or worker.ts through tsx from source. */
  entry?: URL;
  /** milliseconds a record may block the thread (DIGEST_LIMITS.recordBudgetMs). */
  budgetMs?: number;
  /** milliseconds between heartbeats and checks (DIGEST_LIMITS.heartbeatMs). */
  heartbeatMs?: number;
  /** Hears that the thread committed notifications to the outbox: wakes this process's sender (notify/sender.ts). */
  onNotifications?: () => void;
  /** Hears of each committed batch (the server's metrics). */
  onBatch?: (batch: DigestBatchFigures) => void;
};

export function defaultDigestEntry(): URL {
  const built = new URL("./digest-worker.mjs", import.meta.url);
  return existsSync(fileURLToPath(built)) ? built : new URL("./worker-from-source.mjs", import.meta.url);
}

/** Milliseconds the thread gets to finish its batch after being asked to stop, before it is ended. */
const STOP_GRACE_MS = 5000;

export function superviseDigest(opts: SupervisorOptions): DigestHandle {
  const { data, onPosition, log } = opts;
  const entry = opts.entry ?? defaultDigestEntry();
  const budgetMs = opts.budgetMs ?? DIGEST_LIMITS.recordBudgetMs;
  const heartbeatMs = opts.heartbeatMs ?? DIGEST_LIMITS.heartbeatMs;
  /** Records a thread was ended on, by spool id, with what happened each time; forgotten once digested past. */
  const endedOn = new Map<number, string[]>();
  let current: { thread: Worker; exited: boolean };
  let stopping = false;

  const count = (record: number, cause: string) => {
    const causes = [...(endedOn.get(record) ?? []), cause];
    endedOn.set(record, causes);
    return causes.length;
  };

  const launch = () => {
    if (stopping) return;
    const buffer = newProgressBuffer();
    const view = new ProgressView(buffer);
    const threadData: DigestThreadData = { ...data, progress: buffer, endedOn: [...endedOn], heartbeatMs, entry: entry.href };
    const thread = startWithOwnYoungGeneration(
      () => new Worker(entry, { workerData: threadData, resourceLimits: { maxYoungGenerationSizeMb: DIGEST_LIMITS.youngGenerationMb } }),
    );
    const launched = { thread, exited: false };
    current = launched;
    let endedByWatchdog = false;
    /** The thread's CPU time when its event loop was last seen turning. */
    let cpuAtTurn: number | null = null;
    const watchdog = setInterval(() => {
      const now = Date.now();
      const cpu = threadCpuMs(view.thread());
      if (view.sinceTurn(now) <= 2 * heartbeatMs) cpuAtTurn = cpu;
      const record = view.blocked(now, budgetMs);
      if (record === null) return;
      // Blocked that long by the clock; but on a busy machine the thread may have been waiting for a core. It must
      // also have used the budget's worth of CPU since its loop last turned (where that can be read).
      if (cpu !== null && cpuAtTurn !== null && cpu - cpuAtTurn < budgetMs) return;
      clearInterval(watchdog);
      endedByWatchdog = true;
      const times = count(record, `it kept the thread's event loop busy for more than ${budgetMs} ms`);
      log(`faultline: spool record ${record} kept the digest thread busy for more than ${budgetMs} ms (${times}x); ending the thread`);
      void thread.terminate();
    }, heartbeatMs);
    watchdog.unref();
    thread.on("message", (m: DigestWorkerMessage) => {
      if (m.type === "log") return log(m.line);
      if (m.type === "notifications") return opts.onNotifications?.();
      if (m.type === "storage") return m.full ? reportStorageFull("digestBatch") : noteStorageWritable();
      if (m.type === "batch") return opts.onBatch?.({ records: m.records, events: m.events, latenciesMs: m.latenciesMs, at: m.at });
      for (const record of endedOn.keys()) if (record <= m.position) endedOn.delete(record);
      onPosition(m.position);
    });
    thread.on("error", (err) => log(`faultline: digest worker failed: ${err.stack ?? err.message}`));
    thread.on("exit", (code) => {
      launched.exited = true;
      clearInterval(watchdog);
      if (stopping) return;
      // A thread that died in the middle of a record (out of memory, say) counts against the record, as a block does.
      const record = endedByWatchdog ? null : view.current();
      if (record !== null)
        log(`faultline: the digest thread died while processing spool record ${record} (${count(record, `the thread died (exit code ${code})`)}x)`);
      log(`faultline: digest worker exited (${code}); restarting in ${DIGEST_LIMITS.restartDelayMs} ms`);
      setTimeout(launch, DIGEST_LIMITS.restartDelayMs).unref();
    });
  };
  launch();
  // The digest's commits leave the write-ahead log to this thread (SQLite; storage/wal-checkpointer.ts).
  const checkpointer = startWalCheckpointer(data.db, log);

  const stopThread = () =>
    new Promise<void>((resolve) => {
      stopping = true;
      const { thread, exited } = current;
      if (exited) return resolve();
      const timer = setTimeout(() => {
        log(`faultline: the digest thread did not stop within ${STOP_GRACE_MS} ms of being asked; ending it`);
        void thread.terminate().then(() => resolve());
      }, STOP_GRACE_MS);
      thread.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      thread.postMessage({ type: "stop" });
    });
  return { stop: () => stopThread().then(() => checkpointer.stop()) };
}
