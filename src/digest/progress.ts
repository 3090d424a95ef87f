// What the digest thread is working on, published where the thread that supervises it can read it even while the
// digest's event loop is blocked: three 64-bit slots of a SharedArrayBuffer, written and read with Atomics. The
// digest marks each spool record as its processing begins and ends (items.ts), and a timer of the digest thread
// beats while its event loop turns. When the heartbeat and the record's start are both older than the budget, the
// record has kept the event loop from turning for that long: the supervisor (supervisor.ts) ends the thread and sets
// the record aside, once the thread has also spent the budget's worth of CPU time since its loop last turned (a
// fourth slot holds its Linux thread id), so a thread that merely waited for a core on a busy machine is not taken
// for a stuck one. Asynchronous waits (a source map fetched from the network, a query) let the heartbeat beat, so
// only synchronous work counts against the budget; fetches have their own limits (SYMBOLICATION_LIMITS).
import { readFileSync, readlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DIGEST_LIMITS } from "../config/limits";

/** Hears of each spool record as its processing begins and ends. */
export interface RecordProgress {
  begin(recordId: number): void;
  end(): void;
}

export const NO_PROGRESS: RecordProgress = { begin: () => undefined, end: () => undefined };

const HEARTBEAT = 0;
const RECORD = 1;
const SINCE = 2;
const THREAD = 3;

/**
 * The shared state's size: heartbeat (epoch ms), the record in hand (its spool id, 0 for none), when it began, and
 * the thread's Linux thread id (0 where there is none).
 */
export const PROGRESS_BYTES = 4 * BigInt64Array.BYTES_PER_ELEMENT;

/** This thread's Linux thread id (/proc/thread-self), or 0 elsewhere. */
export function ownThreadId(): number {
  try {
    const tid = Number(path.basename(readlinkSync("/proc/thread-self")));
    return Number.isInteger(tid) && tid > 0 ? tid : 0;
  } catch {
    return 0;
  }
}

/**
 * Lowers this thread's scheduling priority (Linux: a thread is a task with its own nice value, named by
 * /proc/thread-self): the digest thread's and its preparing thread's. When both cores are busy the intake's thread runs
 * first, so SDKs get their answers quickly and the digest catches up from the spool in quieter moments. Elsewhere the
 * thread keeps the normal priority.
 */
export function yieldToIntake(tid: number): void {
  if (tid === 0) return;
  try {
    os.setPriority(tid, DIGEST_LIMITS.threadNiceness);
  } catch {
    // Not allowed: the digest runs at normal priority.
  }
}

/** Clock ticks per second of /proc's CPU times: 100 on every Linux that Node runs on (USER_HZ). */
const TICKS_PER_SECOND = 100;

/** Milliseconds of CPU time (user and system) thread `tid` of this process has used, or null when it cannot be read. */
export function threadCpuMs(tid: number): number | null {
  if (tid <= 0) return null;
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

export const newProgressBuffer = (): SharedArrayBuffer => new SharedArrayBuffer(PROGRESS_BYTES);

/** The digest thread's side: marks records and beats. */
export class SharedProgress implements RecordProgress {
  private readonly slots: BigInt64Array;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly now: () => number = Date.now,
  ) {
    this.slots = new BigInt64Array(buffer);
  }

  begin(recordId: number): void {
    // The start first: the supervisor never sees the new record with the previous one's start.
    Atomics.store(this.slots, SINCE, BigInt(this.now()));
    Atomics.store(this.slots, RECORD, BigInt(recordId));
  }

  end(): void {
    Atomics.store(this.slots, RECORD, 0n);
  }

  beat(): void {
    Atomics.store(this.slots, HEARTBEAT, BigInt(this.now()));
  }

  /** Publishes the thread's id, so the supervisor can read its CPU time. */
  identify(tid: number): void {
    Atomics.store(this.slots, THREAD, BigInt(tid));
  }
}

/** The supervisor's side: what the digest thread is on, and whether it has been stuck there. */
export class ProgressView {
  private readonly slots: BigInt64Array;

  constructor(buffer: SharedArrayBuffer) {
    this.slots = new BigInt64Array(buffer);
  }

  /** The spool record whose processing has begun and not ended, if any. */
  current(): number | null {
    const record = Number(Atomics.load(this.slots, RECORD));
    return record === 0 ? null : record;
  }

  /** Milliseconds since the thread's event loop last turned (its heartbeat, or the start of the record in hand). */
  sinceTurn(now: number): number {
    return now - Math.max(Number(Atomics.load(this.slots, SINCE)), Number(Atomics.load(this.slots, HEARTBEAT)));
  }

  /** The thread's Linux thread id, 0 when it has published none. */
  thread(): number {
    return Number(Atomics.load(this.slots, THREAD));
  }

  /**
   * The record in hand when neither the heartbeat nor the record's start is within `budgetMs` of `now`: since it
   * began, the thread's event loop has not turned for longer than the budget.
   */
  blocked(now: number, budgetMs: number): number | null {
    const record = this.current();
    if (record === null) return null;
    return this.sinceTurn(now) > budgetMs ? record : null;
  }
}
