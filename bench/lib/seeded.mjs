// Data sets written through the digest's own code (seed.mjs) into a Faultline data dir: the cached one the issue API
// is measured on (1,000,000 events in 10,000 issues by default), and the small fresh one bytes per event are measured
// on. The cache lives in bench/.cache/, keyed by the migrations and SEED_VERSION, so reruns skip seeding; a set made
// before newer migrations is kept and carried forward (Faultline migrates its data dir when it starts), since seeding
// a million events takes a quarter of an hour on a quiet machine and far longer on a busy one.
// With a PostgreSQL server (`server`, from BENCH_DATABASE_URL: bench-db.mjs), a set's rows live in a database of that
// server named after its cache entry (bench/.cache/pg-…, which keeps the data dir); such sets are not carried forward
// across migrations (they are made again), and a stale one's database is dropped with its folder.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { cachedDatabaseName, databaseExists, databaseUrl, dropDatabase, ensureDatabase, postgresDatabaseBytes } from "./bench-db.mjs";
import { forkRun } from "./ipc.mjs";
import { OWN_MAPS_LINE, startFaultline, stopServer, waitForOutput } from "./server.mjs";

/** Bump when seed.mjs writes different data, so that cached data sets are made again. */
export const SEED_VERSION = 1;

const migrationsDir = (root) => path.join(root, "src/storage/migrations");
/** The numbered migrations, in order (0001-initial.ts, …). */
const migrationFiles = (root) =>
  readdirSync(migrationsDir(root))
    .filter((name) => /^\d{4}-/.test(name))
    .sort();

/**
 * A short hash of the first `count` migrations (names and code) and of the migrations' shared helpers (types.ts): the
 * schema the cached database was made with. With every migration it hashes all the folder's files in name order.
 */
export function schemaKey(root, count = migrationFiles(root).length) {
  const dir = migrationsDir(root);
  const support = readdirSync(dir)
    .filter((name) => !/^\d{4}-/.test(name))
    .sort();
  const h = createHash("sha256");
  for (const name of [...migrationFiles(root).slice(0, count), ...support]) h.update(name).update(readFileSync(path.join(dir, name)));
  return h.update(`seed ${SEED_VERSION}`).digest("hex").slice(0, 12);
}

/**
 * A cached set of the same size made with fewer of today's migrations (an unchanged prefix of them): its name, or
 * null. Migrations only add to what a data dir holds, so Faultline's start brings it up to date.
 */
function olderSchemaSet(root, cacheRoot, nameFor) {
  if (!existsSync(cacheRoot)) return null;
  const older = new Map();
  for (let count = migrationFiles(root).length - 1; count > 0; count--) older.set(nameFor(schemaKey(root, count)), count);
  const found = readdirSync(cacheRoot).filter((name) => older.has(name) && existsSync(path.join(cacheRoot, name, "seed.json")));
  return found.sort((a, b) => older.get(b) - older.get(a))[0] ?? null;
}

/** Forks the seeder on a prepared data dir; `onProgress({events, seconds})` every ~10 s. Resolves with its result. */
export function runSeeder(root, cfg, onProgress = () => {}) {
  return forkRun(path.join(root, "bench/lib/seed.mjs"), { batch: 1000, spanDays: 7, threads: 2, ...cfg }, { done: "done", onMessage: onProgress, cwd: root });
}

/**
 * Sets up a new data dir (user, organization, project) by starting Faultline once, on PostgreSQL when `dbUrl` is
 * given; returns what a restart reuses.
 */
export async function prepareDataDir(root, { port, dataDir, dbUrl }) {
  const fl = await startFaultline(root, { port, dataDir, env: dbUrl ? { DATABASE_URL: dbUrl } : {} });
  // Once started, the server stores its own build's source maps (a few MB, once per build): waited for, so that every
  // data dir starts as an install is after its first start, and the bytes measured before any event do not depend on
  // how quickly the server was stopped (bench:digest's bytes per event moved by 140 B between runs when it was not).
  try {
    await waitForOutput(fl.child, OWN_MAPS_LINE, 60_000);
  } finally {
    await stopServer(fl);
  }
  return { email: fl.email, org: fl.org, project: fl.project, dsn: fl.dsn };
}

