// Why a batch failed: because of its data (one record the database refuses: a value out of range, a character it
// cannot store, a constraint), or because of the database or the machine (down, unreachable, locked, out of disk or
// memory). The first kind is worth isolating the record that caused it and setting it aside; the second is retried
// with backoff for as long as it lasts, and never sends a record to the dead-letter table: a database that is down
// says nothing about the records that could not be written meanwhile.
//
// Only what is known to be about the data counts as such; anything unknown is treated as the database's trouble,
// which at worst delays digesting until someone looks, and never sets good records aside.

import { isAppError } from "../core/errors";

/**
 * PostgreSQL SQLSTATE classes about the row being written (Appendix A, "PostgreSQL Error Codes"): 22 data
 * exception (numeric value out of range 22003, character not in repertoire 22021, invalid text representation 22P02,
 * untranslatable character 22P05, …), 23 integrity constraint violation, 54 program limit exceeded (54000, e.g. an
 * index row too large).
 * Classes 08 (connection), 40 (transaction rollback: serialization, deadlock), 53 (insufficient resources: disk full,
 * out of memory, too many connections), 57 (operator intervention: shutdown, cancel), 58 (system error), 42 (a schema
 * not as expected) and the rest are the database's.
 */
const POSTGRES_DATA_CLASSES = new Set(["22", "23", "54"]);

/**
 * SQLite result codes (better-sqlite3's `code`, extended codes included) about the row being written: a constraint, a
 * value too large (SQLITE_TOOBIG), a datatype mismatch, a bind index out of range. SQLITE_BUSY, SQLITE_LOCKED,
 * SQLITE_FULL, SQLITE_IOERR_*, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_NOMEM, SQLITE_CORRUPT and the rest are the
 * database's or the disk's.
 */
const SQLITE_DATA_CODES = ["SQLITE_CONSTRAINT", "SQLITE_TOOBIG", "SQLITE_MISMATCH", "SQLITE_RANGE"];

/**
 * JavaScript errors the digest's own code throws on the data it handles (an invalid date, a value better-sqlite3 cannot
 * bind, a value too deep to serialize): the same record fails the same way every time.
 */
const DATA_ERROR_NAMES = new Set(["TypeError", "RangeError", "SyntaxError", "URIError"]);

/** Whether `err`, thrown while digesting or writing a batch, is about the data rather than the database or machine. */
export function isDataError(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  // The storage's refusal of a value it cannot hold (a NUL on PostgreSQL: storage/nul-guard.ts) is about the record.
  if (isAppError(err)) return err.code === "bad_request";
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") {
    if (code.startsWith("SQLITE_")) return SQLITE_DATA_CODES.some((c) => code === c || code.startsWith(`${c}_`));
    // node-postgres puts the SQLSTATE in `code` (five characters) with a `severity`; system errors (ECONNREFUSED,
    // ECONNRESET, ETIMEDOUT, EPIPE, ENOSPC…) have codes of their own and are the machine's.
    if (/^[0-9A-Z]{5}$/.test(code) && "severity" in err) return POSTGRES_DATA_CLASSES.has(code.slice(0, 2));
    return false;
  }
  return err instanceof Error && DATA_ERROR_NAMES.has(err.name);
}

/** A failure as logs and the dead-letter table show it: the SQLSTATE or result code, then the message. */
export function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" ? `${code}: ${err.message}` : `${err.name}: ${err.message}`;
}
