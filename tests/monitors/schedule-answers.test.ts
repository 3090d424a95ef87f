// Crontab and time zone checks (core/monitor-schedule.ts) are remembered for the digest, a bounded number of them:
// asked again, past the bound, or with a string no schedule has, each answer is the one a fresh check gives.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MONITOR_LIMITS } from "../../src/config/limits";
import { crontabProblem, isTimeZone } from "../../src/core/monitor-schedule";

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
