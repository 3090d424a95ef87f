// What the data dir holds, by kind: the database (SQLite's file and WAL; on PostgreSQL pg_database_size(), on the
// database's host), the uploaded source files inside it (artifact bundles and upload chunks: counted apart from the
// rest of the database), the spool, an attachments folder when there is one, and everything else; with the free disk.
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { statfs } from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import { DISK_USAGE_LIMITS } from "../config/limits";
import type { Db } from "../storage/db";
import { postgresBytes, sqliteFileBytes } from "./vacuum";

export type DiskKind = "database" | "artifacts" | "spool" | "attachments" | "other";
export type DiskUsage = { dialect: "sqlite" | "postgres"; bytes: Record<DiskKind, number>; freeBytes: number; totalBytes: number };

export class DiskUsageError extends Error {
  override name = "DiskUsageError";
}

/** Bytes of the files under `dir` (not following links), at most `budget.files` files. */
function walk(dir: string, budget: { files: number }, skip: Set<string>): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0; // gone meanwhile, or unreadable: counted as nothing
  }
  for (const name of entries) {
    const full = path.join(dir, name);
    if (skip.has(full) || budget.files-- <= 0) continue;
    try {
      const s = lstatSync(full);
      total += s.isDirectory() ? walk(full, budget, skip) : s.isFile() ? s.size : 0;
    } catch {
      // removed between listing and stat
    }
  }
  return total;
}

async function artifactBytes(db: Db): Promise<number> {
  if (db.dialect === "postgres") {
    const r = await sql<{ bytes: string }>`select (pg_total_relation_size('artifact_files') + pg_total_relation_size('upload_chunks'))::text as bytes`.execute(
      db.kysely,
    );
    return Number(r.rows[0]?.bytes ?? 0);
  }
  const r = await sql<{
    bytes: number;
  }>`select (select coalesce(sum(length(data)), 0) from artifact_files) + (select coalesce(sum(length(data)), 0) from upload_chunks) as bytes`.execute(
    db.kysely,
  );
  return Number(r.rows[0]?.bytes ?? 0);
}

/** Measures the data dir and the database; a missing data dir is a DiskUsageError that says which. */
export async function measureDiskUsage(dataDir: string, db: Db): Promise<DiskUsage> {
  if (!existsSync(dataDir)) throw new DiskUsageError(`the data dir ${dataDir} is missing (FAULTLINE_DATA_DIR)`);
  const fs = await statfs(dataDir);
  const sqliteFile = path.join(dataDir, "faultline.sqlite3");
  const artifacts = await artifactBytes(db);
  const databaseAll = db.dialect === "postgres" ? await postgresBytes(db) : sqliteFileBytes(sqliteFile);
  const spool = path.join(dataDir, "spool"); // ingest/index.ts spoolDir (not imported: this runs in the dashboard too)
  const attachmentsDir = path.join(dataDir, "attachments");
  const budget = { files: DISK_USAGE_LIMITS.maxFilesWalked };
  const spoolBytes = walk(spool, budget, new Set());
  const attachments = existsSync(attachmentsDir) ? walk(attachmentsDir, budget, new Set()) : 0;
  const skip = new Set([spool, attachmentsDir, sqliteFile, `${sqliteFile}-wal`]);
  const other = walk(dataDir, budget, skip);
  return {
    dialect: db.dialect,
    bytes: { database: Math.max(0, databaseAll - artifacts), artifacts, spool: spoolBytes, attachments, other },
    freeBytes: fs.bavail * fs.bsize,
    totalBytes: fs.blocks * fs.bsize,
  };
}
