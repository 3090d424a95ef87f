// The body of the write-ahead log's checkpoint thread (wal-checkpointer.ts starts it). Plain JavaScript, so that it
// runs as it is from source and is built into dist/ as it is: it needs nothing but better-sqlite3.
// Every `intervalMs` it runs a passive checkpoint on a connection of its own: the pages the digest committed are moved
// into the database file and both files synced, without waiting for (or holding up) any reader or the writer.
import { parentPort, workerData } from "node:worker_threads";
import SQLite from "better-sqlite3";

/** @type {{ file: string; intervalMs: number }} */
const { file, intervalMs } = workerData;
const db = new SQLite(file);
db.pragma("busy_timeout = 5000");
/** @type {NodeJS.Timeout | undefined} */
let timer;
let lastError = "";

function checkpoint() {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
    lastError = "";
  } catch (err) {
    // Said once per kind of failure (a full disk, say); the connections' own checkpoints are the backstop meanwhile.
    const message = err instanceof Error ? err.message : String(err);
    if (message !== lastError) parentPort?.postMessage({ type: "log", line: `faultline: write-ahead log checkpoint failed: ${message}` });
    lastError = message;
  }
}

function loop() {
  checkpoint();
  timer = setTimeout(loop, intervalMs);
}

parentPort?.on("message", (/** @type {{ type?: string }} */ m) => {
  if (m?.type !== "stop") return;
  clearTimeout(timer);
  checkpoint();
  db.close();
  parentPort?.close();
});
loop();
