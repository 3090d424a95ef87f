// Kysely's SQLite driver prepares every query afresh. The digest and the API run the same few statements over and
// over, so the connection keeps its prepared statements by SQL text (bounded; SQLite re-prepares a kept statement by
// itself after a schema change). A kept statement still being iterated is never handed out twice.
import type { Database as SQLiteDatabase, Statement } from "better-sqlite3";
import type { SqliteDatabase } from "kysely";
import { STORAGE_LIMITS } from "../config/limits";

export function withStatementCache(db: SQLiteDatabase): SqliteDatabase {
  const kept = new Map<string, Statement>();
  return {
    prepare(sql: string) {
      const found = kept.get(sql);
      if (found && !found.busy) return found;
      const stmt = db.prepare(sql);
      if (!found) {
        if (kept.size >= STORAGE_LIMITS.preparedStatements) kept.clear();
        kept.set(sql, stmt);
      }
      return stmt;
    },
    close: () => {
      kept.clear();
      db.close();
    },
  };
}
