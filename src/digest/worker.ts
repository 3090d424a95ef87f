// The digest's worker thread: its own database connection and a read-only view of the spool, so digesting never
// blocks the intake's event loop. Started by digest/spawn.ts; reports each committed spool position.
import { readlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { DIGEST_LIMITS, RETENTION_LIMITS } from "../config/limits";
import { SpoolReader } from "../ingest/spool";
import { type OpenDbOptions, openDb } from "../storage/db";
import { createStore } from "../storage/kysely";
import { runDigestLoop } from "./loop";
import { RetentionJob, retentionSettings } from "./retention";
import { Symbolicator, publicFetcher } from "./symbolicate";

/** retentionDays: FAULTLINE_RETENTION_DAYS (default RETENTION_LIMITS.defaultDays). */
export type DigestWorkerData = { spoolDir: string; db: OpenDbOptions; retentionDays?: number };
export type DigestWorkerMessage = { type: "position"; position: number } | { type: "log"; line: string };

/**
 * Lowers this thread's scheduling priority (Linux: a thread is a task with its own nice value, named by
 * /proc/thread-self). When both cores are busy the intake's thread runs first, so SDKs get their answers quickly and
 * the digest catches up from the spool in quieter moments. Elsewhere the thread keeps the normal priority.
 */
function yieldToIntake(): void {
  try {
    const tid = Number(path.basename(readlinkSync("/proc/thread-self")));
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, DIGEST_LIMITS.threadNiceness);
  } catch {
    // No /proc, or not allowed: the digest runs at normal priority.
  }
}

yieldToIntake();
const data = workerData as DigestWorkerData;
const port = parentPort!;
const db = openDb(data.db);
const spool = SpoolReader.open(data.spoolDir);
let stopping = false;
port.on("message", (m: { type: string }) => {
  if (m.type === "stop") stopping = true;
});
const post = (m: DigestWorkerMessage) => port.postMessage(m);
const log = (line: string) => post({ type: "log", line });
const store = createStore(db);

await runDigestLoop({
  spool,
  store,
  onPosition: (position) => post({ type: "position", position }),
  log,
  stopped: () => stopping,
  retention: new RetentionJob(store, retentionSettings(data.retentionDays ?? RETENTION_LIMITS.defaultDays), log),
  symbolicator: new Symbolicator({ artifacts: store, fetcher: publicFetcher(), log }),
});
spool.close();
await db.close();
