// A write refused for want of space: SQLite's SQLITE_FULL, PostgreSQL's disk_full (SQLSTATE 53100), or the system's
// ENOSPC (attachment files). It is the server's condition, not the request's fault, and it passes once space is
// freed: each boundary answers it as such (the web API 503 with Retry-After, a form its message inline) instead of as
// a bug, and the log says it once a minute, not with a stack trace for every request that meets it. What the process
// met is kept (storageState): GET /api/health and the diagnostics page show it, without a write to probe the disk.
import { STORAGE_FULL_LIMITS } from "../config/limits";

/** Whether `err`, or an error it was caused by, is a write refused because the disk is full. */
export function isStorageFull(err: unknown): boolean {
  for (let e = err, depth = 0; typeof e === "object" && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === "SQLITE_FULL" || code === "ENOSPC" || (code === "53100" && "severity" in e)) return true;
  }
  return false;
}

/** What a person or a client is told (in English; forms say it in their language: validation.storageFull). */
export const STORAGE_FULL_MESSAGE = "The server's disk is full, so this could not be done. Try again once space has been freed.";

/**
 * What this process knows of the disk: when a write first and last failed for want of space (ms), and what it was; no
 * failure, or a write seen to succeed since: null. On globalThis, as the custom server and Next's bundle each load this
 * module, and the health route and the diagnostics page must see what every boundary met.
 */
type FullState = { since: number; last: number; what: StorageWrite } | null;
const KEY = Symbol.for("faultline.storageFull");
const holder = globalThis as typeof globalThis & { [KEY]?: { state: FullState; lastReported: Map<string, number> } };
const known = (holder[KEY] ??= { state: null, lastReported: new Map() });

/**
 * The writes a full disk is reported for, each with how the log and GET /api/health name it (English). The
 * diagnostics page names them in the reader's language (messages: diagnostics.storage.writes, one per key).
 */
export const STORAGE_WRITES = {
  serverAction: "a server action",
  webApi: "a web API request",
  signOut: "signing out",
  signedOutSessions: "deleting signed-out sessions",
  digestBatch: "the digest writing a batch",
  tokenUse: "recording a token's use",
  orgTokenUse: "recording an organization token's use",
} as const;
export type StorageWrite = keyof typeof STORAGE_WRITES;

/** Logs that `what` failed for want of space, at most once a minute for each `what`, and notes it for storageState(). */
export function reportStorageFull(what: StorageWrite): void {
  const now = Date.now();
  const was = known.state;
  known.state = { since: was && now - was.last <= STORAGE_FULL_LIMITS.shownForMs ? was.since : now, last: now, what };
  if (now - (known.lastReported.get(what) ?? -Infinity) < STORAGE_FULL_LIMITS.reportEveryMs) return;
  known.lastReported.set(what, now);
  console.error(`faultline: ${STORAGE_WRITES[what]} failed: the disk is full (logged at most once a minute)`);
}

/** A write was seen to succeed (a token's use recorded, a signed-out session's row deleted): the disk takes writes again. */
export function noteStorageWritable(): void {
  known.state = null;
}

/**
 * Whether writes fail for want of space, as far as this process has seen: "full" while one failed within
 * STORAGE_FULL_LIMITS.shownForMs and none has been seen to succeed since (times ISO 8601; `what` the last that failed).
 * It costs nothing to ask: no write probes the disk.
 */
export type StorageState = { status: "ok" } | { status: "full"; since: string; lastFailedAt: string; what: StorageWrite };

export function storageState(now = Date.now()): StorageState {
  const s = known.state;
  if (!s || now - s.last > STORAGE_FULL_LIMITS.shownForMs) return { status: "ok" };
  return { status: "full", since: new Date(s.since).toISOString(), lastFailedAt: new Date(s.last).toISOString(), what: s.what };
}

/** The storage fields of GET /api/health: `storage` "ok" or "full", and when full since when and what failed. */
export function storageHealth(now = Date.now()): { storage: "ok" } | { storage: "full"; storageSince: string; storageDetail: string } {
  const s = storageState(now);
  if (s.status === "ok") return { storage: "ok" };
  return {
    storage: "full",
    storageSince: s.since,
    storageDetail: `Writes fail: the disk is full (${STORAGE_WRITES[s.what]} failed at ${s.lastFailedAt}). Reads go on; free space on the disk.`,
  };
}

/**
 * A write that only records (a token's last use): on a full disk the request it belongs to goes on without it, and it
 * is tried again with the next. Returns whether it was written; other failures are thrown as ever.
 */
export async function recordUse(write: Promise<unknown>, what: StorageWrite): Promise<boolean> {
  try {
    await write;
    noteStorageWritable();
    return true;
  } catch (err) {
    if (!isStorageFull(err)) throw err;
    reportStorageFull(what);
    return false;
  }
}
