// The digest loop: read the spool from the saved position, write a batch and the new position in one transaction,
// report the position (so the intake can delete what lies behind it), repeat. Idempotent: after a crash the batch
// after the saved position is simply written again, and stored events are unique per (project, event id).
//
// No record stops it. A record whose processing throws is tried again alone, then set aside (items.ts, set-aside.ts).
// A batch whose transaction the database refuses for a reason about its data (failures.ts) is written again record by
// record, each in its own transaction, and a record refused alone too is set aside. A record that kept the digest
// thread busy past its budget, or took the thread down (the supervisor started a new one: progress.ts,
// supervisor.ts), comes back in `endedOn`: after once, it is digested alone; after twice, it is set aside unread.
// Trouble with the database itself (down, locked, full) is waited out with backoff, the batch read again each time,
// and never sets a record aside.
//
// A batch's preparation (prepare.ts: parsing, scrubbing, symbolication, grouping) only reads the database; with a
// preparing thread (prepare-thread.ts) the next batch is prepared there while this thread writes the one before.
import { DIGEST_LIMITS } from "../config/limits";
import type { SpoolReader, SpoolRow } from "../ingest/spool";
import type { DigestBatchFigures } from "../observability/metrics";
import type { DigestStore } from "../storage/ports";
import { isStorageFull } from "../storage/storage-full";
import { writeBatch } from "./commit";
import { describeFailure, isDataError } from "./failures";
import type { DigestedRows } from "./items";
import { type LoopPrepareStore, type PrepareRows, prepareRows } from "./prepare";
import type { RecordProgress } from "./progress";
import type { RetentionJob } from "./retention";
import { writeSetAside } from "./set-aside";
import { removeStaged, writePendingBlobs } from "./attachments";
import type { Symbolicator } from "./symbolicate";

export type DigestLoopOptions = {
  spool: SpoolReader;
  store: DigestStore & LoopPrepareStore;
  onPosition: (position: number) => void;
  log: (line: string) => void;
  /**
   * Hears that a batch could not be written for want of space (true), and that one was written again after that
   * (false): the process's storage state (storage/storage-full.ts), which GET /api/health and the diagnostics page show.
   */
  onStorageFull?: (full: boolean) => void;
  /** True once the loop should stop. */
  stopped: () => boolean;
  /** Pruning by age and per-issue cap, one bounded step after each batch and while the spool is empty. */
  retention?: RetentionJob;
  /** Maps JavaScript frames through source maps before grouping; without it events are grouped as sent. */
  symbolicator?: Symbolicator;
  /** Hears of each record as its processing begins and ends (the digest thread's watchdog, progress.ts). */
  progress?: RecordProgress;
  /** Records a digest thread was ended on (past its budget, or it died), by spool id: what happened each time. */
  endedOn?: ReadonlyMap<number, readonly string[]>;
  /** Hears that a committed batch added notifications to the outbox (how many), so a sender can go at once. */
  onNotifications?: (count: number) => void;
  /** Hears of each committed batch: its records, its events and each event's time from acceptance to commit (metrics). */
  onBatch?: (batch: DigestBatchFigures) => void;
  /** Where multipart uploads staged their files (ingest/attachment-staging.ts); without it such records are dropped. */
  stagingDir?: string;
  /**
   * Prepares rows in another thread (prepare-thread.ts), which then also has the symbolicator and the progress: the
   * next batch is prepared while one is written. Without it rows are prepared here, with `symbolicator` and `progress`.
   */
  prepare?: PrepareRows;
};

const EVENT_ITEMS = new Set(["event", "transaction", "feedback", "security"]);

