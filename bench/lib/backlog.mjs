// The digest's backlog, read from outside a running Faultline (SQLite or PostgreSQL): the spool's records in `spool/` in the data
// dir (src/ingest/spool.ts: segment files named by the log offset they start at; each record framed by its body's
// length, src/ingest/spool-record.ts) against the position the digest saved in `spool_cursors` with each batch.
// Read-only: the server is not touched. On PostgreSQL (`databaseUrl`) the two figures are read in the background every
// POLL_MS and `sample()` gives the latest, so it stays synchronous for its callers; `await backlog.ready` first.
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";

const SEGMENT = /^(\d{16})\.log$/;
const FRAME_BYTES = 8;
const CHUNK = 4 * 1024 * 1024;
const POLL_MS = 100;

export class Backlog {
  constructor(dataDir, databaseUrl = null) {
    this.dir = path.join(dataDir, "spool");
    this.spoolId = readFileSync(path.join(this.dir, "identity"), "utf8").trim();
    if (databaseUrl) {
      this.latest = { position: 0, events: 0 };
      this.client = new pg.Client({ connectionString: databaseUrl });
      const poll = async () => {
        const p = await this.client.query("SELECT position FROM spool_cursors WHERE spool_id = $1", [this.spoolId]);
        const e = await this.client.query("SELECT coalesce(max(id), 0) AS n FROM events");
        this.latest = { position: Number(p.rows[0]?.position ?? 0), events: Number(e.rows[0].n) };
      };
      this.ready = this.client
        .connect()
        .then(poll)
        .then(() => {
          this.timer = setInterval(() => {
            poll().catch(() => {});
          }, POLL_MS);
        });
      this.positionQuery = { get: () => this.latest.position };
      this.eventsQuery = { get: () => this.latest.events };
    } else {
      this.db = new SQLite(path.join(dataDir, "faultline.sqlite3"), { readonly: true, fileMustExist: true });
      this.db.pragma("busy_timeout = 5000");
      this.positionQuery = this.db.prepare("SELECT position FROM spool_cursors WHERE spool_id = ?").pluck();
      this.eventsQuery = this.db.prepare("SELECT coalesce(max(id), 0) FROM events").pluck();
      this.ready = Promise.resolve();
    }
    /** Log offsets just past each record seen so far (a record's id), ascending; `scanned` is where scanning resumes. */
    this.ends = [];
    this.scanned = 0;
    /** The segment being scanned: {base, fd}. */
    this.open = null;
    this.buf = Buffer.allocUnsafe(CHUNK);
  }

  /**
   * Reads the records appended since the last call; returns the log's end (past its last whole record). The segment
   * being scanned stays open: the intake deletes a segment as soon as the digest is past it, and an open file can
   * still be read to its end after that.
   */
  scan() {
    const bases = readdirSync(this.dir)
      .map((n) => SEGMENT.exec(n))
      .filter(Boolean)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    for (;;) {
      if (!this.open) {
        const base = bases.findLast((b) => b <= this.scanned) ?? bases.find((b) => b > this.scanned);
        if (base === undefined) break;
        try {
          this.open = { base, fd: openSync(path.join(this.dir, `${String(base).padStart(16, "0")}.log`), "r") };
        } catch {
          break;
        } // deleted: next time
        if (this.scanned < base) this.scanned = base; // the log went on in a new segment
      }
      this.readOpen();
      // A newer segment means this one is finished (the intake writes to the newest only).
      const next = bases.find((b) => b > this.open.base);
      if (next === undefined) break;
      closeSync(this.open.fd);
      this.open = null;
      this.scanned = Math.max(this.scanned, next);
    }
    return this.scanned;
  }

  /** Counts the whole records of the open segment from `scanned` on. */
  readOpen() {
    const { base, fd } = this.open;
    for (;;) {
      const n = readSync(fd, this.buf, 0, CHUNK, this.scanned - base);
      let at = 0;
      while (at + FRAME_BYTES <= n) {
        const length = FRAME_BYTES + this.buf.readUInt32LE(at);
        if (at + length > n) break;
        at += length;
        this.ends.push(this.scanned + at);
      }
      if (at === 0 && n >= FRAME_BYTES) {
        // A record larger than a chunk: counted once it is all written.
        const length = FRAME_BYTES + this.buf.readUInt32LE(0);
        if (this.scanned - base + length > fstatSync(fd).size) return;
        this.scanned += length;
        this.ends.push(this.scanned);
        continue;
      }
      this.scanned += at;
      if (n < CHUNK) return; // the end of what is written so far
    }
  }

  /** Records the digest has committed: those whose id is at or before `position`. */
  recordsUpTo(position) {
    let lo = 0,
      hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ends[mid] <= position) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** {position, end, bytes, records, digested, events}: the backlog now, and how much the digest has done. */
  sample() {
    const end = this.scan();
    const position = Number(this.positionQuery.get(this.spoolId) ?? 0);
    const digested = this.recordsUpTo(position);
    return {
      at: performance.now(),
      position,
      end,
      bytes: Math.max(0, end - position),
      records: this.ends.length - digested,
      digested,
      events: Number(this.eventsQuery.get()),
    };
  }

  close() {
    if (this.open) closeSync(this.open.fd);
    clearInterval(this.timer);
    this.db?.close();
    this.client?.end().catch(() => {});
  }
}
