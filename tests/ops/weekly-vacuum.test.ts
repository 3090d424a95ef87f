// The server's weekly vacuum on a real SQLite file: after many events are deleted, its pass frees the pages in small
// steps and the file shrinks; it runs once per interval, and only on the node holding the week's claim; a database
// without auto_vacuum=INCREMENTAL is left alone (no full VACUUM in the server) with a line saying what to run; on
// PostgreSQL the pass is VACUUM (ANALYZE) of the largest tables, claimed once.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import SQLite from "better-sqlite3";
import { checkpoint, sqliteFileBytes } from "../../src/ops/vacuum";
import { WeeklyVacuum } from "../../src/server/weekly-vacuum";
import { testCore } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";
import { fillAndDelete } from "../helpers/deleted-events";

const dirs: string[] = [];
const newFile = () => {
  const d = mkdtempSync(path.join(tmpdir(), "faultline-weekly-vacuum-"));
  dirs.push(d);
  return path.join(d, "faultline.sqlite3");
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const settings = { intervalMs: 7 * 86_400_000, checkIntervalMs: 3_600_000, stepPages: 256, stepPauseMs: 1 };

test("the weekly pass shrinks the file in steps, once per week, on the node that claims it", async () => {
  const file = newFile();
  const t = await testCore({ dialect: "sqlite", file });
  await fillAndDelete(t);
  await checkpoint(t.db);
  const before = sqliteFileBytes(file);
  let clock = Date.parse("2026-11-28T03:00:00Z");
  const lines: string[] = [];
  const job = new WeeklyVacuum(
    t.db,
    t.store,
    (l) => lines.push(l),
    settings,
    () => clock,
  );
  const other = new WeeklyVacuum(
    t.db,
    t.store,
    () => undefined,
    settings,
    () => clock,
  );
  const r = await job.pass();
  assert.equal(r.ran, true);
  assert.ok(r.ran && (r.freedPages ?? 0) > 2000, JSON.stringify(r));
  const afterPass = sqliteFileBytes(file);
  assert.ok(afterPass < before / 3, `${afterPass} of ${before}`);
  assert.match(lines.join("\n"), /weekly vacuum returned \d+ MiB to the file system/);
  assert.deepEqual(await other.pass(), { ran: false, reason: "claimed-elsewhere" });
  clock += 86_400_000;
  assert.deepEqual(await job.pass(), { ran: false, reason: "not-due" });
  clock += 7 * 86_400_000;
  assert.equal((await job.pass()).ran, true);
  await t.close();
});

test("a database without auto_vacuum=INCREMENTAL gets no full VACUUM from the server, and a line saying to run `faultline vacuum`", async () => {
  const file = newFile();
  const legacy = new SQLite(file);
  legacy.exec("create table made_before (x integer)");
  legacy.close();
  const t = await testCore({ dialect: "sqlite", file });
  await fillAndDelete(t);
  const before = sqliteFileBytes(file);
  const lines: string[] = [];
  const r = await new WeeklyVacuum(t.db, t.store, (l) => lines.push(l), settings).pass();
  assert.deepEqual(r, { ran: true, freedPages: 0, needsFullVacuum: true });
  assert.ok(sqliteFileBytes(file) >= before);
  assert.match(lines.join("\n"), /run `faultline vacuum` once/);
  await t.close();
});

test("on PostgreSQL the weekly pass runs VACUUM (ANALYZE) on the largest tables, on the node that claims it", async () => {
  const pg = await freshPgDatabase(`faultline_weekly_vacuum_${randomBytes(4).toString("hex")}`);
  try {
    const t = await testCore({ dialect: "postgres", url: pg.url });
    await fillAndDelete(t);
    const lines: string[] = [];
    const r = await new WeeklyVacuum(t.db, t.store, (l) => lines.push(l), settings).pass();
    assert.ok(r.ran && r.tables?.includes("events"), JSON.stringify(r));
    assert.match(lines.join("\n"), /weekly VACUUM \(ANALYZE\) of \d+ tables done/);
    assert.deepEqual(await new WeeklyVacuum(t.db, t.store, () => undefined, settings).pass(), { ran: false, reason: "claimed-elsewhere" });
    await t.close();
  } finally {
    await pg.drop();
  }
});