/** The database's bytes on disk (file and WAL) after a full checkpoint; the server must be stopped. */
export function checkpointedBytes(dataDir) {
  const file = path.join(dataDir, "faultline.sqlite3");
  const db = new SQLite(file);
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
  return [file, `${file}-wal`].reduce((sum, f) => sum + (existsSync(f) ? statSync(f).size : 0), 0);
}

/** Bytes per table (indexes counted with their table) through SQLite's dbstat, largest first; [] when unavailable. */
export function bytesByTable(dataDir) {
  const db = new SQLite(path.join(dataDir, "faultline.sqlite3"), { readonly: true });
  try {
    const rows = db
      .prepare(
        "SELECT coalesce(m.tbl_name, s.name) AS tbl, sum(s.pgsize) AS bytes FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY tbl ORDER BY bytes DESC",
      )
      .all();
    return rows.map((r) => ({ table: r.tbl, bytes: r.bytes }));
  } catch {
    return [];
  } finally {
    db.close();
  }
}

/**
 * A cached data set bench/.cache/<name>, `name` being `nameFor(schemaKey)` (names starting with `prefix`; other names
 * with that prefix are stale and removed, unless one was made with a prefix of today's migrations, which is carried
 * forward): made when missing by preparing a data dir and running `seed(dataDir, reuse)`. Returns {dataDir, reuse,
 * seed, cached, madeAt, dbUrl} (dbUrl: the set's PostgreSQL database, or null on SQLite).
 */
async function cachedSet(root, { prefix: setPrefix, nameFor: setName, port, log, what, seed: run, server = null }) {
  const prefix = server ? `pg-${setPrefix}` : setPrefix;
  const nameFor = server ? (key) => `pg-${setName(key)}` : setName;
  const dbUrlOf = (entry) => (server ? databaseUrl(server, cachedDatabaseName(entry)) : null);
  const cacheRoot = path.join(root, "bench/.cache");
  const name = nameFor(schemaKey(root));
  const dbUrl = dbUrlOf(name);
  const dir = path.join(cacheRoot, name),
    metaFile = path.join(dir, "seed.json");
  const older = existsSync(metaFile) || server ? null : olderSchemaSet(root, cacheRoot, nameFor);
  if (older) {
    log(`carrying bench/.cache/${older} forward to today's migrations as ${name} (Faultline migrates it when it starts)`);
    renameSync(path.join(cacheRoot, older), dir);
  }
  if (existsSync(metaFile) && server && !(await databaseExists(server, cachedDatabaseName(name)))) {
    log(`the database of bench/.cache/${name} is gone from the PostgreSQL server: making the data set again`);
    rmSync(dir, { recursive: true, force: true });
  }
  if (existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, "utf8"));
    return { dataDir: path.join(dir, "data"), dbUrl, reuse: meta.reuse, seed: meta.seed, madeAt: meta.madeAt, cached: true };
  }
  mkdirSync(cacheRoot, { recursive: true });
  for (const old of readdirSync(cacheRoot)) {
    if (!old.startsWith(prefix) || old === name) continue;
    log(`removing the stale data set bench/.cache/${old}`);
    if (server) await dropDatabase(server, cachedDatabaseName(old.replace(/\.partial$/, "")));
    rmSync(path.join(cacheRoot, old), { recursive: true, force: true });
  }
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const dataDir = path.join(partial, "data");
  if (server) {
    // A database left by a run stopped while seeding is made again from nothing.
    await dropDatabase(server, cachedDatabaseName(name));
    await ensureDatabase(server, cachedDatabaseName(name));
  }
  const reuse = await prepareDataDir(root, { port, dataDir, dbUrl });
  log(`seeding ${what} into bench/.cache/${name}${server ? ` and the database ${cachedDatabaseName(name)}` : ""} …`);
  const seed = await run(dataDir, reuse, dbUrl);
  seed.bytes = dbUrl ? await postgresDatabaseBytes(dbUrl) : checkpointedBytes(dataDir);
  const madeAt = new Date().toISOString();
  writeFileSync(path.join(partial, "seed.json"), JSON.stringify({ reuse, seed, madeAt }, null, 2) + "\n");
  renameSync(partial, dir);
  return { dataDir: path.join(dir, "data"), dbUrl, reuse, seed, madeAt, cached: false };
}

