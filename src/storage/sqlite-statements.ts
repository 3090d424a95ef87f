// Kysely's SQLite driver prepares every query afresh. The digest and the API run the same few statements over and
// over, so the connection keeps its prepared statements by SQL text (SQLite re-prepares a kept statement by itself
// after a schema change). A kept statement still being iterated is never handed out twice.
//
// What a prepared statement holds grows with its text (about 46 bytes per character: a 200-row insert of 13 columns,
// 2,800 characters, is 130 KB), and the digest's multi-row inserts differ by row count: 544 distinct texts of 667,000
// characters in one drain of bench:ingest's mix, most prepared once. So the kept statements are bounded by their
// characters as well as their number, and the least recently used go first: the statements of every batch (and the
// full chunks of its inserts) stay, the odd sizes pass through.
import type { Database as SQLiteDatabase, Statement } from "better-sqlite3";
import type { SqliteDatabase } from "kysely";
import { STORAGE_LIMITS } from "../config/limits";

export function withStatementCache(db: SQLiteDatabase): SqliteDatabase {
  /** Least recently used first (a Map keeps insertion order; a hit moves its statement to the end). */
  const kept = new Map<string, Statement>();
  let chars = 0;
  return {
    prepare(sql: string) {
      const found = kept.get(sql);
      if (found && !found.busy) {
        kept.delete(sql);
        kept.set(sql, found);
        return found;
      }
      const stmt = db.prepare(sql);
      if (!found && sql.length <= STORAGE_LIMITS.preparedStatementChars) {
        kept.set(sql, stmt);
        chars += sql.length;
        for (const [text] of kept) {
          if (kept.size <= STORAGE_LIMITS.preparedStatements && chars <= STORAGE_LIMITS.preparedStatementChars) break;
          kept.delete(text);
          chars -= text.length;
        }
      }
      return stmt;
    },
    close: () => {
      kept.clear();
      db.close();
    },
  };
}
