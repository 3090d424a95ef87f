// The digest's worker thread: its own database connection and a read-only view of the spool, so digesting never
// blocks the intake's event loop. Started by digest/spawn.ts; reports each committed spool position.
import { parentPort, workerData } from "node:worker_threads";
import { SpoolReader } from "../ingest/spool";
import { type OpenDbOptions, openDb } from "../storage/db";
import { createStore } from "../storage/kysely";
import { runDigestLoop } from "./loop";

export type DigestWorkerData = { spoolFile: string; db: OpenDbOptions };
export type DigestWorkerMessage = { type: "position"; position: number } | { type: "log"; line: string };

const data = workerData as DigestWorkerData;
const port = parentPort!;
const db = openDb(data.db);
const spool = SpoolReader.open(data.spoolFile);
let stopping = false;
port.on("message", (m: { type: string }) => {
  if (m.type === "stop") stopping = true;
});
const post = (m: DigestWorkerMessage) => port.postMessage(m);

await runDigestLoop({
  spool,
  store: createStore(db),
  onPosition: (position) => post({ type: "position", position }),
  log: (line) => post({ type: "log", line }),
  stopped: () => stopping,
});
spool.close();
await db.close();
