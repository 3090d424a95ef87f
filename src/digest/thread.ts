// The digest thread's body: its own database connection and a read-only view of the spool, so digesting never blocks
// the intake's event loop. Started by supervisor.ts (from `faultline start` and from `faultline worker` alike) through
// an entry module (worker.ts; tests give one of their own); reports each committed spool position. It starts the
// preparing thread (prepare-thread.ts) from the same entry, which prepares batches and publishes the record in hand and
// a heartbeat for the supervisor's watchdog (progress.ts); without it (FAULTLINE_DIGEST_THREADS=1) this thread does both.
import path from "node:path";
import { stagingDir } from "../ingest/attachment-staging";
import { parentPort, workerData } from "node:worker_threads";
import { RETENTION_LIMITS, STORAGE_LIMITS } from "../config/limits";
import { SpoolReader } from "../ingest/spool";
import type { DigestBatchFigures } from "../observability/metrics";
import { type OpenDbOptions, openDb } from "../storage/db";
import { createStore } from "../storage/kysely";
import type { Store } from "../storage/ports";
import { runDigestLoop } from "./loop";
import { PrepareThread, runPrepareThread } from "./prepare-thread";
import { SharedProgress, ownThreadId, yieldToIntake } from "./progress";
import { RetentionJob, retentionSettings } from "./retention";
import { Symbolicator, publicFetcher } from "./symbolicate";

/**
 * retentionDays: FAULTLINE_RETENTION_DAYS (default RETENTION_LIMITS.defaultDays); nice: lower the thread's priority
 * below the intake's (the thread of `faultline start`).
 */
export type DigestWorkerData = {
  spoolDir: string;
  db: OpenDbOptions;
  retentionDays?: number;
  nice?: boolean;
  /** Prepare batches in a second thread (FAULTLINE_DIGEST_THREADS=2: prepare-thread.ts). */
  prepareThread?: boolean;
};

/** What the supervisor adds: the shared progress slots, the records earlier threads were ended on (why), the beat. */
export type DigestThreadData = DigestWorkerData & {
  progress: SharedArrayBuffer;
  endedOn: [number, string[]][];
  heartbeatMs: number;
  /** The thread's own entry module (a URL), which the preparing thread is started from (prepare-thread.ts). */
  entry?: string;
};

/** `notifications`: a committed batch added that many notifications to the outbox (the parent wakes its sender). */
/** `storage`: a batch failed for want of space (full), or was written again after that (the parent's storage state). */
/** `batch`: a committed batch's figures, for the process's metrics (observability/metrics.ts). */
export type DigestWorkerMessage =
  | { type: "position"; position: number }
  | { type: "log"; line: string }
  | { type: "notifications"; count: number }
  | { type: "storage"; full: boolean }
  | ({ type: "batch" } & DigestBatchFigures);

/** How the thread maps frames: the real symbolicator, or a test's own (tests/helpers/digest-test-worker.ts). */
export type SymbolicatorFactory = (store: Store, log: (line: string) => void) => Symbolicator;

const defaultSymbolicator: SymbolicatorFactory = (store, log) => new Symbolicator({ artifacts: store, fetcher: publicFetcher(), log });

/** Runs the digest until the supervisor says stop; then finishes the batch in hand and closes. */
export async function runDigestThread(makeSymbolicator: SymbolicatorFactory = defaultSymbolicator): Promise<void> {
  if ((workerData as { role?: string }).role === "prepare") return runPrepareThread(makeSymbolicator);
  const data = workerData as DigestThreadData;
  const tid = ownThreadId();
  if (data.nice) yieldToIntake(tid);
  const port = parentPort!;
  const post = (m: DigestWorkerMessage) => port.postMessage(m);
  const log = (line: string) => post({ type: "log", line });
  const staging = stagingDir(path.dirname(data.spoolDir));
  // With a preparing thread, that thread takes the progress slots (it is the one on records) and the symbolicator.
  const preparing =
    data.prepareThread && data.entry
      ? new PrepareThread(
          new URL(data.entry),
          { role: "prepare", db: data.db, progress: data.progress, heartbeatMs: data.heartbeatMs, stagingDir: staging, nice: data.nice },
          log,
          (code) => {
            log(`faultline: the digest's preparing thread exited (${code}); ending the digest thread`);
            process.exit(code === 0 ? 1 : code);
          },
        )
      : null;
  const progress = new SharedProgress(data.progress);
  if (!preparing) progress.identify(tid);
  progress.beat();
  const heartbeat = preparing ? undefined : setInterval(() => progress.beat(), data.heartbeatMs);
  const db = openDb(data.db.dialect === "sqlite" ? { ...data.db, cacheKiB: STORAGE_LIMITS.digestCacheKiB } : data.db);
  const spool = SpoolReader.open(data.spoolDir);
  let stopping = false;
  const onMessage = (m: { type: string }) => {
    if (m.type === "stop") stopping = true;
  };
  port.on("message", onMessage);
  const store = createStore(db);
  try {
    await runDigestLoop({
      spool,
      store,
      onPosition: (position) => post({ type: "position", position }),
      onNotifications: (count) => post({ type: "notifications", count }),
      onBatch: (batch) => post({ type: "batch", ...batch }),
      onStorageFull: (full) => post({ type: "storage", full }),
      log,
      stopped: () => stopping,
      retention: new RetentionJob(store, retentionSettings(data.retentionDays ?? RETENTION_LIMITS.defaultDays), log),
      ...(preparing ? { prepare: (rows) => preparing.prepare(rows) } : { symbolicator: makeSymbolicator(store, log), progress }),
      endedOn: new Map(data.endedOn),
      stagingDir: staging,
    });
  } finally {
    clearInterval(heartbeat);
    await preparing?.stop();
    spool.close();
    await db.close();
    // A listened-to port keeps the thread alive: without this the thread outlives the loop, and the supervisor's
    // stop waits out its whole grace (STOP_GRACE_MS) on every shutdown.
    port.off("message", onMessage);
  }
}
