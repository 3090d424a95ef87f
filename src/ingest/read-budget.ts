// What all requests the intake is reading may hold together: their bodies' bytes as read from the sockets (beyond
// INGEST_LIMITS.maxBufferedBodyBytes a request is refused with 503 until others finish), and the decompressions that
// run past the synchronous size, one or a few at a time (the others wait their turn). Each bound is per request in
// content-encoding.ts; these make the sum bounded too, so a burst of large or bomb-like bodies cannot take the
// server's memory, however many arrive at once. And since a body held is budget taken, how slowly each may arrive
// (INGEST_LIMITS.bodyDeadline): a client trickling bytes is answered 408 instead of keeping its share for minutes.
import { INGEST_LIMITS } from "../config/limits";
import type { ReadOptions } from "../protocol/content-encoding";

/** One request's share: the options readBody takes, and `release` once the request is answered. */
export type ReadLease = { options: Required<ReadOptions>; release: () => void };

export class ReadBudget {
  private held = 0;
  private inflating = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly maxBytes: number = INGEST_LIMITS.maxBufferedBodyBytes,
    private readonly maxInflates: number = INGEST_LIMITS.maxConcurrentInflates,
  ) {}

  /** Bytes held by every request being read right now. */
  get heldBytes(): number {
    return this.held;
  }

  lease(): ReadLease {
    let mine = 0;
    const hold = (bytes: number): boolean => {
      if (this.held + bytes > this.maxBytes) return false;
      this.held += bytes;
      mine += bytes;
      return true;
    };
    const release = () => {
      this.held -= mine;
      mine = 0;
    };
    return { options: { hold, gate: (run) => this.gate(run), deadline: INGEST_LIMITS.bodyDeadline }, release };
  }

  private async gate<T>(run: () => Promise<T>): Promise<T> {
    if (this.inflating >= this.maxInflates) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inflating++;
    try {
      return await run();
    } finally {
      // The turn passes straight to the next in line, or the slot frees.
      const next = this.waiting.shift();
      if (next) next();
      else this.inflating--;
    }
  }
}
