// The layout of a backup file (`faultline backup`, `faultline restore`; see backup.ts): a gzip'd tar whose manifest,
// faultline-backup.json, says what it holds.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export const MANIFEST = "faultline-backup.json";
export const SQLITE_FILE = "faultline.sqlite3";
export const PG_DUMP_FILE = "database.pgdump";
export const SECRET_FILE = "secret.key";

export type BackupManifest = {
  format: 1;
  createdAt: string;
  dialect: "sqlite" | "postgres";
  migrations: string[];
  /** The spool's identity and the position the digest had saved for it in the database copied; null: no spool yet. */
  spool: { id: string; position: number; segments: string[] } | null;
  /** Whether the data dir's generated secret key is in the backup (false with FAULTLINE_SECRET_KEY set). */
  secretKey: boolean;
};

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/** The manifest of an unpacked backup, checked. */
export function readManifest(dir: string): BackupManifest {
  let m: BackupManifest;
  try {
    m = JSON.parse(readFileSync(path.join(dir, MANIFEST), "utf8")) as BackupManifest;
  } catch {
    throw new BackupError(`not a Faultline backup: no ${MANIFEST} in it`);
  }
  if (m.format !== 1) throw new BackupError(`backup format ${String(m.format)} is not one this build reads (1)`);
  if (m.dialect !== "sqlite" && m.dialect !== "postgres") throw new BackupError("the backup names no database");
  const db = m.dialect === "sqlite" ? SQLITE_FILE : PG_DUMP_FILE;
  if (!existsSync(path.join(dir, db)) || statSync(path.join(dir, db)).size === 0) throw new BackupError(`the backup has no ${db}`);
  return m;
}
