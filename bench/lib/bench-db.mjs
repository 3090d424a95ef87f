// The database the benchmarks run Faultline on: SQLite in each data dir by default, or PostgreSQL when
// BENCH_DATABASE_URL (or --database-url=) names a server. On PostgreSQL each fresh data dir gets a database of its own
// on that server (created here, dropped when the run ends), and each cached data set a database kept there beside its
// data dir in bench/.cache/ (faultline_bench_<name>), so that reruns skip seeding as they do on SQLite. The URL's role
// must be allowed to create databases.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { opt } from "./options.mjs";

/** The PostgreSQL server URL from the flags or environment, or null for SQLite. */
export function benchDatabaseUrl() {
  const url = opt("DATABASE_URL", "");
  if (url && !/^postgres(ql)?:\/\//.test(url)) throw new Error(`BENCH_DATABASE_URL must be a postgres:// URL, not ${url}`);
  return url || null;
}

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrl(serverUrl, name) {
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(serverUrl, fn) {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const ident = (name) => `"${name.replaceAll('"', '""')}"`;

/** Creates database `name` unless it exists; its URL. */
export async function ensureDatabase(serverUrl, name) {
  await admin(serverUrl, async (c) => {
    const found = await c.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) await c.query(`create database ${ident(name)}`);
  });
  return databaseUrl(serverUrl, name);
}

/** Whether database `name` exists on the server. */
export async function databaseExists(serverUrl, name) {
  return admin(serverUrl, async (c) => (await c.query("select 1 from pg_database where datname = $1", [name])).rowCount > 0);
}

/** Drops database `name` if it exists (connections to it ended). */
export async function dropDatabase(serverUrl, name) {
  await admin(serverUrl, (c) => c.query(`drop database if exists ${ident(name)} with (force)`));
}

/** A new empty database for one run: {url, name, drop}. */
export async function freshDatabase(serverUrl, prefix = "faultline_bench_run") {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const url = await ensureDatabase(serverUrl, name);
  return { url, name, drop: () => dropDatabase(serverUrl, name) };
}

/**
 * A new database copied from database `template` (which nothing may be connected to): {url, name, drop}. PostgreSQL
 * copies the files, so a run starts from the same rows every time.
 */
export async function copiedDatabase(serverUrl, template, prefix = "faultline_bench_copy") {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  await admin(serverUrl, (c) => c.query(`create database ${ident(name)} template ${ident(template)}`));
  return { url: databaseUrl(serverUrl, name), name, drop: () => dropDatabase(serverUrl, name) };
}

/** The cached data set's database name for a bench/.cache/ entry. */
export const cachedDatabaseName = (cacheName) => `faultline_bench_${cacheName.replace(/[^a-z0-9]/gi, "_")}`.slice(0, 63);

/** The rows of one query, on SQLite (`sqliteFile`, read-only) or on PostgreSQL (`url`), as plain values of column 0. */
export async function pluck(sqliteFile, url, text) {
  if (url) return admin(url, async (c) => (await c.query({ text, rowMode: "array" })).rows.map((r) => r[0]));
  const { default: SQLite } = await import("better-sqlite3");
  const db = new SQLite(sqliteFile, { readonly: true });
  try {
    return db.prepare(text).pluck().all();
  } finally {
    db.close();
  }
}

/** The database's size in bytes: pg_database_size() on PostgreSQL. */
export async function postgresDatabaseBytes(url) {
  return admin(url, async (c) => Number((await c.query("select pg_database_size(current_database())::text as b")).rows[0].b));
}
