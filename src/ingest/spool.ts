// The spool: where an accepted item becomes durable before the SDK hears 200. One SQLite file per node
// (`spool.sqlite3` in the data dir), written only by the intake, read by the digest. Writes are group-committed:
// every request that finishes reading its body in the same turn of the event loop shares one transaction, and all of
// them are answered when it commits. The digest records how far it got in the database, in the same transaction as
// the data it wrote, and the intake deletes what lies behind that position.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { SPOOL_LIMITS } from "../config/limits";
import type { OutcomeIncrement } from "../storage/ports";

export type SpoolEntry = {
  projectId: number;
  keyId: number;
  /** Epoch milliseconds. */
  receivedAt: number;
  itemType: string;
  eventId: string | null;
  /** The item's headers, as JSON. */
  headers: string;
  /** What the digest needs from the envelope and the request (sent_at, sdk, client address, user agent), as JSON. */
  meta: string;
  payload: Uint8Array;
};

export type SpoolRow = SpoolEntry & { id: number; kind: "item" | "outcomes" };

/**
 * "full" syncs the write-ahead log on every commit: acknowledged items survive a power cut, not only a killed
 * process. "normal" survives a killed process (kill -9) but may lose the last commits in a power cut.
 */
export type SpoolDurability = "full" | "normal";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS spool (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  project_id INTEGER NOT NULL,
  key_id INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  item_type TEXT NOT NULL,
  event_id TEXT,
  headers TEXT NOT NULL,
  meta TEXT NOT NULL,
  payload BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS spool_identity (id TEXT NOT NULL);
`;

function openWriter(file: string, durability: SpoolDurability): SQLite.Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new SQLite(file);
  db.pragma("busy_timeout = 5000");
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${durability === "full" ? "FULL" : "NORMAL"}`);
  // Checkpoints (copying the log into the file, with an fsync) are the reader's work: on the intake's thread they held
  // up every request waiting for a commit, for up to tens of milliseconds.
  db.pragma("wal_autocheckpoint = 0");
  db.exec(SCHEMA);
  return db;
}

