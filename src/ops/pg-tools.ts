// PostgreSQL's client tools for backups: pg_dump and pg_restore, from PATH or Debian's versioned folders
// (/usr/lib/postgresql/<version>/bin, the newest first: a newer pg_dump reads older servers, never the reverse).
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { BackupError } from "./backup-format";

export function findPgTool(name: "pg_dump" | "pg_restore"): string {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(root, v, "bin", name))) return path.join(root, v, "bin", name);
  throw new BackupError(
    `${name} is not installed: backups of PostgreSQL use PostgreSQL's own ${name} (Debian: \`apt-get install postgresql-client\`, at least the server's major version), found in PATH or /usr/lib/postgresql/<version>/bin`,
  );
}

/** The URL without its password, which goes in PGPASSWORD: it never shows in a process list or an error. */
export function pgConnection(databaseUrl: string): { url: string; env: Record<string, string> } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return { url: url.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** Runs a PostgreSQL tool; its error output (never the password, which goes through PGPASSWORD) on failure. */
export function runPgTool(tool: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.on("error", (err) => reject(new BackupError(`${path.basename(tool)} could not run: ${err.message}`)));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new BackupError(`${path.basename(tool)} failed (exit ${code}): ${stderr.trim()}`))));
  });
}
