// The spool's backlog in records and seconds, for the metrics (observability/metrics.ts): the writer knows the bytes
// behind the digest's position, not how many records they hold or how old they are. Each commit is noted (its end,
// its records, when its oldest was received); the digest's position drops what lies behind it. A backlog left from
// before this process started is counted once, frame headers only, in chunks of METRICS_LIMITS.backlogScanChunk
// records (a chunk leaves the count once the digest has passed all of it).
import fs from "node:fs";
import { METRICS_LIMITS } from "../config/limits";
import type { BacklogFigures } from "../observability/metrics";
import { type SpoolWriter, listSegments, segmentFile } from "./spool";
import { FRAME_BYTES } from "./spool-record";

type Span = { end: number; records: number; oldestAt: number };

/** Offset of `received at` in a record: the frame, the kind byte, the project and key ids. */
const RECEIVED_AT = FRAME_BYTES + 1 + 16;

/** The records between `from` and `to` in the spool's segments, in chunks; reads only each record's first bytes. */
function scan(dir: string, from: number, to: number): Span[] {
  const spans: Span[] = [];
  const head = Buffer.alloc(RECEIVED_AT + 8);
  let current: Span | null = null;
  const bases = listSegments(dir);
  for (let i = 0; i < bases.length; i++) {
    const base = bases[i]!;
    const next = bases[i + 1] ?? Number.POSITIVE_INFINITY;
    if (next <= from || base >= to) continue;
    let fd: number;
    try {
      fd = fs.openSync(segmentFile(dir, base), "r");
    } catch {
      continue;
    }
    try {
      const size = fs.fstatSync(fd).size;
      let at = Math.max(0, from - base);
      while (at + head.length <= size && base + at < to) {
        fs.readSync(fd, head, 0, head.length, at);
        const length = FRAME_BYTES + head.readUInt32LE(0);
        if (at + length > size) break;
        at += length;
        if (!current || current.records >= METRICS_LIMITS.backlogScanChunk) {
          current = { end: 0, records: 0, oldestAt: head.readDoubleLE(RECEIVED_AT) };
          spans.push(current);
        }
        current.records++;
        current.end = base + at;
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  return spans;
}

/** Records between two log positions of the spool in `dir`, and when the oldest was received (null: none). */
export function countRecords(dir: string, from: number, to: number): { records: number; oldestAt: number | null } {
  const spans = scan(dir, from, to);
  return { records: spans.reduce((n, s) => n + s.records, 0), oldestAt: spans[0]?.oldestAt ?? null };
}

export class SpoolBacklog {
  private readonly spans: Span[];
  private digestedUpTo: number;

  /** `digestedUpTo`: the position the digest saved when the writer opened. */
  constructor(
    private readonly spool: SpoolWriter,
    dir: string,
    digestedUpTo: number,
  ) {
    this.digestedUpTo = digestedUpTo;
    this.spans = spool.end > digestedUpTo ? scan(dir, digestedUpTo, spool.end) : [];
    spool.onCommit = (end, records, oldestAt) => this.spans.push({ end, records, oldestAt });
  }

  /** The digest committed everything up to `position`. */
  digested(position: number): void {
    if (position <= this.digestedUpTo) return;
    this.digestedUpTo = position;
    while (this.spans.length > 0 && this.spans[0]!.end <= position) this.spans.shift();
  }

  figures(now = Date.now()): BacklogFigures {
    let records = 0;
    for (const s of this.spans) records += s.records;
    const oldest = this.spans[0]?.oldestAt;
    return {
      records,
      bytes: this.spool.backlogBytes,
      seconds: oldest === undefined ? 0 : Math.max(0, now - oldest) / 1000,
      segments: this.spool.segmentCount,
    };
  }
}