/** The spool's identity, created with the file: the digest's position is saved per spool. */
function identity(db: SQLite.Database): string {
  const row = db.prepare("SELECT id FROM spool_identity").get() as { id: string } | undefined;
  if (row) return row.id;
  const id = randomUUID();
  db.prepare("INSERT INTO spool_identity (id) VALUES (?)").run(id);
  return id;
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

export class SpoolWriter {
  readonly id: string;
  private readonly insert: SQLite.Statement;
  private readonly truncate: SQLite.Statement;
  private batch = newBatch();
  private scheduled = false;
  private outcomes: OutcomeIncrement[] = [];
  /** Bytes appended since open, and the running total at the end of each commit still ahead of the digest. */
  private appendedBytes = 0;
  private digestedBytes = 0;
  private commitMarks: { lastId: number; total: number }[] = [];
  private digestedUpTo = 0;
  private truncatedUpTo = 0;

  private constructor(private readonly db: SQLite.Database) {
    this.id = identity(db);
    this.insert = db.prepare(
      "INSERT INTO spool (kind, project_id, key_id, received_at, item_type, event_id, headers, meta, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.truncate = db.prepare("DELETE FROM spool WHERE id <= ?");
    const existing = db.prepare("SELECT coalesce(max(id), 0) AS lastId, coalesce(sum(length(payload)), 0) AS bytes FROM spool").get() as { lastId: number; bytes: number };
    this.appendedBytes = existing.bytes;
    if (existing.bytes > 0) this.commitMarks.push({ lastId: existing.lastId, total: existing.bytes });
  }

  static open(file: string, durability: SpoolDurability = "full"): SpoolWriter {
    return new SpoolWriter(openWriter(file, durability));
  }

  /** Bytes accepted but not yet known to be in the database. */
  get backlogBytes(): number {
    return this.appendedBytes - this.digestedBytes;
  }

  /** Bytes waiting in memory for the next commit. */
  get pendingBytes(): number {
    return this.batch.bytes;
  }

  /** Resolves once the entries are committed to disk; rejects when the commit failed (nothing was acknowledged). */
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
    this.outcomes.push(...increments);
    this.schedule();
  }

  /** The digest has committed everything up to `position`: that part of the spool may go. */
  digested(position: number): void {
    if (position <= this.digestedUpTo) return;
    this.digestedUpTo = position;
    while (this.commitMarks[0] && this.commitMarks[0].lastId <= position) this.digestedBytes = this.commitMarks.shift()!.total;
    this.schedule();
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
    const outcomes = this.outcomes;
    this.outcomes = [];
    const truncateTo = this.digestedUpTo > this.truncatedUpTo ? this.digestedUpTo : 0;
    if (batch.entries.length === 0 && outcomes.length === 0 && truncateTo === 0) return batch.resolve();
    let lastId = 0;
    try {
      this.db.transaction(() => {
        for (const e of batch.entries) {
          lastId = Number(this.insert.run("item", e.projectId, e.keyId, e.receivedAt, e.itemType, e.eventId, e.headers, e.meta, e.payload).lastInsertRowid);
        }
        if (outcomes.length > 0) {
          lastId = Number(this.insert.run("outcomes", 0, 0, Date.now(), "outcomes", null, "{}", "{}", Buffer.from(JSON.stringify(outcomes))).lastInsertRowid);
        }
        if (truncateTo > 0) this.truncate.run(truncateTo);
      })();
    } catch (err) {
      this.outcomes = outcomes.concat(this.outcomes);
      return batch.reject(err);
    }
    if (truncateTo > 0) this.truncatedUpTo = truncateTo;
    if (batch.bytes > 0) {
      this.appendedBytes += batch.bytes;
      this.commitMarks.push({ lastId, total: this.appendedBytes });
    }
    batch.resolve();
  }

  /** Commits what is pending, then closes the file. */
  close(): void {
    this.commit();
    this.db.close();
  }
}

/**
 * The digest's view of the spool. It only reads rows (WAL readers never block the intake's writes) and checkpoints
 * the write-ahead log, which the writer leaves to it; the file must have been opened for writing first.
 */
export class SpoolReader {
  readonly id: string;
  private readonly select: SQLite.Statement;

  private constructor(private readonly db: SQLite.Database) {
    db.pragma("busy_timeout = 5000");
    const row = db.prepare("SELECT id FROM spool_identity").get() as { id: string } | undefined;
    if (!row) throw new Error("the spool has no identity yet; open it for writing first");
    this.id = row.id;
    this.select = db.prepare(
      "SELECT id, kind, project_id AS projectId, key_id AS keyId, received_at AS receivedAt, item_type AS itemType, event_id AS eventId, headers, meta, payload FROM spool WHERE id > ? ORDER BY id LIMIT ?",
    );
  }

  static open(file: string): SpoolReader {
    return new SpoolReader(new SQLite(file, { fileMustExist: true }));
  }

  /** Rows after `after`: at most `limit` of them, and no more once `maxBytes` of payload are in (always at least one). */
  read(after: number, limit: number, maxBytes = Number.POSITIVE_INFINITY): SpoolRow[] {
    const rows: SpoolRow[] = [];
    let bytes = 0;
    for (const row of this.select.iterate(after, limit) as IterableIterator<SpoolRow>) {
      rows.push(row);
      bytes += row.payload.byteLength;
      if (bytes >= maxBytes) break; // ends the statement, as a return from the loop does
    }
    return rows;
  }

  /**
   * Copies what the log holds into the file without waiting for anyone (PASSIVE), so the writer can start the log
   * over and it stays small. Run between batches, when this connection holds no snapshot.
   */
  checkpoint(): { logFrames: number; checkpointedFrames: number } {
    const [row] = this.db.pragma("wal_checkpoint(PASSIVE)") as { busy: number; log: number; checkpointed: number }[];
    return { logFrames: row?.log ?? 0, checkpointedFrames: row?.checkpointed ?? 0 };
  }

  close(): void {
    this.db.close();
  }
}
