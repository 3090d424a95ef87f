// Returning the space deleted rows leave behind. SQLite keeps freed pages inside its file: with auto_vacuum=INCREMENTAL
// (set by storage/db.ts on every database it creates) `PRAGMA incremental_vacuum` hands them back in small steps, each
// holding the write lock for milliseconds; a database made before that setting needs one full VACUUM to take it, which
// copies the whole database and locks it meanwhile: `faultline vacuum` does that, after checking the free disk it needs.
// PostgreSQL's VACUUM (ANALYZE) makes dead rows' space reusable and refreshes the planner's statistics without
// blocking writes; only VACUUM FULL returns space to the operating system, and it locks each table: never run here.
import { existsSync, statSync } from "node:fs";
import { statfs } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { VACUUM_LIMITS } from "../config/limits";
import type { Db } from "../storage/db";

export class VacuumError extends Error {
  override name = "VacuumError";
}

export type SqliteSpace = { autoVacuum: "none" | "full" | "incremental"; pageSize: number; pages: number; freePages: number };

const AUTO_VACUUM = ["none", "full", "incremental"] as const;

async function pragma(db: Db, name: string): Promise<number> {
  const r = await sql<Record<string, number>>`${sql.raw(`pragma ${name}`)}`.execute(db.kysely);
  return Number(Object.values(r.rows[0] ?? {})[0] ?? 0);
}

/** How the SQLite database stores its pages, and how many of them are free. */
export async function sqliteSpace(db: Db): Promise<SqliteSpace> {
  return {
    autoVacuum: AUTO_VACUUM[await pragma(db, "auto_vacuum")] ?? "none",
    pageSize: await pragma(db, "page_size"),
    pages: await pragma(db, "page_count"),
    freePages: await pragma(db, "freelist_count"),
  };
}

/** One incremental step: frees up to `pages` pages at the end of the file; the free pages left. */
export async function incrementalStep(db: Db, pages: number = VACUUM_LIMITS.stepPages): Promise<number> {
  await sql`${sql.raw(`pragma incremental_vacuum(${Math.max(1, Math.floor(pages))})`)}`.execute(db.kysely);
  return pragma(db, "freelist_count");
}

/** Writes the WAL back into the database file and empties it, so the file's size is the database's. */
export async function checkpoint(db: Db, mode: "PASSIVE" | "TRUNCATE" = "TRUNCATE"): Promise<void> {
  await sql`${sql.raw(`pragma wal_checkpoint(${mode})`)}`.execute(db.kysely);
}

/** The database file's bytes on disk with its WAL; 0 for a file not there. */
export function sqliteFileBytes(file: string): number {
  let total = 0;
  for (const f of [file, `${file}-wal`]) if (existsSync(f)) total += statSync(f).size;
  return total;
}

/** The directory SQLite writes its temporary copy to on Unix (os_unix.c: SQLITE_TMPDIR, TMPDIR, then fixed ones). */
function sqliteTempDir(): string {
  const candidates = [process.env.SQLITE_TMPDIR, process.env.TMPDIR, "/var/tmp", "/usr/tmp", "/tmp"];
  return candidates.find((d): d is string => Boolean(d) && existsSync(d!)) ?? tmpdir();
}

async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

/** Refuses a full VACUUM when the data dir's or the temporary directory's file system lacks the room it needs. */
export async function checkRoomForFullVacuum(file: string, bytes: number): Promise<void> {
  const need = Math.ceil(bytes * VACUUM_LIMITS.fullVacuumFreeRatio);
  const dataDir = path.dirname(file);
  const temp = sqliteTempDir();
  const sameDevice = statSync(dataDir).dev === statSync(temp).dev;
  const mib = (n: number) => `${Math.ceil(n / 1048576)} MiB`;
  const free = await freeBytes(dataDir);
  if (sameDevice ? free < 2 * need : free < need) {
    throw new VacuumError(
      `not enough free disk for VACUUM: it needs about ${mib(sameDevice ? 2 * need : need)} free in ${dataDir} (the database is ${mib(bytes)}${sameDevice ? `, copied once in ${temp} and once through the WAL` : ", passing through the WAL"}), and ${mib(free)} are free; free space there first, or set SQLITE_TMPDIR to a directory on a larger disk`,
    );
  }
  if (!sameDevice) {
    const freeTemp = await freeBytes(temp);
    if (freeTemp < need)
      throw new VacuumError(
        `not enough free disk for VACUUM in ${temp}, where SQLite builds the copy: it needs about ${mib(need)} and ${mib(freeTemp)} are free; set SQLITE_TMPDIR to a directory with room`,
      );
  }
}

export type SqliteVacuum = { mode: "incremental" | "full"; before: number; after: number; converted: boolean };

/**
 * Returns the SQLite database's free pages to the file system: in incremental steps when it uses
 * auto_vacuum=INCREMENTAL, otherwise by one full VACUUM that also switches it to INCREMENTAL (after checking the disk).
 */
export async function vacuumSqlite(db: Db, file: string): Promise<SqliteVacuum> {
  await checkpoint(db);
  const before = sqliteFileBytes(file);
  const space = await sqliteSpace(db);
  if (space.autoVacuum === "incremental") {
    // Until no page is free, or a step frees none (nothing more it can move): never a loop without progress.
    for (let free = space.freePages, before = Infinity; free > 0 && free < before; ) {
      before = free;
      free = await incrementalStep(db, VACUUM_LIMITS.stepPages * 16);
    }
    await checkpoint(db);
    return { mode: "incremental", before, after: sqliteFileBytes(file), converted: false };
  }
  await checkRoomForFullVacuum(file, before);
  await sql`pragma auto_vacuum = incremental`.execute(db.kysely);
  await sql`vacuum`.execute(db.kysely);
  await checkpoint(db);
  return { mode: "full", before, after: sqliteFileBytes(file), converted: (await sqliteSpace(db)).autoVacuum === "incremental" };
}

/**
 * PostgreSQL's largest tables by their size with indexes and TOAST, largest first. A partitioned table (events and
 * the other day-partitioned tables, migration 0029) counts as one, with all its partitions: VACUUM (ANALYZE) of it
 * goes through every partition (those that did not change are skipped by the visibility map) and gathers the
 * statistics of the table as a whole, which autovacuum never does for a partitioned table.
 */
export async function largestTables(db: Db, limit: number = VACUUM_LIMITS.postgresTables): Promise<string[]> {
  const r = await sql<{ name: string }>`
    select coalesce(parent.relname, c.relname) as name
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
    left join pg_inherits i on i.inhrelid = c.oid
    left join pg_class parent on parent.oid = i.inhparent
    where c.relkind in ('r', 'm')
    group by 1
    order by sum(pg_total_relation_size(c.oid)) desc, 1
    limit ${limit}`.execute(db.kysely);
  return r.rows.map((row) => row.name);
}

/** VACUUM (ANALYZE) on PostgreSQL's largest tables, one at a time; their names. */
export async function vacuumPostgres(db: Db): Promise<string[]> {
  const tables = await largestTables(db);
  for (const t of tables) await sql`vacuum (analyze) ${sql.id(t)}`.execute(db.kysely);
  return tables;
}

/** The database's size in bytes as PostgreSQL counts it. */
export async function postgresBytes(db: Db): Promise<number> {
  const r = await sql<{ bytes: string }>`select pg_database_size(current_database())::text as bytes`.execute(db.kysely);
  return Number(r.rows[0]?.bytes ?? 0);
}
