// Migration 0042 on SQLite and PostgreSQL, from a database at 0041 with data: a snooze whose baseline nested the issue
// row (and so every earlier snooze of it) is rewritten with its conditions and its two counts; a snooze written right,
// and one that is not JSON, stay as they were.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { type OpenDbOptions, openDb } from "../../src/storage/db";
import { migrateToLatest } from "../../src/storage/migrate";
import { freshPgDatabase } from "../helpers/pg";
import { oldIssue, oldProject } from "./migration-rows";

/** A snooze as issue-status.ts wrote it before: the baseline is the issue row, holding its previous snooze as text. */
function nestedSnooze(times: number): string {
  let snooze: string | null = null;
  for (let i = 0; i < times; i++) {
    snooze = JSON.stringify({
      until: "2026-12-01T10:00:00.000Z",
      count: 5,
      window: null,
      userCount: null,
      userWindow: null,
      baseline: { id: 1, title: "TypeError", timesSeen: 40 + i, userCount: 3, snooze },
      at: "2026-11-30T10:00:00.000Z",
    });
  }
  return snooze!;
}

for (const dialect of ["sqlite", "postgres"] as const) {
  test(`0042-snooze-baseline keeps each snooze's conditions and two counts, on ${dialect}`, async () => {
    let drop = async () => {};
    let options: OpenDbOptions = { dialect: "sqlite", file: ":memory:" };
    if (dialect === "postgres") {
      const fresh = await freshPgDatabase(`migration_0042_${randomBytes(4).toString("hex")}`);
      drop = fresh.drop;
      options = { dialect: "postgres", url: fresh.url };
    }
    const db = openDb(options);
    try {
      await migrateToLatest(db, "0041-trace-events-by-day");
      const now = new Date().toISOString();
      const project = await oldProject(db.kysely, now);
      const nested = nestedSnooze(12);
      assert.ok(nested.length > 100_000, "twelve ignores nested a large text");
      const right = JSON.stringify({ until: null, count: 5, window: 60, userCount: null, userWindow: null, baseline: { timesSeen: 1, userCount: 0 }, at: now });
      const garbage = `not json ${"x".repeat(1000)}`;
      const ids: number[] = [];
      for (const [n, snooze] of [nested, right, garbage, null].entries()) {
        const row = await db.kysely
          .insertInto("issues")
          .values(
            oldIssue(project.id, now, {
              short_id: n + 1,
              status: snooze ? "ignored" : "unresolved",
              substatus: snooze ? "archived_until_condition_met" : null,
              snooze,
              times_seen: 51,
            }) as never,
          )
          .returning("id")
          .executeTakeFirstOrThrow();
        ids.push(Number(row.id));
      }
      await migrateToLatest(db);
      const after = async (id: number) => (await db.kysely.selectFrom("issues").select("snooze").where("id", "=", id).executeTakeFirstOrThrow()).snooze;
      assert.deepEqual(JSON.parse((await after(ids[0]!))!), {
        until: "2026-12-01T10:00:00.000Z",
        count: 5,
        window: null,
        userCount: null,
        userWindow: null,
        baseline: { timesSeen: 51, userCount: 3 },
        at: "2026-11-30T10:00:00.000Z",
      });
      assert.equal(await after(ids[1]!), right);
      assert.equal(await after(ids[2]!), garbage);
      assert.equal(await after(ids[3]!), null);
    } finally {
      await db.close();
      await drop();
    }
  });
}
