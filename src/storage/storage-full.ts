// A write refused for want of space: SQLite's SQLITE_FULL, PostgreSQL's disk_full (SQLSTATE 53100), or the system's
// ENOSPC (attachment files). It is the server's condition, not the request's fault, and it passes once space is
// freed: each boundary answers it as such (the web API 503 with Retry-After, a form its message inline) instead of as
// a bug, and the log says it once a minute, not with a stack trace for every request that meets it.
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

const lastReported = new Map<string, number>();

/** Logs that `what` failed for want of space, at most once a minute for each `what`. */
export function reportStorageFull(what: string): void {
  const now = Date.now();
  if (now - (lastReported.get(what) ?? -Infinity) < STORAGE_FULL_LIMITS.reportEveryMs) return;
  lastReported.set(what, now);
  console.error(`faultline: ${what} failed: the disk is full (logged at most once a minute)`);
}

/**
 * A write that only records (a token's last use): on a full disk the request it belongs to goes on without it, and it
 * is tried again with the next. Returns whether it was written; other failures are thrown as ever.
 */
export async function recordUse(write: Promise<unknown>, what: string): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (err) {
    if (!isStorageFull(err)) throw err;
    reportStorageFull(what);
    return false;
  }
}