/**
 * The cached data set of `events` events in `issues` issues: made (and the stale ones removed) when missing.
 * Returns {dataDir, reuse, seed, cached}; seed holds the seeder's result from when it was made.
 */
export function cachedDataSet(root, { events, issues, port, log, server = null }) {
  return cachedSet(root, {
    prefix: "issues-",
    nameFor: (key) => `issues-${events}-${issues}-${key}`,
    port,
    log,
    server,
    what: `${events.toLocaleString("en-US")} events in ${issues.toLocaleString("en-US")} issues through the digest's code`,
    seed: async (dataDir, reuse, dbUrl) => {
      const seed = await runSeeder(root, { dataDir, databaseUrl: dbUrl, publicKey: new URL(reuse.dsn).username, events, issues }, (p) =>
        log(`  ${p.events.toLocaleString("en-US")} events after ${p.seconds.toFixed(0)} s (${Math.round(p.events / p.seconds).toLocaleString("en-US")}/s)`),
      );
      if (seed.events !== events || seed.issues !== issues)
        throw new Error(`the seeder stored ${seed.events} events in ${seed.issues} issues, not ${events} in ${issues}`);
      return seed;
    },
  });
}

/**
 * The cached data set of `spans` spans (bench/lib/seed-spans.mjs: transactions of 10 spans over the 14 days up to
 * when it was made). Its periods are relative to that time, so it is made again each UTC day.
 */
export function cachedSpanSet(root, { spans, port, log, server = null }) {
  return cachedSet(root, {
    prefix: "spans-",
    nameFor: (key) => `spans-${spans}-${key}-${new Date().toISOString().slice(0, 10)}`,
    port,
    log,
    server,
    what: `${spans.toLocaleString("en-US")} spans through the storage layer`,
    seed: async (dataDir, reuse, dbUrl) => {
      const seed = await forkRun(
        path.join(root, "bench/lib/seed-spans.mjs"),
        { dataDir, databaseUrl: dbUrl, publicKey: new URL(reuse.dsn).username, spans, batch: 2000, spanDays: 14 },
        {
          done: "done",
          cwd: root,
          onMessage: (p) =>
            log(`  ${p.spans.toLocaleString("en-US")} spans after ${p.seconds.toFixed(0)} s (${Math.round(p.spans / p.seconds).toLocaleString("en-US")}/s)`),
        },
      );
      if (seed.spans < spans) throw new Error(`the seeder stored ${seed.spans} spans, not ${spans}`);
      return seed;
    },
  });
}

/**
 * The cached data set of `logs` log lines over the 7 days up to when it was made (bench/lib/seed-logs.mjs), with the
 * feedback inbox's user reports and the monitors list's cron monitors. Its periods are relative to that time, so it
 * is made again each UTC day.
 */
export function cachedLogSet(root, { logs, port, log, server = null }) {
  return cachedSet(root, {
    prefix: "logs-",
    nameFor: (key) => `logs-${logs}-${key}-${new Date().toISOString().slice(0, 10)}`,
    port,
    log,
    server,
    what: `${logs.toLocaleString("en-US")} log lines, 10,000 user reports and 60 cron monitors through the storage layer`,
    seed: async (dataDir, reuse, dbUrl) => {
      const seed = await forkRun(
        path.join(root, "bench/lib/seed-logs.mjs"),
        {
          dataDir,
          databaseUrl: dbUrl,
          publicKey: new URL(reuse.dsn).username,
          logs,
          batch: 5000,
          logDays: 7,
          feedback: 10_000,
          monitors: 60,
          checkInsPerMonitor: 48,
        },
        {
          done: "done",
          cwd: root,
          onMessage: (p) =>
            log(`  ${p.logs.toLocaleString("en-US")} log lines after ${p.seconds.toFixed(0)} s (${Math.round(p.logs / p.seconds).toLocaleString("en-US")}/s)`),
        },
      );
      if (seed.logs < logs) throw new Error(`the seeder stored ${seed.logs} log lines, not ${logs}`);
      return seed;
    },
  });
}
