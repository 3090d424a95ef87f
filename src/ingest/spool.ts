// The spool: where an accepted item becomes durable before the SDK hears 200. An append-only log of records
// (spool-record.ts) in segment files in `spool/` in the data dir, written only by the intake, read by the digest.
// Writes are group-committed: the records of every request that finished reading its body in the same turn of the
// event loop go out in one write, and all of those requests are answered when it has returned (synced first with
// FAULTLINE_SPOOL_SYNC=full). A record's id is its log offset's end: the digest saves in the database how far it got,
// in the same transaction as the data it wrote, and the intake deletes the segments that lie wholly behind it.
import fs from "node:fs";
import { SPOOL_LIMITS } from "../config/limits";
import type { OutcomeIncrement } from "../storage/ports";
import type { SpoolDurability } from "./spool-files";
import { identity, identityFile, listSegments, segmentFile, syncDir } from "./spool-files";
import { type SpoolRecord, decodeRecord, encodeRecord, recordLength } from "./spool-record";

export { listSegments, segmentFile } from "./spool-files";

export type SpoolEntry = Omit<SpoolRecord, "kind">;
/** A record as the digest reads it; `id` is the log offset just past it, the position to save once it is digested. */
export type SpoolRow = SpoolRecord & { id: number };

export type { SpoolDurability } from "./spool-files";

/** The length of the whole records at the start of a segment: a crash can leave a torn record after them. */
function wholeLength(fd: number): number {
  const size = fs.fstatSync(fd).size;
  let at = 0;
  let chunk = Buffer.alloc(0);
  let chunkStart = 0;
  while (at < size) {
    const length = recordLength(chunk, at - chunkStart);
    if (length === null || at - chunkStart + length > chunk.length) {
      // Read from `at` on: a chunk, or the whole record when it is larger.
      const want = Math.min(size - at, Math.max(SPOOL_LIMITS.readChunkBytes, length ?? 0));
      chunk = Buffer.allocUnsafe(want);
      fs.readSync(fd, chunk, 0, want, at);
      chunkStart = at;
    }
    const r = decodeRecord(chunk, at - chunkStart);
    if (typeof r === "string") break;
    at += r.length;
  }
  return at;
}

type Batch = { entries: SpoolEntry[]; bytes: number; done: Promise<void>; resolve: () => void; reject: (err: unknown) => void };

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  done.catch(() => undefined); // rejections reach every waiter through `done`; never unhandled
  return { entries: [], bytes: 0, done, resolve, reject };
}

/** Adds an outcome count to the pending ones, summed with those of the same project, hour, category, outcome and reason. */
function addOutcome(pending: Map<string, OutcomeIncrement>, o: OutcomeIncrement): void {
  const key = `${o.projectId}\u0000${o.hour}\u0000${o.category}\u0000${o.outcome}\u0000${o.reason}`;
  const had = pending.get(key);
  if (had) had.quantity += o.quantity;
  else pending.set(key, { ...o });
}

/** Writes all of `buffers` at `position`, however many calls that takes. */
function writeAll(fd: number, buffers: Uint8Array[], position: number, total: number): void {
  let written = fs.writevSync(fd, buffers, position);
  if (written === total) return;
  const rest = Buffer.concat(buffers, total);
  while (written < total) written += fs.writeSync(fd, rest, written, total - written, position + written);
}

export class SpoolWriter {
  readonly id: string;
  /** Bases of the segments on disk, oldest first; the last is the one written to. */
  private readonly segments: number[];
  private fd: number;
  /** Bytes of whole records in the segment written to. */
  private size: number;
  private batch = newBatch();
  private scheduled = false;
  /**
   * Outcome counts waiting for the next commit, summed per project, hour, category, outcome and reason: while writes
   * fail (a full disk), every refused request still counts, and the counts must not grow with the number of requests.
   */
  private outcomes = new Map<string, OutcomeIncrement>();
  private digestedUpTo = 0;
  /** A write failed: the segment may hold bytes past `size` that the digest has read, so nothing more goes there. */
  private damaged = false;
  /** Hears of each commit: the log's new end, the records written and when the oldest was received (spool-backlog.ts). */
  onCommit: ((end: number, records: number, oldestAt: number) => void) | null = null;

  private constructor(
    private readonly dir: string,
    private readonly durability: SpoolDurability,
    resumeAfter: number,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.id = identity(dir, durability);
    this.segments = listSegments(dir);
    if (this.segments.length === 0) {
      this.segments.push(0);
      this.fd = this.createSegment(0);
      this.size = 0;
    } else {
      this.fd = fs.openSync(segmentFile(dir, this.segments.at(-1)!), "r+");
      this.size = wholeLength(this.fd);
      // A record torn by a crash was never acknowledged: it goes, so that appending continues after whole records.
      if (fs.fstatSync(this.fd).size !== this.size) fs.ftruncateSync(this.fd, this.size);
    }
    // After a power cut (with "normal" durability) the log may end before the position the digest saved; new records
    // must still come after that position, or the digest would skip them.
    if (this.end < resumeAfter && !this.startSegment(resumeAfter)) throw new Error(`the spool cannot start a segment at ${resumeAfter} in ${dir}`);
  }