/** A committed batch's figures: records, events, and each event's milliseconds from the intake's acceptance. */
function batchFigures(rows: SpoolRow[], at: number): DigestBatchFigures {
  const latenciesMs: number[] = [];
  for (const r of rows) if (r.kind === "item" && EVENT_ITEMS.has(r.itemType)) latenciesMs.push(at - r.receivedAt);
  return { records: rows.length, events: latenciesMs.length, latenciesMs, at };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How the loop prepares rows: `opts.prepare` (the preparing thread), or here in the digest thread. */
const preparer = (opts: DigestLoopOptions): PrepareRows =>
  opts.prepare ??
  ((rows) => prepareRows({ store: opts.store, log: opts.log, symbolicator: opts.symbolicator, progress: opts.progress, stagingDir: opts.stagingDir }, rows));

/**
 * The next batch, prepared while the one before it is written: the rows after `position` and their preparation under
 * way. Used only if the loop goes on from that very position; otherwise dropped, its result unread.
 */
type Ahead = { position: number; rows: SpoolRow[]; prepared: Promise<DigestedRows> };

/** What the loop carries from one batch to the next. */
type LoopState = { ahead: Ahead | null };

/** Digests rows in one transaction, with the position just past the last of them. */
async function digestBatch(opts: DigestLoopOptions, rows: SpoolRow[], prepared: Promise<DigestedRows>, state?: LoopState): Promise<void> {
  const next = rows[rows.length - 1]!.id;
  const stagingDir = opts.stagingDir ?? null;
  const digested = await prepared;
  // The batch after this one is prepared while this one is written (with a preparing thread, at the same time).
  if (state && opts.prepare) state.ahead = planAhead(opts, next);
  // Attachment blobs before the transaction, under keys of their records: written again with the batch if it fails.
  const blobs = await writePendingBlobs(opts.store.attachmentBlobs, opts.spool.id, stagingDir, digested.pendingAttachments ?? [], opts.log);
  // One transaction for the batch and `next`: a crash before it commits leaves the saved position where it was, and the
  // batch is read and written again whole; after it commits, the batch is never read again. Counters that add (issue
  // events, outcomes, session counts) rely on this.
  const result = await writeBatch(opts.store, { spoolId: opts.spool.id, position: next, ...digested, attachments: blobs.rows });
  await removeStaged(blobs.cleanup);
  if (result.notifications > 0) opts.onNotifications?.(result.notifications);
  opts.onBatch?.(batchFigures(rows, Date.now()));
}

/** Sets one record aside in a transaction of its own, with the position just past it. */
async function setAside(opts: DigestLoopOptions, row: SpoolRow, error: unknown, attempts: number): Promise<void> {
  opts.log(`faultline: digest set spool record ${row.id} aside after ${attempts} attempts: ${describeFailure(error)}`);
  // A record of a project deleted since would break the table's foreign key: it goes as the batch would drop it.
  const live = row.kind === "outcomes" || (await opts.store.getProjectById(row.projectId)) !== null;
  await opts.store.digestTransaction(async (tx) => {
    if (live) await writeSetAside(tx, opts.spool.id, [{ row, error, attempts }]);
    await tx.setSpoolPosition(opts.spool.id, row.id);
  });
}

/**
 * Digests a batch; when the database refuses its transaction for a reason about the data, writes it again record by
 * record and sets aside each record refused alone too. Any other failure is thrown (the loop waits and reads again).
 */
async function digestIsolating(opts: DigestLoopOptions, rows: SpoolRow[], prepared?: Promise<DigestedRows>, state?: LoopState): Promise<void> {
  const prepare = preparer(opts);
  try {
    await digestBatch(opts, rows, prepared ?? prepare(rows), state);
    return;
  } catch (err) {
    if (!isDataError(err)) throw err;
    opts.log(
      `faultline: digest batch of ${rows.length} record${rows.length === 1 ? "" : "s"} from spool position ${rows[0]!.id} refused (${describeFailure(err)}); writing its records one by one`,
    );
  }
  for (const row of rows) {
    try {
      await digestBatch(opts, [row], prepare([row]));
    } catch (err) {
      if (!isDataError(err)) throw err;
      await setAside(opts, row, err, 2);
    }
  }
}

/** The error a record a digest thread was ended on twice is set aside with. */
export class ThreadEndedError extends Error {
  constructor(causes: readonly string[]) {
    super(`a digest thread was ended on this record ${causes.length} times: ${causes.join("; ")}`);
    this.name = "ThreadEndedError";
  }
}

/** What comes after `position`: nothing, a batch, or a record a digest thread was ended on, on its own. */
type Plan = { kind: "empty" } | { kind: "batch"; rows: SpoolRow[] } | { kind: "ended"; row: SpoolRow; causes: readonly string[] };

function plan(opts: DigestLoopOptions, position: number): Plan {
  const rows = opts.spool.read(position, DIGEST_LIMITS.batchSize, DIGEST_LIMITS.batchBytes);
  if (rows.length === 0) return { kind: "empty" };
  // A record a thread was ended on ends the batch before it, then has a turn of its own.
  const ended = opts.endedOn;
  const at = ended && ended.size > 0 ? rows.findIndex((r) => ended.has(r.id)) : -1;
  if (at === 0) return { kind: "ended", row: rows[0]!, causes: ended!.get(rows[0]!.id)! };
  return { kind: "batch", rows: at > 0 ? rows.slice(0, at) : rows };
}

/** The batch after `position`, its preparation started; null when there is none to prepare ahead. */
function planAhead(opts: DigestLoopOptions, position: number): Ahead | null {
  const next = plan(opts, position);
  if (next.kind !== "batch") return null;
  const prepared = preparer(opts)(next.rows);
  // Read only if the loop goes on from `position`; a failure then is the batch's, thrown where it is awaited.
  prepared.catch(() => undefined);
  return { position, rows: next.rows, prepared };
}

/** Digests one batch; returns the new position, or `position` itself when the spool had nothing after it. */
export async function digestOnce(opts: DigestLoopOptions, position: number, state: LoopState = { ahead: null }): Promise<number> {
  const ahead = state.ahead;
  state.ahead = null;
  if (ahead && ahead.position === position) {
    await digestIsolating(opts, ahead.rows, ahead.prepared, state);
    return ahead.rows[ahead.rows.length - 1]!.id;
  }
  const next = plan(opts, position);
  if (next.kind === "empty") return position;
  if (next.kind === "ended") {
    if (next.causes.length >= 2) await setAside(opts, next.row, new ThreadEndedError(next.causes), next.causes.length);
    else await digestIsolating(opts, [next.row]);
    return next.row.id;
  }
  await digestIsolating(opts, next.rows, undefined, state);
  return next.rows[next.rows.length - 1]!.id;
}

export async function runDigestLoop(opts: DigestLoopOptions): Promise<void> {
  let position = await opts.store.getSpoolPosition(opts.spool.id);
  opts.onPosition(position);
  let failures = 0;
  let diskFull = false;
  const state: LoopState = { ahead: null };
  while (!opts.stopped()) {
    try {
      const next = await digestOnce(opts, position, state);
      if (failures > 0) opts.log(`faultline: digest batch after spool position ${position} written after ${failures} failed attempts: going on`);
      if (diskFull) opts.onStorageFull?.(false);
      failures = 0;
      diskFull = false;
      if (next === position) {
        // Nothing to digest: retention may use the time, a step at a time, so new items still come first.
        if (!(await opts.retention?.step())) await sleep(DIGEST_LIMITS.idlePollMs);
        continue;
      }
      position = next;
      opts.onPosition(position);
      await opts.retention?.step();
    } catch (err) {
      // A locked or unreachable database: wait and try the same batch again; nothing is lost meanwhile.
      failures++;
      if (isStorageFull(err)) {
        diskFull = true;
        opts.onStorageFull?.(true);
      }
      opts.log(`faultline: digest batch after spool position ${position} failed (${failures}x): ${(err as Error).message}`);
      await sleep(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)));
      // A commit whose answer was lost (a dropped connection) may still have happened: go on from the saved position.
      const saved = await opts.store.getSpoolPosition(opts.spool.id).catch(() => position);
      if (saved !== position) {
        position = saved;
        opts.onPosition(position);
      }
    }
  }
}
