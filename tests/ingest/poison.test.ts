// Poison records (issue 16, finding 3): NUL characters, numbers beyond a column's range and pathological strings in
// every stored field, sent through the real intake over HTTP with a good event after each, on SQLite and on a real
// PostgreSQL. The good events are all stored, each poison is stored sanely (or set aside in the dead-letter table),
// and the digest reaches the end of the spool: one event never stops it.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { hourOf } from "../../src/core/hours";
import type { OpenDbOptions } from "../../src/storage/db";
import type { TestIntake } from "../helpers/intake";
import { startTestIntake } from "../helpers/intake";
import { freshPgDatabase } from "../helpers/pg";
import { hasNul, nulPoisons, numberPoisons, type Poison, sendAll, stringPoisons } from "../helpers/poison";

/** Long enough for a loaded machine, far short of the minutes a backtracking regular expression took. */
const GOOD_EVENT_MS = 20_000;

async function digestsPast(t: TestIntake, poisons: Poison[]): Promise<void> {
  const sent = await sendAll(t, t.projects[0], poisons);
  for (const { poison, good } of sent) {
    await t.waitForEvent(t.projects[0], good, GOOD_EVENT_MS).catch((err: Error) => {
      throw new Error(`the digest did not go past "${poison.name}": ${err.message}`);
    });
  }
  await t.settle();
}

/** Each poison event is stored with sane columns and data, or set aside. */
async function storedSanely(
  t: TestIntake,
  poisons: Poison[],
  check: (e: NonNullable<Awaited<ReturnType<TestIntake["core"]["store"]["getEvent"]>>>) => void = () => undefined,
): Promise<void> {
  for (const poison of poisons) {
    if (!poison.eventId) continue;
    const stored = await t.core.store.getEvent(t.projects[0].id, poison.eventId);
    assert.ok(stored, `${poison.name} is stored`);
    assert.ok(!hasNul(stored), `${poison.name} is stored without NUL characters`);
    assert.ok(stored.title.length <= 256 && stored.message.length <= 1024 && stored.culprit.length <= 256, `${poison.name} lists short`);
    check(stored);
  }
}

for (const dialect of ["sqlite", "postgres"] as const) {
  describe(`poison records on ${dialect}`, { timeout: 600_000 }, () => {
    let t: TestIntake;
    let drop: (() => Promise<void>) | undefined;
    before(async () => {
      let db: OpenDbOptions | undefined;
      if (dialect === "postgres") {
        const fresh = await freshPgDatabase(`poison_${randomBytes(4).toString("hex")}`);
        drop = fresh.drop;
        db = { dialect: "postgres", url: fresh.url };
      }
      t = await startTestIntake({ db });
    });
    after(async () => {
      await t.close();
      await drop?.();
    });

    test("hostile input #3: NUL characters in any stored string or key are stripped, and the digest goes on", async () => {
      const poisons = nulPoisons();
      await digestsPast(t, poisons);
      await storedSanely(t, poisons, (e) => assert.ok(!e.data.includes("\\u0000"), "the event's data holds no NUL"));
    });

    test("hostile input #3: numbers beyond a column's range are dropped or clamped, and the digest goes on", async () => {
      const poisons = numberPoisons();
      await digestsPast(t, poisons);
      await storedSanely(t, poisons, (e) => assert.ok(Number.isFinite(Date.parse(e.timestamp)), "a real timestamp"));
      // Client reports' counts went into integer columns: whole numbers that add up without overflowing.
      for (const total of await t.core.store.outcomeTotals(t.projects[0].id, hourOf(Date.now() - 86_400_000))) {
        assert.ok(Number.isSafeInteger(total.quantity) && total.quantity >= 0, `${total.outcome}/${total.reason} counts ${total.quantity}`);
      }
    });

    test("hostile input #3: a megabyte of x, a@, digits, datetime( or %( in any field grouping reads is trimmed and grouped in linear time", async () => {
      const poisons = stringPoisons();
      await digestsPast(t, poisons);
      await storedSanely(t, poisons);
    });
  });
}