  /**
   * The spool in `dir`, created if need be. `resumeAfter` is the position the digest saved for it (0 if unknown): the
   * log continues at or after it.
   */
  static open(dir: string, durability: SpoolDurability = "full", resumeAfter = 0): SpoolWriter {
    return new SpoolWriter(dir, durability, resumeAfter);
  }

  /** The log offset just past the last whole record. */
  get end(): number {
    return this.segments.at(-1)! + this.size;
  }

  /** Bytes accepted but not yet known to be in the database. */
  get backlogBytes(): number {
    return this.end - Math.max(this.digestedUpTo, this.segments[0]!);
  }

  /** Segment files on disk. */
  get segmentCount(): number {
    return this.segments.length;
  }

  /** Bytes waiting in memory for the next commit. */
  get pendingBytes(): number {
    return this.batch.bytes;
  }

  /** Resolves once the entries are written (and synced, if "full"); rejects when that failed (nothing was acknowledged). */
  append(entries: SpoolEntry[]): Promise<void> {
    const batch = this.batch;
    for (const e of entries) {
      batch.entries.push(e);
      batch.bytes += e.payload.byteLength;
    }
    this.schedule();
    return batch.done;
  }

  /** Outcome counts ride along with the next commit, so they are as durable as the items. */
  count(increments: OutcomeIncrement[]): void {
    for (const o of increments) addOutcome(this.outcomes, o);
    this.schedule();
  }

  /** The digest has committed everything up to `position`: the segments wholly behind it go. */
  digested(position: number): void {
    if (position <= this.digestedUpTo) return;
    this.digestedUpTo = position;
    while (this.segments.length > 1 && this.segments[1]! <= position) {
      fs.rmSync(segmentFile(this.dir, this.segments.shift()!), { force: true });
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.commit();
    };
    if (SPOOL_LIMITS.maxCommitDelayMs > 0 && this.batch.entries.length < SPOOL_LIMITS.maxItemsPerCommit) setTimeout(run, SPOOL_LIMITS.maxCommitDelayMs);
    else setImmediate(run);
  }

  private commit(): void {
    const batch = this.batch;
    this.batch = newBatch();
    const outcomes = [...this.outcomes.values()];
    this.outcomes.clear();
    if (batch.entries.length === 0 && outcomes.length === 0) return batch.resolve();
    const fail = (err: unknown) => {
      for (const o of outcomes) addOutcome(this.outcomes, o);
      batch.reject(err);
    };
    if (this.damaged && !this.repair()) return fail(new Error("the spool cannot start a new segment"));
    const buffers: Uint8Array[] = [];
    for (const e of batch.entries) buffers.push(...encodeRecord({ kind: "item", ...e }));
    if (outcomes.length > 0) {
      const payload = Buffer.from(JSON.stringify(outcomes));
      buffers.push(
        ...encodeRecord({
          kind: "outcomes",
          projectId: 0,
          keyId: 0,
          receivedAt: Date.now(),
          itemType: "outcomes",
          eventId: null,
          headers: "{}",
          meta: "{}",
          payload,
        }),
      );
    }
    let total = 0;
    for (const b of buffers) total += b.byteLength;
    try {
      writeAll(this.fd, buffers, this.size, total);
      if (this.durability === "full") fs.fdatasyncSync(this.fd);
    } catch (err) {
      // Nothing of this batch is acknowledged, but part of it may be in the file, and the digest may have read it:
      // the log goes on past whatever is there (repair), now or at the next commit if that cannot be done now.
      this.damaged = true;
      this.repair();
      return fail(err);
    }
    this.size += total;
    this.onCommit?.(this.end, buffers.length / 2, batch.entries[0]?.receivedAt ?? Date.now());
    batch.resolve();
    // A full segment is left behind; if the next cannot be created, appending goes on here and the next commit retries.
    if (this.size >= SPOOL_LIMITS.segmentBytes) this.startSegment(this.end);
  }

  /**
   * After a failed write: when it left no bytes behind the whole records, appending simply goes on here; otherwise the
   * log continues in a new segment that starts past them. False while that segment cannot be created (a full disk,
   * say): the next commit tries again, so writing resumes by itself once there is room.
   */
  private repair(): boolean {
    const physical = this.physicalSize();
    if (physical === this.size) {
      this.damaged = false;
      return true;
    }
    return this.startSegment(this.segments.at(-1)! + physical);
  }

