// Vacuum on real databases: on a SQLite file, deleting many events and vacuuming shrinks the file, in incremental
// steps on a database made with auto_vacuum=INCREMENTAL and by one full VACUUM (which switches it) on one made
// before; a full VACUUM without the free disk it needs is refused with a message; `faultline vacuum` runs on both
// SQLite and PostgreSQL and prints the size before and after.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import SQLite from "better-sqlite3";
import { checkRoomForFullVacuum, sqliteFileBytes, sqliteSpace, vacuumSqlite } from "../../src/ops/vacuum";
import { testCore } from "../helpers/core";
import { fillAndDelete } from "../helpers/deleted-events";
import { freshPgDatabase } from "../helpers/pg";

const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "faultline-vacuum-"));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs `faultline vacuum` (from source) with only the given Faultline variables. */
function cli(env: Record<string, string>) {
  const clean = { ...process.env };
  for (const k of Object.keys(clean)) if (k.startsWith("FAULTLINE_") || k === "DATABASE_URL") delete clean[k];
  return spawnSync(process.execPath, ["--import", "tsx", "tests/helpers/faultline-cli.ts", "vacuum"], {
    env: { ...clean, FAULTLINE_SECRET_KEY: "k".repeat(64), ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
}

describe("vacuum on SQLite", () => {
  test("a database Faultline creates uses auto_vacuum=INCREMENTAL, and the incremental vacuum shrinks its file", async () => {
    const file = path.join(newDir(), "faultline.sqlite3");
    const t = await testCore({ dialect: "sqlite", file });
    const db = t.db;
    assert.equal((await sqliteSpace(db)).autoVacuum, "incremental");
    await fillAndDelete(t);
    const r = await vacuumSqlite(db, file);
    assert.equal(r.mode, "incremental");
    assert.ok(r.before > 12 * 1048576, `before: ${r.before}`);
    assert.ok(r.after < r.before / 3, `after ${r.after} of ${r.before}`);
    assert.equal((await sqliteSpace(db)).freePages, 0);
    await db.close();
  });

  test("a database made without auto_vacuum gets one full VACUUM that shrinks it and switches it to INCREMENTAL", async () => {
    const file = path.join(newDir(), "faultline.sqlite3");
    const legacy = new SQLite(file);
    legacy.exec("create table made_before (x integer)"); // tables exist: auto_vacuum can no longer change without VACUUM
    legacy.close();
    const t = await testCore({ dialect: "sqlite", file });
    const db = t.db;
    assert.equal((await sqliteSpace(db)).autoVacuum, "none");
    await fillAndDelete(t);
    const r = await vacuumSqlite(db, file);
    assert.deepEqual([r.mode, r.converted], ["full", true]);
    assert.ok(r.after < r.before / 3, `after ${r.after} of ${r.before}`);
    await db.close();
  });

  test("a full VACUUM is refused, with what it needs, when the disk lacks the room", async () => {
    const file = path.join(newDir(), "faultline.sqlite3");
    await assert.rejects(checkRoomForFullVacuum(file, 2 ** 50), /not enough free disk for VACUUM: it needs about \d+ MiB free/);
  });

  test("`faultline vacuum` prints the size before and after; a missing or busy database is a message, not a crash", () => {
    const dir = newDir();
    const missing = cli({ FAULTLINE_DATA_DIR: path.join(dir, "nowhere") });
    assert.equal(missing.status, 1, missing.stderr);
    assert.match(missing.stderr, /faultline: there is no database at .*nothing to vacuum/);
    const db = new SQLite(path.join(dir, "faultline.sqlite3"));
    db.exec("create table t (x blob)");
    db.close();
    const holder = new SQLite(path.join(dir, "faultline.sqlite3"));
    holder.exec("begin exclusive"); // another process writing: the command waits busy_timeout, then says so
    const busy = cli({ FAULTLINE_DATA_DIR: dir });
    holder.exec("rollback");
    holder.close();
    assert.equal(busy.status, 1, busy.stderr);
    assert.match(busy.stderr, /faultline: .*faultline\.sqlite3 is busy \(Faultline is writing to it\): stop Faultline/);
    const r = cli({ FAULTLINE_DATA_DIR: dir });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /faultline: VACUUM of .*faultline\.sqlite3: [\d.]+ MiB before, [\d.]+ MiB after/);
    assert.ok(sqliteFileBytes(path.join(dir, "faultline.sqlite3")) > 0);
  });
});

describe("vacuum on PostgreSQL", () => {
  test("`faultline vacuum` runs VACUUM (ANALYZE) on the largest tables and says VACUUM FULL is the operator's", async () => {
    const pg = await freshPgDatabase(`faultline_vacuum_${randomBytes(4).toString("hex")}`);
    try {
      const t = await testCore({ dialect: "postgres", url: pg.url });
      await fillAndDelete(t);
      await t.close();
      const r = cli({ FAULTLINE_DATA_DIR: newDir(), DATABASE_URL: pg.url });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /VACUUM \(ANALYZE\) of \d+ tables \(.*events.*\): the database is [\d.]+ MiB before, [\d.]+ MiB after/);
      assert.match(r.stderr, /only VACUUM FULL returns it to the operating system/);
    } finally {
      await pg.drop();
    }
  });
});
