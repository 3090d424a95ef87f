// `faultline backup` and `faultline restore` as commands (from source), on a running intake with its digest thread:
// every table of the restored database equals the original's (events, issues, artifacts, settings, the spool
// position), the secret key and the spool come back, and restore refuses a data dir or database in use without --force.
// On SQLite, and on PostgreSQL when the test server and pg_dump are there.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { after, describe, test } from "node:test";
import { sql } from "kysely";
import { existingSpoolId, spoolDir } from "../../src/ingest";
import { SpoolReader, SpoolWriter } from "../../src/ingest/spool";
import { findPgTool } from "../../src/ops/pg-tools";
import { type Db, type OpenDbOptions, openDb } from "../../src/storage/db";
import { createStore } from "../../src/storage/kysely";
import { migrateToLatest } from "../../src/storage/migrate";
import { type TestIntake, startTestIntake } from "../helpers/intake";
import { freshPgDatabase } from "../helpers/pg";

const dirs: string[] = [];
const newDir = (name = "faultline-backup-") => {
  const d = mkdtempSync(path.join(tmpdir(), name));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  const clean = { ...process.env };
  for (const k of Object.keys(clean)) if (k.startsWith("FAULTLINE_") || k === "DATABASE_URL") delete clean[k];
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/faultline-cli.ts", ...args], {
    env: { ...clean, FAULTLINE_SELF_MONITORING: "0", ...env },
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("exit", (status: number | null) => resolve({ status, stderr })));
}