  /** The segment's size on disk, torn bytes included; at least the whole records' when it cannot be measured. */
  private physicalSize(): number {
    try {
      return Math.max(this.size, fs.fstatSync(this.fd).size);
    } catch {
      return this.size + SPOOL_LIMITS.segmentBytes;
    }
  }

  /** Continues the log in a new segment at `base`; false (and nothing changed) when it cannot be created. */
  private startSegment(base: number): boolean {
    let fd: number;
    try {
      fd = this.createSegment(base);
    } catch {
      return false;
    }
    fs.closeSync(this.fd);
    this.fd = fd;
    this.size = 0;
    this.damaged = false;
    this.segments.push(base);
    return true;
  }

  private createSegment(base: number): number {
    const file = segmentFile(this.dir, base);
    const fd = fs.openSync(file, "wx+");
    if (this.durability === "full") {
      try {
        syncDir(this.dir);
      } catch (err) {
        // Not durable, so not used: gone again, so that the next attempt can create it under the same name.
        fs.closeSync(fd);
        fs.rmSync(file, { force: true });
        throw err;
      }
    }
    return fd;
  }

  /** Commits what is pending, then closes the file. */
  close(): void {
    this.commit();
    fs.closeSync(this.fd);
  }
}

/** The digest's view of the spool: reads records from a position on, never past the last whole one. */
export class SpoolReader {
  readonly id: string;
  private open: { base: number; fd: number } | null = null;

  private constructor(private readonly dir: string) {
    this.id = fs.readFileSync(identityFile(dir), "utf8").trim();
  }

  /** The spool in `dir`, which its writer must have created. */
  static open(dir: string): SpoolReader {
    return new SpoolReader(dir);
  }

  /** The segment holding `offset` (or the oldest, when the log now starts later), opened; null when there is none. */
  private segmentAt(offset: number): { base: number; fd: number } | null {
    if (this.open && offset >= this.open.base) {
      const next = this.nextBase(this.open.base);
      if (next === null || offset < next) return this.open;
    }
    const bases = listSegments(this.dir);
    let base = bases[0];
    if (base === undefined) return null;
    for (const b of bases) if (b <= offset) base = b;
    this.close();
    try {
      this.open = { base, fd: fs.openSync(segmentFile(this.dir, base), "r") };
    } catch {
      return null; // deleted meanwhile: the log starts later now; the next read looks again
    }
    return this.open;
  }

  private nextBase(base: number): number | null {
    return listSegments(this.dir).find((b) => b > base) ?? null;
  }

  /**
   * Rows after position `after`: at most `limit` of them, and no more once `maxBytes` of payload are in (always at
   * least one). Stops at a record that is not whole yet: the intake may be writing it right now.
   */
  read(after: number, limit: number, maxBytes = Number.POSITIVE_INFINITY): SpoolRow[] {
    const rows: SpoolRow[] = [];
    let bytes = 0;
    let offset = after;
    while (rows.length < limit && bytes < maxBytes) {
      const segment = this.segmentAt(offset);
      if (!segment) break;
      if (offset < segment.base) offset = segment.base;
      const size = fs.fstatSync(segment.fd).size;
      let at = offset - segment.base;
      if (at >= size) {
        const next = this.nextBase(segment.base);
        if (next === null || next <= offset) break;
        offset = next;
        continue;
      }
      let chunk = Buffer.allocUnsafe(Math.min(size - at, SPOOL_LIMITS.readChunkBytes));
      fs.readSync(segment.fd, chunk, 0, chunk.length, at);
      let pos = 0;
      while (pos < chunk.length && rows.length < limit && bytes < maxBytes) {
        const length = recordLength(chunk, pos);
        if (length !== null && length > chunk.length - pos && length > SPOOL_LIMITS.readChunkBytes && at + pos + length <= size) {
          // A record larger than a chunk: read it alone.
          const whole = Buffer.allocUnsafe(length);
          fs.readSync(segment.fd, whole, 0, length, at + pos);
          at += pos;
          pos = 0;
          chunk = whole;
        }
        const r = decodeRecord(chunk, pos);
        if (typeof r === "string") break;
        pos += r.length;
        rows.push({ ...r.record, id: segment.base + at + pos });
        bytes += r.record.payload.byteLength;
      }
      if (pos === 0) {
        // Not a whole record here. In the segment being written, it is still being written: stop for now. Behind a
        // newer segment it never will be (a write failed there, unacknowledged): the log goes on in the next one.
        const next = this.nextBase(segment.base);
        if (next === null || next <= offset) break;
        offset = next;
        continue;
      }
      offset = segment.base + at + pos;
    }
    return rows;
  }

  close(): void {
    if (this.open) fs.closeSync(this.open.fd);
    this.open = null;
  }
}
