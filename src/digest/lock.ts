// One digest per spool. The inline worker thread and `faultline worker` both take this lock before reading a spool,
// so two of them never consume it at once. Digesting twice would not duplicate events (they are unique per
// (project, event id), and the position is saved in the batch's own transaction), but raw items and outcome counts
// carry no such key and would be counted twice.
//
// The lock is a kernel lock, not a file holding a pid: SQLite's exclusive lock (POSIX fcntl) on `digest.lock` in the
// spool dir, held by an open connection. The kernel releases it when its process ends, however it ends, so a lock is
// never stale; and it holds between containers and hosts that share the spool, where another process's pid means
// nothing (a pid checked in the wrong namespace, or reused after a restart, would let a second digest in).
// `digest.owner` beside it says who holds it, for the message of whoever is refused.
import { hostname } from "node:os";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";

export type DigestLock = { release: () => void };

/** The spool is being digested by another thread or process. */
export class DigestLockedError extends Error {
  constructor(
    readonly spoolDir: string,
    readonly owner: string,
  ) {
    super(
      `the spool in ${spoolDir} is already being digested by ${owner}; only one digest may consume a spool (stop that one; a server whose spool faultline worker digests needs FAULTLINE_DIGEST=external)`,
    );
    this.name = "DigestLockedError";
  }
}

const lockFile = (spoolDir: string) => path.join(spoolDir, "digest.lock");
const ownerFile = (spoolDir: string) => path.join(spoolDir, "digest.owner");

function describeOwner(spoolDir: string): string {
  try {
    const o = JSON.parse(readFileSync(ownerFile(spoolDir), "utf8")) as { role?: string; pid?: number; host?: string; since?: string };
    return `${o.role ?? "a digest"} (pid ${o.pid} on ${o.host}, since ${o.since})`;
  } catch {
    return "another digest";
  }
}

/**
 * Takes the spool's digest lock for `role` (e.g. "faultline worker"), or throws DigestLockedError at once when it
 * is held, by this process or another. The spool dir must exist.
 */
export function lockDigest(spoolDir: string, role: string): DigestLock {
  const db = new SQLite(lockFile(spoolDir), { timeout: 0 });
  try {
    // Exclusive locking mode keeps the lock after the transaction; with the journal in memory no file is left behind.
    db.pragma("locking_mode = EXCLUSIVE");
    db.pragma("journal_mode = MEMORY");
    db.exec("BEGIN EXCLUSIVE; COMMIT");
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === "SQLITE_BUSY") throw new DigestLockedError(spoolDir, describeOwner(spoolDir));
    throw err;
  }
  writeFileSync(ownerFile(spoolDir), JSON.stringify({ role, pid: process.pid, host: hostname(), since: new Date().toISOString() }));
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      rmSync(ownerFile(spoolDir), { force: true });
      db.close();
    },
  };
}
