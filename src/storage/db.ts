// Opens the database Faultline runs on: SQLite (better-sqlite3, WAL) by default, PostgreSQL when a URL says so.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type Driver } from "kysely";
import type pg from "pg";
import type { Database } from "./schema";
import { STORAGE_LIMITS } from "../config/limits";
import { withStatementCache } from "./sqlite-statements";
import { refusingNul } from "./nul-guard";

export type Dialect = "sqlite" | "postgres";

export type Db = {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close: () => Promise<void>;
  /** PostgreSQL: the pool's connections (total, idle) and the queries waiting for one; SQLite has one connection. */
  pool?: () => { total: number; idle: number; waiting: number };
  /**
   * SQLite: the folder of attachment files (issue 19), `attachments/` beside the database file (a private temporary
   * folder for an in-memory database). PostgreSQL keeps attachments in the database (attachment_chunks): null.
   */
  attachmentsDir: string | null;
  /** Whether attachment files are synced as they are written (as the spool with FAULTLINE_SPOOL_SYNC=full). */
  syncAttachments?: boolean;
};

/** syncAttachments: attachment files are synced to disk as written (FAULTLINE_SPOOL_SYNC=full), else left to the kernel. */
export type OpenDbOptions =
  | {
      dialect: "sqlite";
      file: string;
      syncAttachments?: boolean;
      /** KiB of SQLite's page cache for this connection; better-sqlite3's build default (16 MiB) when not given. */
      cacheKiB?: number;
    }
  | { dialect: "postgres"; url: string; maxConnections?: number };

/** Chooses the store from the configuration: DATABASE_URL wins, otherwise SQLite in the data dir. */
export function dbOptionsFromConfig(cfg: { databaseUrl: string | undefined; dataDir: string; spoolSync?: "full" | "normal" }): OpenDbOptions {
  return cfg.databaseUrl
    ? { dialect: "postgres", url: cfg.databaseUrl }
    : { dialect: "sqlite", file: path.join(cfg.dataDir, "faultline.sqlite3"), syncAttachments: cfg.spoolSync === "full" };
}

/**
 * SQLite transactions begin IMMEDIATE: every transaction Faultline runs writes, and most read first. A deferred one
 * that read while another process (the digest) was writing cannot become a writer afterwards: SQLite answers
 * "database is locked" at once, without waiting (its snapshot is stale). Taking the write lock at BEGIN waits for it
 * (busy_timeout) and then reads what is current.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    // SQLite ends a transaction itself on some failures (a full disk, an I/O error, out of memory): ROLLBACK then fails
    // with "cannot rollback - no transaction is active", and that error took the place of the one that caused it.
    driver.rollbackTransaction = async (connection) => {
      try {
        await connection.executeQuery(CompiledQuery.raw("rollback"));
      } catch (err) {
        if (!/no transaction is active/.test((err as Error).message)) throw err;
      }
    };
    return driver;
  }
}

/** PostgreSQL cannot store NUL: a statement with one in its parameters is refused before it is sent (nul-guard.ts). */
class NulRefusingPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    return refusingNul(super.createDriver());
  }
}

/** PRAGMA auto_vacuum's value for INCREMENTAL. */
const AUTO_VACUUM_INCREMENTAL = 2;

export function openDb(options: OpenDbOptions): Db {
  if (options.dialect === "sqlite") {
    if (options.file !== ":memory:") mkdirSync(path.dirname(options.file), { recursive: true });
    const sqlite = new SQLite(options.file);
    // A new database keeps freed pages apart so the server can return them to the file system in small steps (ops/
    // vacuum.ts); on a database that has tables already this only takes effect with the next full VACUUM. Set only
    // when not set already: it writes, and a server on a full disk could not even start to say so.
    if (sqlite.pragma("auto_vacuum", { simple: true }) !== AUTO_VACUUM_INCREMENTAL) sqlite.pragma("auto_vacuum = INCREMENTAL");
    // WAL lets readers proceed while one writer commits; NORMAL is durable across process crashes in WAL mode.
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    // The process that runs the digest checkpoints from a thread of its own (wal-checkpointer.ts); this is the backstop.
    sqlite.pragma(`wal_autocheckpoint = ${STORAGE_LIMITS.walAutocheckpointPages}`);
    sqlite.pragma("foreign_keys = ON");
    // Several processes (web, worker, CLI) may write: wait for the lock instead of failing at once.
    sqlite.pragma("busy_timeout = 5000");
    if (options.cacheKiB !== undefined) sqlite.pragma(`cache_size = ${-Math.max(64, Math.floor(options.cacheKiB))}`);
    const kysely = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
    const attachmentsDir =
      options.file === ":memory:" ? path.join(os.tmpdir(), `faultline-attachments-${randomUUID()}`) : path.join(path.dirname(options.file), "attachments");
    return { kysely, dialect: "sqlite", close: () => kysely.destroy(), attachmentsDir, syncAttachments: options.syncAttachments === true };
  }
  // The driver is loaded with the first query, so that a server on SQLite never loads it (bench:start).
  let pool: pg.Pool | null = null;
  const makePool = async (): Promise<pg.Pool> => {
    const { default: driver } = await import("pg");
    pool = new driver.Pool({ connectionString: options.url, max: options.maxConnections ?? 10 });
    // An idle connection that drops (the server restarted, the network went away) is an error event of the pool: the
    // pool discards the client and the next query connects again. Unheard, the event would end the process.
    pool.on("error", () => undefined);
    return pool;
  };
  const kysely = new Kysely<Database>({ dialect: new NulRefusingPostgresDialect({ pool: makePool }) });
  const figures = () => (pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : { total: 0, idle: 0, waiting: 0 });
  return { kysely, dialect: "postgres", close: () => kysely.destroy(), pool: figures, attachmentsDir: null };
}
