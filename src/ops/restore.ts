// `faultline restore FILE [--force]`: puts a backup (backup.ts) back into FAULTLINE_DATA_DIR and the database, with
// Faultline stopped. It refuses a data dir or PostgreSQL database that already holds an install unless --force, which
// replaces Faultline's own files there (the database, the secret key, the spool) and nothing else. The database comes
// back at the backup's migrations; the next `faultline start` migrates it forward.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { extract } from "tar";
import type { Config } from "../config/env";
import { lockDigest } from "../digest/lock";
import { spoolDir } from "../ingest";
import { ATTACHMENT_ENTRY } from "./backup-attachments";
import { openDb } from "../storage/db";
import { migrationStatus, migrationsFor } from "../storage/migrate";
import { BackupError, type BackupManifest, MANIFEST, PG_DUMP_FILE, SECRET_FILE, SQLITE_FILE, readManifest } from "./backup-format";
import { findPgTool, pgConnection, restoreReplacing, runPgTool } from "./pg-tools";

/**
 * Faultline's own entries in a data dir: what --force replaces. The disk usage samples (ops/disk-samples.ts) go too:
 * they describe the data set being replaced, and its growth is not the restored one's.
 */
const OWN_ENTRIES = [SQLITE_FILE, `${SQLITE_FILE}-wal`, `${SQLITE_FILE}-shm`, SECRET_FILE, "spool", "attachments", "disk-usage.json"];
const STAGING_PREFIX = ".faultline-restore-";

/** Only the backup's own names are unpacked: nothing lands outside the staging folder, nothing unexpected inside. */
const allowed = (entry: string): boolean => {
  const p = entry.replace(/^\.\//, "").replace(/\/$/, "");
  return (
    [MANIFEST, SQLITE_FILE, PG_DUMP_FILE, SECRET_FILE, "spool", "spool/identity"].includes(p) || /^spool\/\d{16}\.log$/.test(p) || ATTACHMENT_ENTRY.test(p)
  );
};

/** What already occupies the data dir (a stopped restore's staging folder aside). */
function occupants(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir).filter((name) => !name.startsWith(STAGING_PREFIX) && name !== "lost+found");
}

async function databaseInUse(config: Config): Promise<boolean> {
  if (!config.databaseUrl) return false;
  const db = openDb({ dialect: "postgres", url: config.databaseUrl, maxConnections: 1 });
  try {
    return (await migrationStatus(db)).applied.length > 0;
  } finally {
    await db.close();
  }
}

/** Refuses a restore into a running install: the digest's lock on the spool is held while Faultline runs. */
function ensureStopped(dataDir: string): void {
  if (!existsSync(path.join(spoolDir(dataDir), "identity"))) return;
  lockDigest(spoolDir(dataDir), "faultline restore").release();
}

function checkFits(manifest: BackupManifest, config: Config): void {
  const here = config.databaseUrl ? "postgres" : "sqlite";
  if (manifest.dialect !== here) {
    throw new BackupError(
      manifest.dialect === "postgres"
        ? "this backup holds a PostgreSQL database: set DATABASE_URL to the (empty) database to restore it into"
        : "this backup holds a SQLite database: unset DATABASE_URL to restore it into FAULTLINE_DATA_DIR",
    );
  }
  const known = new Set(Object.keys(migrationsFor(here)));
  const unknown = manifest.migrations.filter((m) => !known.has(m));
  if (unknown.length > 0) throw new BackupError(`this backup was made by a newer Faultline (migrations ${unknown.join(", ")}): restore it with that version`);
}

export async function restore(config: Config, file: string, opts: { force: boolean }): Promise<BackupManifest> {
  const source = path.resolve(file);
  if (!existsSync(source)) throw new BackupError(`no such file: ${source}`);
  const dataDir = config.dataDir;
  const present = occupants(dataDir);
  const dbInUse = await databaseInUse(config);
  if (!opts.force && (present.length > 0 || dbInUse)) {
    const what = [
      present.length > 0 ? `the data dir ${dataDir} is not empty (${present.slice(0, 5).join(", ")}${present.length > 5 ? ", …" : ""})` : null,
      dbInUse ? "the database already holds a Faultline install" : null,
    ]
      .filter(Boolean)
      .join(" and ");
    throw new BackupError(
      `${what}: restore refuses to overwrite it. Stop Faultline and add --force to replace it (Faultline's files in the data dir and, on PostgreSQL, its tables)`,
    );
  }
  ensureStopped(dataDir);
  mkdirSync(dataDir, { recursive: true });
  const staging = mkdtempSync(path.join(dataDir, STAGING_PREFIX));
  try {
    try {
      await extract({ file: source, cwd: staging, filter: (p) => allowed(p), strict: true });
    } catch (err) {
      throw new BackupError(`cannot read ${source} as a Faultline backup: ${(err as Error).message}`);
    }
    const manifest = readManifest(staging);
    checkFits(manifest, config);
    if (opts.force) for (const name of OWN_ENTRIES) rmSync(path.join(dataDir, name), { recursive: true, force: true });
    if (manifest.dialect === "sqlite") {
      renameSync(path.join(staging, SQLITE_FILE), path.join(dataDir, SQLITE_FILE));
    } else {
      const { url, env } = pgConnection(config.databaseUrl!);
      const dump = path.join(staging, PG_DUMP_FILE);
      if (dbInUse) await restoreReplacing(dump, url, env);
      else
        await runPgTool(findPgTool("pg_restore"), ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${url}`, dump], env);
    }
    if (manifest.secretKey && existsSync(path.join(staging, SECRET_FILE))) {
      renameSync(path.join(staging, SECRET_FILE), path.join(dataDir, SECRET_FILE));
      chmodSync(path.join(dataDir, SECRET_FILE), 0o600);
    }
    if (manifest.spool && existsSync(path.join(staging, "spool"))) renameSync(path.join(staging, "spool"), spoolDir(dataDir));
    // Attachment files (issue 19): staged uploads and, on SQLite, the stored ones.
    if (existsSync(path.join(staging, "attachments"))) renameSync(path.join(staging, "attachments"), path.join(dataDir, "attachments"));
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
