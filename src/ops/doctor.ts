// `faultline doctor`: what is wrong with this install and how to fix it. Each check reports ok, or a problem with the
// fix; the command exits 1 when any check found one. It reads, never changes anything (no migration, no repair).
import { constants, statSync } from "node:fs";
import { access, statfs } from "node:fs/promises";
import { sql } from "kysely";
import { type Config, ConfigError, loadConfig } from "../config/env";
import { DOCTOR_LIMITS, SPOOL_LIMITS } from "../config/limits";
import { existingSpoolId, spoolDir } from "../ingest";
import { listSegments, segmentFile } from "../ingest/spool";
import { countRecords } from "../ingest/spool-backlog";
import { type Db, dbOptionsFromConfig, openDb } from "../storage/db";
import { createStore } from "../storage/kysely";
import { migrationStatus } from "../storage/migrate";
import { checkSso } from "./doctor-sso";

export type CheckResult = { name: string; ok: boolean; detail: string; fix?: string };

const MiB = 1024 * 1024;
const ok = (name: string, detail: string): CheckResult => ({ name, ok: true, detail });
const problem = (name: string, detail: string, fix: string): CheckResult => ({ name, ok: false, detail, fix });
const message = (err: unknown) => String((err as Error)?.message ?? err).split("\n", 1)[0]!;

async function database(db: Db): Promise<CheckResult> {
  try {
    const version =
      db.dialect === "postgres"
        ? (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db.kysely)).rows[0]!.v
        : (await sql<{ v: string }>`select sqlite_version() as v`.execute(db.kysely)).rows[0]!.v;
    return ok("database", `${db.dialect === "postgres" ? "PostgreSQL" : "SQLite"} ${version} answers`);
  } catch (err) {
    return problem(
      "database",
      `cannot reach the database: ${message(err)}`,
      db.dialect === "postgres"
        ? "check DATABASE_URL (host, port, user, password, database name) and that PostgreSQL runs and accepts this host"
        : "check that FAULTLINE_DATA_DIR is readable and writable by this user",
    );
  }
}

async function migrations(db: Db): Promise<CheckResult> {
  const status = await migrationStatus(db);
  if (status.unknown.length > 0) {
    return problem(
      "migrations",
      `the database has migrations this build does not know (${status.unknown.join(", ")}): a newer Faultline migrated it`,
      "run the newer Faultline, or restore the backup taken before the upgrade (`faultline restore FILE`)",
    );
  }
  if (status.pending.length > 0)
    return problem(
      "migrations",
      `${status.pending.length} pending (${status.pending.join(", ")})`,
      "run `faultline migrate` (`faultline start` migrates too); take a backup first (`faultline backup FILE`)",
    );
  return ok("migrations", `all ${status.applied.length} applied`);
}

async function disk(config: Config): Promise<CheckResult> {
  try {
    await access(config.dataDir, constants.W_OK);
  } catch {
    return problem(
      "disk",
      `the data dir ${config.dataDir} is missing or not writable`,
      "create it and give the user Faultline runs as write access (FAULTLINE_DATA_DIR)",
    );
  }
  const s = await statfs(config.dataDir);
  const free = s.bavail * s.bsize;
  const detail = `${Math.round(free / MiB)} MiB free in ${config.dataDir}`;
  if (free < DOCTOR_LIMITS.minFreeDiskBytes) {
    return problem(
      "disk",
      `${detail}; the intake refuses events below ${SPOOL_LIMITS.minFreeDiskBytes / MiB} MiB`,
      "free space on that file system, lower FAULTLINE_RETENTION_DAYS, or move the data dir to a larger one",
    );
  }
  return ok("disk", detail);
}

async function spool(config: Config, db: Db): Promise<CheckResult> {
  const dir = spoolDir(config.dataDir);
  const id = existingSpoolId(config.dataDir);
  if (!id) return ok("spool", "no spool yet (`faultline start` creates it)");
  const store = createStore(db);
  const position = await store.getSpoolPosition(id);
  const bases = listSegments(dir);
  const last = bases.at(-1);
  const end = last === undefined ? 0 : last + statSync(segmentFile(dir, last)).size;
  const backlogBytes = Math.max(0, end - Math.max(position, bases[0] ?? 0));
  const { records, oldestAt } = countRecords(dir, position, end);
  const ageSeconds = oldestAt === null ? 0 : Math.max(0, (Date.now() - oldestAt) / 1000);
  const dead = (await store.listDeadLetters(1)).total;
  const detail = `${bases.length} segment${bases.length === 1 ? "" : "s"}, backlog ${records} records (${Math.round(backlogBytes / 1024)} KiB, oldest ${Math.round(ageSeconds)} s), ${dead} set aside`;
  if (ageSeconds > DOCTOR_LIMITS.maxBacklogSeconds || backlogBytes > SPOOL_LIMITS.maxBacklogBytes / 2) {
    return problem(
      "spool",
      `${detail}: the digest is behind`,
      config.digest === "external"
        ? "check that `faultline worker` runs on this data dir and database, and its log"
        : 'check that `faultline start` runs and its log ("digest" lines); with FAULTLINE_DIGEST=external, that `faultline worker` runs',
    );
  }
  if (dead > 0)
    return problem(
      "spool",
      `${detail}: records the digest could not store`,
      "a superuser sees them on the diagnostics page (/en/diagnostics): send them again once the cause is fixed, or discard them",
    );
  return ok("spool", detail);
}

