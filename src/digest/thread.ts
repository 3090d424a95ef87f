// The digest thread's body: its own database connection and a read-only view of the spool, so digesting never blocks
// the intake's event loop. Started by supervisor.ts (from `faultline start` and from `faultline worker` alike) through
// an entry module (worker.ts; tests give one of their own); reports each committed spool position, publishes the
// record in hand and a heartbeat for the supervisor's watchdog (progress.ts).
import os from "node:os";
import path from "node:path";
import { stagingDir } from "../ingest/attachment-staging";
import { parentPort, workerData } from "node:worker_threads";
import { DIGEST_LIMITS, RETENTION_LIMITS, STORAGE_LIMITS } from "../config/limits";
import { SpoolReader } from "../ingest/spool";
import type { DigestBatchFigures } from "../observability/metrics";
import { type OpenDbOptions, openDb } from "../storage/db";
import { createStore } from "../storage/kysely";
import type { Store } from "../storage/ports";
import { runDigestLoop } from "./loop";
import { SharedProgress, ownThreadId } from "./progress";
import { RetentionJob, retentionSettings } from "./retention";
import { Symbolicator, publicFetcher } from "./symbolicate";

/**
 * retentionDays: FAULTLINE_RETENTION_DAYS (default RETENTION_LIMITS.defaultDays); nice: lower the thread's priority
 * below the intake's (the thread of `faultline start`).
 */
export type DigestWorkerData = { spoolDir: string; db: OpenDbOptions; retentionDays?: number; nice?: boolean };

/** What the supervisor adds: the shared progress slots, the records earlier threads were ended on (why), the beat. */
export type DigestThreadData = DigestWorkerData & { progress: SharedArrayBuffer; endedOn: [number, string[]][]; heartbeatMs: number };

/** `notifications`: a committed batch added that many notifications to the outbox (the parent wakes its sender). */
/** `batch`: a committed batch's figures, for the process's metrics (observability/metrics.ts). */
export type DigestWorkerMessage =
  | { type: "position"; position: number }
  | { type: "log"; line: string }
  | { type: "notifications"; count: number }
  | ({ type: "batch" } & DigestBatchFigures);

/** How the thread maps frames: the real symbolicator, or a test's own (tests/helpers/digest-test-worker.ts). */
export type SymbolicatorFactory = (store: Store, log: (line: string) => void) => Symbolicator;

const defaultSymbolicator: SymbolicatorFactory = (store, log) => new Symbolicator({ artifacts: store, fetcher: publicFetcher(), log });

/**
 * Lowers this thread's scheduling priority (Linux: a thread is a task with its own nice value, named by
 * /proc/thread-self). When both cores are busy the intake's thread runs first, so SDKs get their answers quickly and
 * the digest catches up from the spool in quieter moments. Elsewhere the thread keeps the normal priority.
 */
function yieldToIntake(tid: number): void {
  if (tid === 0) return;
  try {
    os.setPriority(tid, DIGEST_LIMITS.threadNiceness);
  } catch {
    // Not allowed: the digest runs at normal priority.
  }
}

/** Runs the digest until the supervisor says stop; then finishes the batch in hand and closes. */
export async function runDigestThread(makeSymbolicator: SymbolicatorFactory = defaultSymbolicator): Promise<void> {
  const data = workerData as DigestThreadData;
  const tid = ownThreadId();
  if (data.nice) yieldToIntake(tid);
  const port = parentPort!;
  const progress = new SharedProgress(data.progress);
  progress.identify(tid);
  progress.beat();
  const heartbeat = setInterval(() => progress.beat(), data.heartbeatMs);
  const db = openDb(data.db.dialect === "sqlite" ? { ...data.db, cacheKiB: STORAGE_LIMITS.digestCacheKiB } : data.db);
  const spool = SpoolReader.open(data.spoolDir);
  let stopping = false;
  const onMessage = (m: { type: string }) => {
    if (m.type === "stop") stopping = true;
  };
  port.on("message", onMessage);
  const post = (m: DigestWorkerMessage) => port.postMessage(m);
  const log = (line: string) => post({ type: "log", line });
  const store = createStore(db);
  try {
    await runDigestLoop({
      spool,
      store,
      onPosition: (position) => post({ type: "position", position }),
      onNotifications: (count) => post({ type: "notifications", count }),
      onBatch: (batch) => post({ type: "batch", ...batch }),
      log,
      stopped: () => stopping,
      retention: new RetentionJob(store, retentionSettings(data.retentionDays ?? RETENTION_LIMITS.defaultDays), log),
      symbolicator: makeSymbolicator(store, log),
      progress,
      endedOn: new Map(data.endedOn),
      stagingDir: stagingDir(path.dirname(data.spoolDir)),
    });
  } finally {
    clearInterval(heartbeat);
    spool.close();
    await db.close();
    // A listened-to port keeps the thread alive: without this the thread outlives the loop, and the supervisor's
    // stop waits out its whole grace (STOP_GRACE_MS) on every shutdown.
    port.off("message", onMessage);
  }
}