/** Every row of every table, each table's rows in a fixed order. */
async function tables(db: Db): Promise<Record<string, unknown[]>> {
  const names =
    db.dialect === "sqlite"
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db.kysely)).rows.map(
          (r) => r.name,
        )
      : (await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = 'public'`.execute(db.kysely)).rows.map((r) => r.name);
  const out: Record<string, unknown[]> = {};
  for (const name of names.sort()) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db.kysely)).rows;
    out[name] = rows
      .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v instanceof Uint8Array ? Buffer.from(v).toString("base64") : v)))
      .sort();
  }
  return out;
}

const hex = () => crypto.randomUUID().replace(/-/g, "");

/** Events in two issues, an artifact bundle, project settings: what a backup must bring back. */
async function fill(t: TestIntake): Promise<void> {
  const p = t.projects[0];
  const send = (id: string, type: string) =>
    fetch(t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`), {
      method: "POST",
      body: `{"event_id":"${id}"}\n{"type":"event"}\n${JSON.stringify({ exception: { values: [{ type, value: "backup" }] }, release: "web@1.0" })}\n`,
    });
  const ids = [hex(), hex(), hex()];
  for (const [i, id] of ids.entries()) assert.equal((await send(id, i < 2 ? "TypeError" : "RangeError")).status, 200);
  // An event with an attachment (issue 19): its row in the database, its file in the data dir on SQLite.
  const withFile = hex();
  const shot = `{"type":"attachment","length":9,"filename":"shot.png","content_type":"image/png"}\nPNGPNGPNG\n`;
  assert.equal(
    (
      await fetch(t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`), {
        method: "POST",
        body: `{"event_id":"${withFile}"}\n{"type":"event"}\n{"message":"with a file"}\n${shot}`,
      })
    ).status,
    200,
  );
  ids.push(withFile);
  for (const id of ids) await t.waitForEvent(p, id);
  await t.settle();
  const org = (await t.core.store.getOrganizationBySlug(t.org))!;
  const content = "console.log('backed up');";
  await t.core.store.createBundle({
    organizationId: org.id,
    checksum: "b".repeat(40),
    bundleId: null,
    size: content.length,
    now: new Date().toISOString(),
    files: [
      {
        path: "app.js",
        url: "~/app.js",
        type: "minified_source",
        debugId: null,
        headers: {},
        size: content.length,
        sha1: "c".repeat(40),
        data: deflateRawSync(Buffer.from(content)),
      },
    ],
    links: [{ projectId: p.id, release: "web@1.0", dist: "" }],
  });
  await t.core.store.updateProject(p.id, { retentionDays: 30, scrapeJavaScript: true });
}

async function withDb<T>(options: OpenDbOptions, run: (db: Db) => Promise<T>): Promise<T> {
  const db = openDb(options);
  try {
    return await run(db);
  } finally {
    await db.close();
  }
}

async function roundTrip(
  t: TestIntake,
  source: Record<string, string>,
  target: Record<string, string>,
  targetDbOf: (dataDir: string) => OpenDbOptions,
): Promise<string> {
  // The secret key the install generated, as `faultline start` would have.
  writeFileSync(path.join(t.dataDir, "secret.key"), `${"5".repeat(64)}\n`, { mode: 0o600 });
  const file = path.join(newDir(), "faultline.tar.gz");
  const b = await cli(["backup", file], { FAULTLINE_DATA_DIR: t.dataDir, ...source });
  assert.equal(b.status, 0, b.stderr);
  assert.match(b.stderr, /backed up .* the secret key and the spool \(1 segments\)/);
  assert.doesNotMatch(b.stderr, /faultline:faultline@/, "no password in the output");

  const sourceDb: OpenDbOptions = source.DATABASE_URL
    ? { dialect: "postgres", url: source.DATABASE_URL }
    : { dialect: "sqlite", file: path.join(t.dataDir, "faultline.sqlite3") };
  const original = await withDb(sourceDb, tables);
  assert.ok(original.events!.length >= 3 && original.issues!.length >= 2 && original.artifact_files!.length === 1, "the data to compare is there");

  const dataDir = newDir("faultline-restored-");
  const targetDb = targetDbOf(dataDir);
  const r = await cli(["restore", file], { FAULTLINE_DATA_DIR: dataDir, ...target });
  assert.equal(r.status, 0, r.stderr);
  const restored = await withDb(targetDb, tables);
  assert.deepEqual(restored, original);
  // Attachments come back with their files (SQLite) or chunks (PostgreSQL).
  const attachments = (restored.event_attachments ?? []).map((r) => JSON.parse(r as string) as { blob_key: string });
  assert.ok(attachments.length >= 1, "an attachment to compare");
  for (const a of attachments) assert.ok(await withDb(targetDb, (db) => createStore(db).readAttachmentBlob(a.blob_key)), `the blob of ${a.blob_key}`);
  assert.equal(readFileSync(path.join(dataDir, "secret.key"), "utf8"), readFileSync(path.join(t.dataDir, "secret.key"), "utf8"));
  const spoolId = existingSpoolId(dataDir);
  assert.equal(spoolId, t.spool.id);
  assert.equal(await withDb(targetDb, (db) => createStore(db).getSpoolPosition(spoolId!)), t.digested());
  // The restored database migrates forward as `faultline start` would, with nothing pending on this build.
  assert.deepEqual(await withDb(targetDb, (db) => migrateToLatest(db)), []);

  // Not over an install without --force; with it, yes.
  const again = await cli(["restore", file], { FAULTLINE_DATA_DIR: dataDir, ...target });
  assert.equal(again.status, 1);
  assert.match(again.stderr, /restore refuses to overwrite it\. Stop Faultline and add --force/);
  const forced = await cli(["restore", "--force", file], { FAULTLINE_DATA_DIR: dataDir, ...target });
  assert.equal(forced.status, 0, forced.stderr);
  assert.deepEqual(await withDb(targetDb, tables), original);
  return file;
}

describe("backup and restore", () => {
  test("SQLite: taken while the intake and digest run, restored table for table", async () => {
    const t = await startTestIntake();
    try {
      await fill(t);
      await roundTrip(t, {}, {}, (dataDir) => ({ dialect: "sqlite", file: path.join(dataDir, "faultline.sqlite3") }));
    } finally {
      await t.close();
    }
  });

  test("records accepted but not digested yet come back in the spool, after the restored position", async () => {
    const dataDir = newDir();
    await withDb({ dialect: "sqlite", file: path.join(dataDir, "faultline.sqlite3") }, (db) => migrateToLatest(db));
    const spool = SpoolWriter.open(spoolDir(dataDir), "normal");
    await spool.append([
      {
        projectId: 1,
        keyId: 1,
        receivedAt: Date.now(),
        itemType: "event",
        eventId: "e".repeat(32),
        headers: "{}",
        meta: "{}",
        payload: Buffer.from('{"message":"waiting"}'),
      },
    ]);
    spool.close();
    const file = path.join(newDir(), "b.tar.gz");
    assert.equal((await cli(["backup", file], { FAULTLINE_DATA_DIR: dataDir })).status, 0);
    const restoredDir = newDir("faultline-restored-");
    const r = await cli(["restore", file], { FAULTLINE_DATA_DIR: restoredDir });
    assert.equal(r.status, 0, r.stderr);
    const reader = SpoolReader.open(spoolDir(restoredDir));
    try {
      const rows = reader.read(0, 10);
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.eventId, "e".repeat(32));
      assert.equal(Buffer.from(rows[0]!.payload).toString(), '{"message":"waiting"}');
    } finally {
      reader.close();
    }
  });

  test("a file that is not a backup is refused with the reason, and leaves the data dir empty", async () => {
    const junk = path.join(newDir(), "junk.tar.gz");
    writeFileSync(junk, "not a tar");
    const dataDir = newDir();
    const r = await cli(["restore", junk], { FAULTLINE_DATA_DIR: dataDir });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /faultline: cannot read .* as a Faultline backup/);
    assert.deepEqual(readdirSync(dataDir), []);
  });

  const pgReady = (() => {
    if (!process.env.FAULTLINE_TEST_PG_URL) return "FAULTLINE_TEST_PG_URL is not set";
    try {
      findPgTool("pg_dump");
      findPgTool("pg_restore");
      return false;
    } catch {
      return "pg_dump or pg_restore is not installed";
    }
  })();

  test("PostgreSQL: pg_dump while running, pg_restore into another database, table for table", { skip: pgReady }, async () => {
    const a = await freshPgDatabase(`faultline_backup_a_${process.pid}`);
    const b = await freshPgDatabase(`faultline_backup_b_${process.pid}`);
    const t = await startTestIntake({ db: { dialect: "postgres", url: a.url } });
    try {
      await fill(t);
      const file = await roundTrip(t, { DATABASE_URL: a.url }, { DATABASE_URL: b.url }, () => ({ dialect: "postgres", url: b.url }));
      // The same backup into a database in use (the original's) needs --force; into SQLite, not at all.
      const inUse = await cli(["restore", file], { FAULTLINE_DATA_DIR: newDir(), DATABASE_URL: a.url });
      assert.equal(inUse.status, 1);
      assert.match(inUse.stderr, /the database already holds a Faultline install: restore refuses/);
      const sqlite = await cli(["restore", file], { FAULTLINE_DATA_DIR: newDir() });
      assert.equal(sqlite.status, 1);
      assert.match(sqlite.stderr, /this backup holds a PostgreSQL database: set DATABASE_URL/);
    } finally {
      await t.close();
      await a.drop();
      await b.drop();
    }
  });
});
