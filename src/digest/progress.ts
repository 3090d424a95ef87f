// What the digest thread is working on, published where the thread that supervises it can read it even while the
// digest's event loop is blocked: three 64-bit slots of a SharedArrayBuffer, written and read with Atomics. The
// digest marks each spool record as its processing begins and ends (items.ts), and a timer of the digest thread
// beats while its event loop turns. When the heartbeat and the record's start are both older than the budget, the
// record has kept the event loop from turning for that long: the supervisor (supervisor.ts) ends the thread and sets
// the record aside. Asynchronous waits (a source map fetched from the network, a query) let the heartbeat beat, so
// only synchronous work counts against the budget; fetches have their own limits (SYMBOLICATION_LIMITS).

/** Hears of each spool record as its processing begins and ends. */
export interface RecordProgress {
  begin(recordId: number): void;
  end(): void;
}

export const NO_PROGRESS: RecordProgress = { begin: () => undefined, end: () => undefined };

const HEARTBEAT = 0;
const RECORD = 1;
const SINCE = 2;

/** The shared state's size: heartbeat (epoch ms), the record in hand (its spool id, 0 for none), when it began. */
export const PROGRESS_BYTES = 3 * BigInt64Array.BYTES_PER_ELEMENT;

export const newProgressBuffer = (): SharedArrayBuffer => new SharedArrayBuffer(PROGRESS_BYTES);

/** The digest thread's side: marks records and beats. */
export class SharedProgress implements RecordProgress {
  private readonly slots: BigInt64Array;

  constructor(buffer: SharedArrayBuffer, private readonly now: () => number = Date.now) {
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

  /**
   * The record in hand when neither the heartbeat nor the record's start is within `budgetMs` of `now`: since it
   * began, the thread's event loop has not turned for longer than the budget.
   */
  blocked(now: number, budgetMs: number): number | null {
    const record = this.current();
    if (record === null) return null;
    const latest = Math.max(Number(Atomics.load(this.slots, SINCE)), Number(Atomics.load(this.slots, HEARTBEAT)));
    return now - latest > budgetMs ? record : null;
  }
}
