// PostgreSQL's client tools for backups: pg_dump and pg_restore, from PATH or Debian's versioned folders
// (/usr/lib/postgresql/<version>/bin, the newest first: a newer pg_dump reads older servers, never the reverse).
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { BackupError } from "./backup-format";

export function findPgTool(name: "pg_dump" | "pg_restore" | "psql"): string {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
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

/**
 * Drops the day-partitioned tables (with their partitions) and everything else the dump holds, then restores the dump,
 * in one transaction: psql runs what `pg_restore --clean --if-exists` writes, after a first statement of its own.
 * pg_restore's own --clean cannot replace a partitioned table (it drops each partition's inherited key on its own,
 * which PostgreSQL refuses: "cannot drop inherited constraint"); with the partitioned tables dropped first those
 * statements find nothing. A failure anywhere rolls it all back, so the database is as it was.
 */
export function restoreReplacing(dump: string, url: string, env: Record<string, string>): Promise<void> {
  const prelude = `DO $faultline$ DECLARE r record; BEGIN
  FOR r IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'p' LOOP
    EXECUTE format('DROP TABLE IF EXISTS %I CASCADE', r.relname);
  END LOOP;
END $faultline$;
`;
  return new Promise((resolve, reject) => {
    const opts = { env: { ...process.env, ...env } };
    const restore = spawn(findPgTool("pg_restore"), ["--no-owner", "--no-privileges", "--clean", "--if-exists", "--file=-", dump], {
      ...opts,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const psql = spawn(findPgTool("psql"), ["-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-f", "-", `--dbname=${url}`], {
      ...opts,
      stdio: ["pipe", "ignore", "pipe"],
    });
    const errors = { pg_restore: "", psql: "" };
    restore.stderr.on("data", (d: Buffer) => (errors.pg_restore = (errors.pg_restore + d.toString()).slice(-4000)));
    psql.stderr.on("data", (d: Buffer) => (errors.psql = (errors.psql + d.toString()).slice(-4000)));
    // psql stops reading at its first error: what pg_restore still writes then has nowhere to go.
    psql.stdin.on("error", () => {});
    psql.stdin.write(prelude);
    restore.stdout.pipe(psql.stdin);
    const codes: Partial<Record<"pg_restore" | "psql", number | null>> = {};
    const done = (name: "pg_restore" | "psql", code: number | null) => {
      codes[name] = code;
      if (!("pg_restore" in codes) || !("psql" in codes)) return;
      if (codes.psql === 0 && codes.pg_restore === 0) resolve();
      else {
        const failed = codes.psql !== 0 ? "psql" : "pg_restore";
        reject(new BackupError(`${failed} failed (exit ${codes[failed]}): ${errors[failed].trim() || errors.pg_restore.trim()}`));
      }
    };
    for (const [name, child] of [
      ["pg_restore", restore],
      ["psql", psql],
    ] as const) {
      child.on("error", (err) => reject(new BackupError(`${name} could not run: ${err.message}`)));
      child.on("exit", (code) => done(name, code));
    }
  });
}
