// Crontab and time zone checks (core/monitor-schedule.ts) are remembered for the digest, a bounded number of them,
// and so are parsed crontabs: asked again, past the bound, in any order, or with a string no schedule has, each answer
// is the one a fresh check or a fresh parse gives.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CronExpressionParser } from "cron-parser";
import { MONITOR_LIMITS } from "../../src/config/limits";
import { crontabProblem, isTimeZone, LATEST_EXPECTED_MS, nextExpected } from "../../src/core/monitor-schedule";

test("crontab and time zone answers stay right when asked again, past the bound, and for hostile lengths", () => {
  for (let round = 0; round < 2; round++) {
    assert.equal(crontabProblem("0 * * * *", "Europe/Vienna"), null);
    assert.equal(crontabProblem("@daily", "UTC"), null);
    assert.match(crontabProblem("61 * * * *", "UTC") ?? "", /not a valid crontab/);
    assert.match(crontabProblem("* * *", "UTC") ?? "", /five fields/);
    assert.equal(isTimeZone("America/Argentina/ComodRivadavia"), true);
    assert.equal(isTimeZone("Mars/Olympus_Mons"), false);
    assert.equal(isTimeZone(""), false);
  }
  // More distinct schedules than are remembered: the memory starts over and the answers stay the same.
  for (let i = 0; i < MONITOR_LIMITS.schedulesRemembered + 10; i++) assert.equal(crontabProblem(`${i % 60} ${i % 24} * * *`, "UTC"), null);
  assert.match(crontabProblem("61 * * * *", "UTC") ?? "", /not a valid crontab/);
  assert.equal(isTimeZone("Europe/Vienna"), true);
  // A string no schedule has is checked, never remembered (it is not a key in any memory).
  const huge = `${"1,".repeat(500_000)}1 * * * *`;
  assert.notEqual(crontabProblem(huge, "UTC"), null);
  assert.equal(isTimeZone("A".repeat(1_000_000)), false);
});

test("a crontab's next tick is the one a fresh parse gives, whatever was asked before and in whichever order", () => {
  const fresh = (schedule: string, timezone: string, reference: number) =>
    CronExpressionParser.parse(schedule, { currentDate: new Date(reference - (reference % 60_000)), tz: timezone })
      .next()
      .toDate()
      .toISOString();
  const cron = (schedule: string, timezone: string) => ({ scheduleType: "crontab" as const, schedule, intervalUnit: null, timezone });
  // Across Vienna's change to summer time (2026-03-29 02:00 → 03:00), later references first, then earlier ones.
  const references = ["2026-03-29T03:30:00Z", "2026-03-28T23:59:30Z", "2026-11-30T10:15:00Z", "2026-03-29T00:00:00Z", "2025-12-31T23:59:59Z"].map(Date.parse);
  for (const [schedule, timezone] of [
    ["30 2 * * *", "Europe/Vienna"],
    ["*/15 * * * *", "UTC"],
    ["0 9 * * 1-5", "America/New_York"],
    ["@monthly", "Asia/Kolkata"],
  ] as const) {
    for (let round = 0; round < 2; round++) {
      for (const reference of references) {
        assert.equal(nextExpected(cron(schedule, timezone), reference)?.toISOString(), fresh(schedule, timezone, reference), `${schedule} in ${timezone}`);
        // Another schedule asked in between does not disturb this one.
        assert.equal(nextExpected(cron("0 0 1 1 *", "UTC"), reference)?.toISOString(), fresh("0 0 1 1 *", "UTC", reference));
      }
    }
  }
  assert.equal(nextExpected(cron("61 * * * *", "UTC"), references[0]!), null);
  assert.equal(nextExpected(cron("61 * * * *", "UTC"), references[0]!), null, "a schedule that does not parse, asked again");
  // A schedule longer than any saved one is parsed each time, never remembered; this one's fields repeat a value and
  // do not parse, as a fresh parse says.
  const long = `${"1,".repeat(100_000)}1 * * * *`;
  assert.throws(() => CronExpressionParser.parse(long, { tz: "UTC" }));
  assert.equal(nextExpected(cron(long, "UTC"), references[0]!), null);
  assert.equal(
    nextExpected({ scheduleType: "interval", schedule: "2", intervalUnit: "hour", timezone: "UTC" }, references[0]!)?.toISOString(),
    "2026-03-29T05:30:00.000Z",
  );
});

test("a next tick after LATEST_EXPECTED_MS (four-digit years) is no tick: a stored ten-thousand-year interval expects nothing more", () => {
  const interval = (count: number, unit: "year" | "month") => ({
    scheduleType: "interval" as const,
    schedule: String(count),
    intervalUnit: unit,
    timezone: "UTC",
  });
  const now = Date.parse("2026-11-30T12:00:00.000Z");
  assert.equal(nextExpected(interval(10_000, "year"), now), null);
  assert.equal(nextExpected(interval(1, "year"), LATEST_EXPECTED_MS), null);
  // Once written "+012026-…", a deadline came back every pass; 275,760 years on, the Date was invalid and threw.
  assert.equal(nextExpected(interval(1, "year"), Date.parse("+275760-01-01T00:00:00.000Z")), null);
  assert.equal(nextExpected(interval(1, "year"), Number.NaN), null);
  assert.equal(nextExpected(interval(7_000, "year"), now)?.toISOString(), "9026-11-30T12:00:00.000Z");
  assert.equal(nextExpected(interval(10_000, "month"), now)?.toISOString(), "2860-03-30T12:00:00.000Z");
  assert.equal(nextExpected({ scheduleType: "crontab", schedule: "0 0 1 1 *", intervalUnit: null, timezone: "UTC" }, LATEST_EXPECTED_MS + 60_000), null);
});
