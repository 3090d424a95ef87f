// The preparing thread: the digest thread's second core. It prepares batches (prepare.ts: parse, normalize, scrub,
// symbolicate, group, encode; it only reads the database) while the digest thread writes the batch before, so the two
// halves of the digest's work run side by side. It is started by the digest thread from the same entry module (with
// `role: "prepare"` in its data), so a test's entry gives it the test's symbolicator too, and it ends with the digest
// thread (a worker's own workers end with it).
//
// The supervisor's watchdog (progress.ts) watches this thread: it takes the digest thread's progress slots, marks each
// record as it prepares it, beats and publishes its thread id. A record that blocks it is found as before, and the
// supervisor ends the digest thread, which ends this one. When this thread dies (out of memory, say), the digest thread
// exits with its exit code, and the supervisor counts the death against the record this thread was on.
import { Worker, parentPort, workerData } from "node:worker_threads";
import { DIGEST_LIMITS } from "../config/limits";
import type { SpoolRow } from "../ingest/spool";
import { type OpenDbOptions, openDb } from "../storage/db";
import { createStore } from "../storage/kysely";
import type { Store } from "../storage/ports";
import { describeFailure } from "./failures";
import { type DigestedRows, emptyRows, mergeDigested } from "./items";
import { prepareRows } from "./prepare";
import { SharedProgress, ownThreadId, yieldToIntake } from "./progress";
import type { Symbolicator } from "./symbolicate";
import { startWithOwnYoungGeneration } from "./thread-heap";

/** The preparing thread's data: which database to read, the digest's progress slots, and its staging directory. */
export type PrepareThreadData = {
  role: "prepare";
  db: OpenDbOptions;
  progress: SharedArrayBuffer;
  heartbeatMs: number;
  stagingDir: string;
  nice?: boolean;
};

type Request = { type: "prepare"; id: number; rows: SpoolRow[] } | { type: "stop" };
type Reply =
  | { type: "part"; id: number; digested: DigestedRows }
  | { type: "prepared"; id: number }
  | { type: "failed"; id: number; message: string }
  | { type: "log"; line: string };

/** Milliseconds the preparing thread gets to exit once asked (it has at most a batch to finish). */
const PREPARE_STOP_MS = 2000;

/** A batch the preparing thread could not prepare (the database unreachable, artifacts unreadable): tried again later. */
export class PrepareFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PrepareFailed";
  }
}

/** The preparing thread's body: prepares the batches it is sent, one at a time, until told to stop. */
export async function runPrepareThread(makeSymbolicator: (store: Store, log: (line: string) => void) => Symbolicator): Promise<void> {
  const data = workerData as PrepareThreadData;
  const port = parentPort!;
  const tid = ownThreadId();
  if (data.nice) yieldToIntake(tid);
  const progress = new SharedProgress(data.progress);
  progress.identify(tid);
  progress.beat();
  const heartbeat = setInterval(() => progress.beat(), data.heartbeatMs);
  const post = (m: Reply) => port.postMessage(m);
  const log = (line: string) => post({ type: "log", line });
  const db = openDb(data.db);
  const store = createStore(db);
  const ctx = { store, log, symbolicator: makeSymbolicator(store, log), progress, stagingDir: data.stagingDir };
  let queue = Promise.resolve();
  const prepare = async (id: number, rows: SpoolRow[]) => {
    try {
      const onPart = (digested: DigestedRows) => {
        // An error crosses threads as its text: the dead-letter table keeps the same words.
        for (const f of digested.failed) f.error = describeFailure(f.error);
        post({ type: "part", id, digested });
      };
      await prepareRows(ctx, rows, { partRows: DIGEST_LIMITS.preparePartRecords, onPart });
      post({ type: "prepared", id });
    } catch (err) {
      post({ type: "failed", id, message: describeFailure(err) });
    }
  };
  await new Promise<void>((resolve) => {
    const onMessage = (m: Request) => {
      if (m.type === "prepare") queue = queue.then(() => prepare(m.id, m.rows));
      else {
        port.off("message", onMessage);
        void queue.then(resolve);
      }
    };
    port.on("message", onMessage);
  });
  clearInterval(heartbeat);
  await db.close();
}

/** The digest thread's side: starts the preparing thread and hands it batches. */
export class PrepareThread {
  private readonly thread: Worker;
  private readonly pending = new Map<number, { parts: DigestedRows; resolve: (d: DigestedRows) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private stopping = false;

  /**
   * `entry`: the digest thread's own entry module; `onDeath`: what to do when the thread ends unasked (the digest
   * thread exits with its code, for the supervisor to count against the record in hand).
   */
  constructor(entry: URL, data: PrepareThreadData, log: (line: string) => void, onDeath: (code: number) => void) {
    this.thread = startWithOwnYoungGeneration(
      () => new Worker(entry, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: DIGEST_LIMITS.prepareYoungGenerationMb } }),
    );
    this.thread.on("message", (m: Reply) => {
      if (m.type === "log") return log(m.line);
      const waiting = this.pending.get(m.id);
      if (!waiting) return;
      if (m.type === "part") return mergeDigested(waiting.parts, m.digested);
      this.pending.delete(m.id);
      if (m.type === "prepared") waiting.resolve(waiting.parts);
      else waiting.reject(new PrepareFailed(m.message));
    });
    this.thread.on("error", (err) => log(`faultline: the digest's preparing thread failed: ${err.stack ?? err.message}`));
    this.thread.on("exit", (code) => {
      for (const waiting of this.pending.values()) waiting.reject(new PrepareFailed(`the preparing thread exited (${code})`));
      this.pending.clear();
      if (!this.stopping) onDeath(code);
    });
  }

  /** Prepares `rows` in the preparing thread. */
  prepare(rows: SpoolRow[]): Promise<DigestedRows> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { parts: emptyRows(), resolve, reject });
      this.thread.postMessage({ type: "prepare", id, rows } satisfies Request);
    });
  }

  /** Lets the thread finish what it was sent, then waits for it to exit. */
  async stop(): Promise<void> {
    this.stopping = true;
    const exited = new Promise<void>((resolve) => this.thread.once("exit", () => resolve()));
    this.thread.postMessage({ type: "stop" } satisfies Request);
    // It exits once its last batch is posted; one that does not within the bound is ended.
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, PREPARE_STOP_MS)));
    await Promise.race([exited, bound.then(() => this.thread.terminate())]);
    clearTimeout(timer);
  }
}
