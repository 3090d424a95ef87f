// Sentry's issue status model as Faultline applies it: PUT bodies, regressions by release, and snooze ends.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isAppError } from "../../src/core/errors";
import { type Resolution, compareSemver, isRegression, parseStatusUpdate, snoozeEnded, statusChange, statusDetails } from "../../src/core/issue-status";

const now = new Date("2026-11-23T10:00:00.000Z");
const totals = { timesSeen: 10, userCount: 3 };
const change = (body: unknown, latest: string | null = "web@2.0.0") => statusChange(parseStatusUpdate(body)!, totals, latest, now);

describe("status updates", () => {
  test("resolved, in a release (or the latest), in the next release, unresolved", () => {
    assert.deepEqual([change({ status: "resolved" }).resolution?.type, change({ status: "resolved" }).activity.type], ["now", "set_resolved"]);
    assert.deepEqual(change({ status: "resolved", statusDetails: { inRelease: "latest" } }).resolution, {
      type: "in_release",
      release: "web@2.0.0",
      at: now.toISOString(),
    });
    assert.equal(change({ status: "resolvedInNextRelease" }).resolution?.type, "in_next_release");
    assert.deepEqual(statusDetails(change({ status: "resolved", statusDetails: { inNextRelease: true } }).resolution, null), { inNextRelease: true });
    assert.deepEqual([change({ status: "unresolved" }).status, change({ status: "unresolved" }).substatus], ["unresolved", "ongoing"]);
  });
  test("ignored forever, for a while, until a count or users; windows at most 7 days and only with their count", () => {
    assert.deepEqual([change({ status: "ignored" }).substatus, change({ status: "ignored" }).snooze], ["archived_forever", null]);
    const timed = change({ status: "muted", statusDetails: { ignoreDuration: 30 } });
    assert.equal(timed.snooze?.until, "2026-11-23T10:30:00.000Z");
    assert.equal(timed.substatus, "archived_until_condition_met");
    assert.deepEqual(change({ status: "ignored", statusDetails: { ignoreCount: 100, ignoreWindow: 60 } }).snooze?.baseline, totals);
    // Given the whole issue (as the core does), the baseline keeps its two counts and nothing else of it.
    const row = { ...totals, id: 7, title: "TypeError", snooze: JSON.stringify({ baseline: { snooze: "…" } }) };
    assert.deepEqual(statusChange(parseStatusUpdate({ status: "ignored", statusDetails: { ignoreCount: 5 } })!, row, null, now).snooze?.baseline, totals);
    const refused = [
      { status: "ignored", statusDetails: { ignoreWindow: 60 } },
      { status: "ignored", statusDetails: { ignoreCount: 5, ignoreWindow: 20_000 } },
      { status: "reopened" },
    ];
    for (const body of refused)
      assert.throws(
        () => change(body),
        (e: unknown) => isAppError(e) && e.code === "bad_request",
        JSON.stringify(body),
      );
    assert.throws(
      () => change({ status: "resolvedInNextRelease" }, null),
      (e: unknown) => isAppError(e) && e.code === "bad_request",
    );
    assert.equal(parseStatusUpdate({ hasSeen: true }), null);
  });
});

describe("regressions", () => {
  const bySemver = (a: string, b: string) => compareSemver(a, b) ?? 0;
  const res = (type: Resolution["type"], release: string | null): Resolution => ({ type, release, at: now.toISOString() });
  test("resolved without a release: any new event regresses", () => {
    assert.equal(isRegression(res("now", null), "web@1.0.0", bySemver), true);
    assert.equal(isRegression(null, null, bySemver), true);
  });
  test("resolved in a release: that release or a newer one regresses; older ones and events without a release do not", () => {
    const r = res("in_release", "web@2.0.0");
    assert.deepEqual(
      ["web@1.9.0", "web@2.0.0", "web@2.0.1"].map((v) => isRegression(r, v, bySemver)),
      [false, true, true],
    );
    assert.equal(isRegression(r, null, bySemver), false);
  });
  test("resolved in the next release: only releases newer than the current one regress", () => {
    const r = res("in_next_release", "web@2.0.0");
    assert.deepEqual(
      ["web@1.9.0", "web@2.0.0", "web@2.1.0"].map((v) => isRegression(r, v, bySemver)),
      [false, false, true],
    );
  });
  test("semantic versions: package prefixes, pre-releases before releases", () => {
    assert.equal(compareSemver("app@1.10.0", "app@1.9.9"), 1);
    assert.equal(compareSemver("1.0.0-rc.1", "1.0.0"), -1);
    assert.equal(compareSemver("abc123", "1.0.0"), null);
  });
});

describe("snoozes", () => {
  const snooze = { until: null, count: null, window: null, userCount: null, userWindow: null, baseline: totals, at: now.toISOString() };
  const counts = { timesSeen: 10, userCount: 3, eventsInWindow: 0, usersInWindow: 0 };
  test("until a time, until N more events (or N in a window), until N more users", () => {
    assert.equal(snoozeEnded({ ...snooze, until: "2026-11-23T09:59:00.000Z" }, now, counts), "expired");
    assert.equal(snoozeEnded({ ...snooze, until: "2026-11-23T11:00:00.000Z" }, now, counts), null);
    assert.equal(snoozeEnded({ ...snooze, count: 5 }, now, { ...counts, timesSeen: 14 }), null);
    assert.equal(snoozeEnded({ ...snooze, count: 5 }, now, { ...counts, timesSeen: 15 }), "escalating");
    assert.equal(snoozeEnded({ ...snooze, count: 5, window: 60 }, now, { ...counts, timesSeen: 99, eventsInWindow: 4 }), null);
    assert.equal(snoozeEnded({ ...snooze, userCount: 2 }, now, { ...counts, userCount: 5 }), "escalating");
  });
});
