// The write-ahead log's checkpoint thread (src/storage/wal-checkpointer.ts): what a connection commits is moved into
// the database file by the thread, while the committing connection's own checkpoint waits for a log of
// STORAGE_LIMITS.walAutocheckpointPages (db.ts). Real SQLite files and a real worker thread.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { sql } from "kysely";
import { STORAGE_LIMITS } from "../../src/config/limits";
import { type Db, openDb } from "../../src/storage/db";
import { startWalCheckpointer } from "../../src/storage/wal-checkpointer";

const PAGE = 4096;
const ROWS = 2_000; // of 2 KiB each: about 1,000 pages, past SQLite's default checkpoint (1,000) and below Faultline's

/**
 * Writes ROWS rows in transactions of 100 through Faultline's own connection, and returns it open: the last connection
 * to close checkpoints the log itself.
 */
async function fill(file: string): Promise<Db> {
  const db = openDb({ dialect: "sqlite", file });
  await sql`create table if not exists blobs (id integer primary key, body blob not null)`.execute(db.kysely);
  for (let t = 0; t < ROWS / 100; t++)
    await db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < 100; i++) await sql`insert into blobs (body) values (randomblob(2048))`.execute(trx);
    });
  return db;
}

const bytes = (f: string) => statSync(f).size;

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

test("Faultline's connections leave the log to the checkpoint thread, up to the backstop", async () => {
  assert.ok(ROWS / 2 < STORAGE_LIMITS.walAutocheckpointPages, "the test's writes stay below the connections' own checkpoint");
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-wal-"));
  try {
    const file = path.join(dir, "faultline.sqlite3");
    const db = await fill(file);
    // No checkpoint thread: everything committed is still in the log, the database file has its first pages only.
    assert.ok(bytes(`${file}-wal`) > (ROWS / 2) * PAGE, `the log holds the writes (${bytes(`${file}-wal`)} bytes)`);
    assert.ok(bytes(file) < 100 * PAGE, `the database file was not checkpointed by the writer (${bytes(file)} bytes)`);
    await db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the checkpoint thread moves committed pages into the database file, and stops", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-wal-"));
  const lines: string[] = [];
  try {
    const file = path.join(dir, "faultline.sqlite3");
    const checkpointer = startWalCheckpointer({ dialect: "sqlite", file }, (l) => lines.push(l));
    const db = await fill(file);
    const moved = await until(() => bytes(file) >= (ROWS / 2) * PAGE, 10_000);
    assert.ok(moved, `the database file holds the writes (${bytes(file)} bytes)`);
    await checkpointer.stop();
    await db.close();
    assert.deepEqual(lines, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a checkpoint thread that cannot open its file says so once, and stopping it does not hang", async () => {
  const lines: string[] = [];
  const checkpointer = startWalCheckpointer({ dialect: "sqlite", file: path.join(tmpdir(), "faultline-no-such-dir", "x", "faultline.sqlite3") }, (l) =>
    lines.push(l),
  );
  await until(() => lines.length > 0, 5_000);
  await checkpointer.stop();
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /write-ahead log checkpoint thread failed: .*(directory|open)/i);
});

test("PostgreSQL and in-memory databases get no checkpoint thread", async () => {
  await startWalCheckpointer({ dialect: "postgres", url: "postgres://unused" }, () => assert.fail("no thread")).stop();
  await startWalCheckpointer({ dialect: "sqlite", file: ":memory:" }, () => assert.fail("no thread")).stop();
});

test("issue 22 memory: a connection opened with cacheKiB keeps SQLite's page cache to that size; the others keep the build's 16 MiB", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-cache-"));
  const file = path.join(dir, "faultline.sqlite3");
  const digest = openDb({ dialect: "sqlite", file, cacheKiB: STORAGE_LIMITS.digestCacheKiB });
  const web = openDb({ dialect: "sqlite", file });
  try {
    const size = async (db: Db) => Number((await sql<{ cache_size: number }>`pragma cache_size`.execute(db.kysely)).rows[0]!.cache_size);
    assert.equal(await size(digest), -STORAGE_LIMITS.digestCacheKiB, "negative: KiB, as SQLite reads it");
    assert.equal(await size(web), -16_000);
  } finally {
    await digest.close();
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