/** The database's clock against this host's: PostgreSQL only (SQLite has no clock of its own). */
async function clock(db: Db): Promise<CheckResult> {
  if (db.dialect !== "postgres") return ok("clock", "SQLite uses this host's clock");
  const before = Date.now();
  const r = await sql<{ ms: string }>`select (extract(epoch from clock_timestamp()) * 1000)::text as ms`.execute(db.kysely);
  const after = Date.now();
  const skew = Number(r.rows[0]!.ms) - (before + after) / 2;
  const detail = `the database's clock is ${Math.abs(Math.round(skew))} ms ${skew >= 0 ? "ahead of" : "behind"} this host's`;
  if (Math.abs(skew) > DOCTOR_LIMITS.maxClockSkewMs) return problem("clock", detail, "synchronize both hosts' clocks (systemd-timesyncd, chrony or ntpd)");
  return ok("clock", detail);
}

/**
 * PostgreSQL's shared lock table against what day partitions need (README.md "Set max_locks_per_transaction"): a query
 * that cannot be narrowed to some days locks every day partition and its indexes, so with many connections doing so
 * at once, a table of max_locks_per_transaction × (max_connections + max_prepared_transactions) slots runs out and
 * queries fail with "out of shared memory". Needs: the days kept and made ahead × locks per day × the connections.
 */
async function locks(db: Db, config: Config): Promise<CheckResult> {
  if (db.dialect !== "postgres") return ok("locks", "SQLite has no lock table to size");
  const r = await sql<{ per_tx: string; conns: string; prepared: string; connected: string }>`
    select current_setting('max_locks_per_transaction') as per_tx, current_setting('max_connections') as conns,
      current_setting('max_prepared_transactions') as prepared,
      (select count(*) from pg_stat_activity where datname = current_database())::text as connected`.execute(db.kysely);
  const row = r.rows[0]!;
  const perTx = Number(row.per_tx);
  const maxConnections = Number(row.conns);
  const slots = perTx * (maxConnections + Number(row.prepared));
  const days = config.retentionDays + DOCTOR_LIMITS.partitionDaysAhead;
  const connections = Math.max(Number(row.connected), DOCTOR_LIMITS.minConnectionsAssumed);
  const needed = days * DOCTOR_LIMITS.locksPerPartitionDay * connections;
  const detail = `max_locks_per_transaction ${perTx} × max_connections ${maxConnections}: ${slots.toLocaleString("en")} lock slots; ${connections} connections each reading ${days.toLocaleString("en")} day partitions at once need about ${needed.toLocaleString("en")}`;
  if (slots >= needed) return ok("locks", detail);
  // What is needed per connection slot, rounded up to a power of two for headroom: README.md's 256 for 90 days.
  const advised = 2 ** Math.ceil(Math.log2(needed / maxConnections));
  return problem(
    "locks",
    detail,
    `set max_locks_per_transaction = ${advised} in postgresql.conf and restart PostgreSQL (README.md "Set max_locks_per_transaction")`,
  );
}

async function publicUrl(config: Config, basePath: string): Promise<CheckResult> {
  const url = `${config.publicUrl}${basePath}/api/health`;
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(DOCTOR_LIMITS.requestTimeoutMs), redirect: "manual" });
    if (r.status === 200) return ok("public URL", `${url} answers 200`);
    return problem(
      "public URL",
      `${url} answers ${r.status}`,
      r.status === 503
        ? "the server cannot reach its database: see its log"
        : "check FAULTLINE_URL and the reverse proxy's forwarding to Faultline (contrib/nginx.conf, contrib/Caddyfile)",
    );
  } catch (err) {
    return problem(
      "public URL",
      `${url} does not answer: ${message((err as Error).cause ?? err)}`,
      "start Faultline (`faultline start`), and check FAULTLINE_URL, DNS, the reverse proxy and the firewall",
    );
  }
}

/** Runs every check; the configuration first, as nothing else can be checked without it. */
export async function runDoctor(opts: { basePath: string; env?: Record<string, string | undefined> }): Promise<CheckResult[]> {
  let config: Config;
  try {
    config = loadConfig(opts.env);
  } catch (err) {
    if (err instanceof ConfigError)
      return [problem("configuration", err.problems.join("; "), "set the variables named above as README.md's configuration table says")];
    throw err;
  }
  const results: CheckResult[] = [
    ok("configuration", `${config.databaseUrl ? "PostgreSQL" : "SQLite"}, data in ${config.dataDir}, public URL ${config.publicUrl}${opts.basePath}`),
  ];
  const db = openDb({ ...dbOptionsFromConfig(config), ...(config.databaseUrl ? { maxConnections: 2 } : {}) });
  try {
    const reachable = await database(db);
    results.push(reachable);
    const guarded = async (name: string, run: () => Promise<CheckResult>) => {
      try {
        results.push(await run());
      } catch (err) {
        results.push(problem(name, `could not be checked: ${message(err)}`, "see the database check above"));
      }
    };
    if (reachable.ok) {
      await guarded("migrations", () => migrations(db));
      await guarded("clock", () => clock(db));
      await guarded("locks", () => locks(db, config));
    }
    results.push(await disk(config));
    if (reachable.ok) await guarded("spool", () => spool(config, db));
    results.push(await publicUrl(config, opts.basePath));
    const sso = await checkSso(config, reachable.ok ? createStore(db) : null).catch((err: unknown) =>
      problem("single sign-on", `could not be checked: ${message(err)}`, "see the database check above"),
    );
    if (sso) results.push(sso);
  } finally {
    await db.close();
  }
  return results;
}

/** The report as printed: one line per check, the fix under each problem. */
export function formatDoctor(results: CheckResult[]): string {
  const lines = results.map((r) => `${r.ok ? "ok     " : "PROBLEM"} ${r.name}: ${r.detail}${r.fix ? `\n        fix: ${r.fix}` : ""}`);
  const problems = results.filter((r) => !r.ok).length;
  lines.push(problems === 0 ? "all is well" : `${problems} problem${problems === 1 ? "" : "s"} found`);
  return `${lines.join("\n")}\n`;
}
