// `faultline backup FILE`: one gzip'd tar of everything an install needs, taken while it runs. Its layout (format 1):
//
//   faultline-backup.json   the manifest: format, when, the dialect, the migrations applied, the spool's identity and
//                           the position the digest had saved, the files below
//   faultline.sqlite3       SQLite: a consistent copy through SQLite's online backup API (better-sqlite3's backup())
//   database.pgdump         PostgreSQL: `pg_dump --format=custom` (one consistent snapshot)
//   secret.key              the data dir's secret key, when the install generated one (not FAULTLINE_SECRET_KEY)
//   spool/identity, spool/<segment>.log   the intake's spool: events accepted but not digested yet
//   attachments/incoming/<uuid>.gz          uploads' files staged for the spool's records (issue 19)
//   attachments/<xx>/<key>                  SQLite: the stored attachments (backup-attachments.ts)
//
// The spool is copied before the database: every record it holds past the position the database then saves is still
// in the copy (segments go only once the digest has passed them), and a segment copied while being written ends at
// worst in a torn record, which the writer cuts off when it opens the restored spool.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { create as createTar } from "tar";
import type { Config } from "../config/env";
import { existingSpoolId, spoolDir } from "../ingest";
import { listSegments, segmentFile } from "../ingest/spool";
import { type Db, dbOptionsFromConfig, openDb } from "../storage/db";
import { createStore } from "../storage/kysely";
import { migrationStatus } from "../storage/migrate";
import { BackupError, type BackupManifest, MANIFEST, PG_DUMP_FILE, SECRET_FILE, SQLITE_FILE } from "./backup-format";
import { findPgTool, pgConnection, runPgTool } from "./pg-tools";
import { copyAttachmentFiles } from "./backup-attachments";

/** Copies the spool's identity and segments into `into/spool`; the names copied. */
function copySpool(dataDir: string, into: string): string[] {
  const dir = spoolDir(dataDir);
  mkdirSync(path.join(into, "spool"));
  copyFileSync(path.join(dir, "identity"), path.join(into, "spool", "identity"));
  const names: string[] = [];
  for (const base of listSegments(dir)) {
    const name = path.basename(segmentFile(dir, base));
    try {
      copyFileSync(segmentFile(dir, base), path.join(into, "spool", name));
      names.push(name);
    } catch (err) {
      // Deleted meanwhile: the digest passed it, so the database copied next holds its records.
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
  return names;
}

async function copyDatabase(config: Config, into: string): Promise<void> {
  if (!config.databaseUrl) {
    const file = path.join(config.dataDir, SQLITE_FILE);
    if (!existsSync(file)) throw new BackupError(`no database in ${config.dataDir}: nothing to back up`);
    const source = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      await source.backup(path.join(into, SQLITE_FILE));
    } finally {
      source.close();
    }
    return;
  }
  const pgDump = findPgTool("pg_dump");
  const { url, env } = pgConnection(config.databaseUrl);
  await runPgTool(pgDump, ["--format=custom", "--no-owner", "--no-privileges", `--file=${path.join(into, PG_DUMP_FILE)}`, `--dbname=${url}`], env);
}

/** The migrations and the spool position as the copied database has them. */
async function copiedState(config: Config, into: string, spoolId: string | null): Promise<{ migrations: string[]; position: number }> {
  // SQLite: read the copy itself; PostgreSQL: the live database right after its dump (the migrations cannot have changed
  // under a running build; the position may have moved on since the dump, so the manifest's is for reading: a restored
  // digest goes on from the one in the restored database).
  const db: Db = config.databaseUrl
    ? openDb({ ...dbOptionsFromConfig(config), maxConnections: 1 } as Parameters<typeof openDb>[0])
    : openDb({ dialect: "sqlite", file: path.join(into, SQLITE_FILE) });
  try {
    const { applied } = await migrationStatus(db);
    const position = spoolId ? await createStore(db).getSpoolPosition(spoolId) : 0;
    return { migrations: applied, position };
  } finally {
    await db.close();
  }
}

/** Writes the backup of the install `config` describes to `file` (replaced only once complete). */
export async function backup(config: Config, file: string): Promise<BackupManifest> {
  const target = path.resolve(file);
  const work = mkdtempSync(path.join(path.dirname(target), ".faultline-backup-"));
  try {
    const spoolId = existingSpoolId(config.dataDir);
    const segments = spoolId ? copySpool(config.dataDir, work) : [];
    const staged = copyAttachmentFiles(config.dataDir, work, "staged");
    await copyDatabase(config, work);
    const stored = config.databaseUrl ? [] : copyAttachmentFiles(config.dataDir, work, "stored");
    const secret = path.join(config.dataDir, SECRET_FILE);
    const secretKey = !process.env.FAULTLINE_SECRET_KEY && existsSync(secret);
    if (secretKey) copyFileSync(secret, path.join(work, SECRET_FILE));
    const state = await copiedState(config, work, spoolId);
    // The copy's own journal files are not part of the layout (SQLite's backup leaves none once closed).
    for (const extra of ["-wal", "-shm"]) rmSync(path.join(work, SQLITE_FILE + extra), { force: true });
    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      dialect: config.databaseUrl ? "postgres" : "sqlite",
      migrations: state.migrations,
      spool: spoolId ? { id: spoolId, position: state.position, segments } : null,
      secretKey,
    };
    writeFileSync(path.join(work, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    const entries = [
      MANIFEST,
      manifest.dialect === "sqlite" ? SQLITE_FILE : PG_DUMP_FILE,
      ...(secretKey ? [SECRET_FILE] : []),
      ...(spoolId ? ["spool/identity", ...segments.map((s) => `spool/${s}`)] : []),
      ...staged,
      ...stored,
    ];
    const partial = path.join(work, "backup.tar.gz");
    await createTar({ gzip: true, file: partial, cwd: work, portable: true }, entries);
    renameSync(partial, target);
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
