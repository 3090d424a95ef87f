// The write-ahead log's checkpoint thread: started beside the digest (digest/supervisor.ts) in the process that runs
// it, on SQLite. SQLite checkpoints at the end of whichever commit finds the log long enough, on that connection's
// thread, and a checkpoint waits for two fsyncs: on the digest's thread that was about 8 % of its time, and a commit of
// the server's thread (a session, a setting) could have held up every answer meanwhile. This thread does it instead,
// on a connection of its own; every connection's own checkpoint stays as a backstop at a longer log
// (STORAGE_LIMITS.walAutocheckpointPages, db.ts).
import { Worker } from "node:worker_threads";
import { STORAGE_LIMITS } from "../config/limits";
import type { OpenDbOptions } from "./db";

export type WalCheckpointer = { stop: () => Promise<void> };

const NONE: WalCheckpointer = { stop: async () => undefined };

/** Starts the checkpoint thread for a SQLite file; for PostgreSQL or an in-memory database there is nothing to do. */
export function startWalCheckpointer(db: OpenDbOptions, log: (line: string) => void): WalCheckpointer {
  if (db.dialect !== "sqlite" || db.file === ":memory:") return NONE;
  // Next to this module from source, and next to dist/cli.mjs in the build (scripts/build.mjs).
  const thread = new Worker(new URL("./wal-checkpoint-thread.mjs", import.meta.url), {
    workerData: { file: db.file, intervalMs: STORAGE_LIMITS.walCheckpointIntervalMs },
    // It holds one connection and a timer: a small heap is plenty.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
  });
  let exited = false;
  thread.on("message", (m: { type?: string; line?: string }) => {
    if (m.type === "log" && m.line) log(m.line);
  });
  // Without it, each connection checkpoints for itself again once its log reaches the backstop: nothing is lost.
  thread.on("error", (err) => log(`faultline: the write-ahead log checkpoint thread failed: ${err.message}`));
  thread.once("exit", () => (exited = true));
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        thread.once("exit", () => resolve());
        thread.postMessage({ type: "stop" });
      }),
  };
}
