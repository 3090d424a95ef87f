// When the weekly summary is due (issue 17, "People"): Monday from 08:00 in each person's own time zone, for a day,
// covering the week that just ended there, with a fixed `now` (no clocks read).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { crashFreeRate, isoWeek, summaryDue } from "../../src/core/weekly-summary";

const at = (iso: string) => new Date(iso);

describe("issue 17 people: weekly summary due time", () => {
  test("issue 17 people: Monday 08:00 in Pacific/Auckland comes 21 hours before Monday 08:00 in America/Los_Angeles; each gets its own week's bounds", () => {
    // Auckland is UTC+13 in November (daylight saving time): Monday 2026-11-23 08:00 there is Sunday 19:00 UTC.
    assert.equal(summaryDue(at("2026-11-22T18:59:00Z"), "Pacific/Auckland"), null, "07:59 on Monday is too early");
    assert.deepEqual(summaryDue(at("2026-11-22T19:00:00Z"), "Pacific/Auckland"), {
      week: "2026-W47",
      from: "2026-11-16",
      to: "2026-11-22",
      start: "2026-11-15T11:00:00.000Z",
      end: "2026-11-22T11:00:00.000Z",
    });
    assert.equal(summaryDue(at("2026-11-22T19:00:00Z"), "America/Los_Angeles"), null, "it is Sunday 11:00 in Los Angeles");
    // Los Angeles is UTC−8 in November: Monday 08:00 there is 16:00 UTC.
    assert.equal(summaryDue(at("2026-11-23T15:59:00Z"), "America/Los_Angeles"), null);
    assert.deepEqual(summaryDue(at("2026-11-23T16:00:00Z"), "America/Los_Angeles"), {
      week: "2026-W47",
      from: "2026-11-16",
      to: "2026-11-22",
      start: "2026-11-16T08:00:00.000Z",
      end: "2026-11-23T08:00:00.000Z",
    });
    // Still due (a server down on Monday morning) until Tuesday 08:00 there, never after.
    assert.equal(summaryDue(at("2026-11-23T18:59:00Z"), "Pacific/Auckland")?.week, "2026-W47");
    assert.equal(summaryDue(at("2026-11-23T19:00:00Z"), "Pacific/Auckland"), null);
    assert.equal(summaryDue(at("2026-11-25T12:00:00Z"), "America/Los_Angeles"), null, "Wednesday");
  });

  test("issue 17 people: no time zone is UTC; a week across a change of daylight saving time ends at local midnight", () => {
    assert.equal(summaryDue(at("2026-11-23T07:59:00Z"), null), null);
    assert.equal(summaryDue(at("2026-11-23T08:00:00Z"), null)?.start, "2026-11-16T00:00:00.000Z");
    // Los Angeles moves to UTC−7 on Sunday 2026-03-08: the week began at 08:00 UTC and ends at 07:00 UTC.
    const week = summaryDue(at("2026-03-09T15:30:00Z"), "America/Los_Angeles");
    assert.deepEqual(week && [week.week, week.start, week.end], ["2026-W10", "2026-03-02T08:00:00.000Z", "2026-03-09T07:00:00.000Z"]);
    // New Year: the week of 2026-12-28 is 2026's 53rd.
    assert.equal(summaryDue(at("2027-01-04T09:00:00Z"), "Europe/Berlin")?.week, "2026-W53");
    assert.equal(isoWeek(new Date(Date.UTC(2027, 0, 4))), "2027-W01");
  });

  test("issue 17 people: crash-free sessions as Sentry computes them, none without sessions", () => {
    assert.equal(crashFreeRate(0, 0), null);
    assert.equal(crashFreeRate(200, 3), 98.5);
    assert.equal(crashFreeRate(3, 1), 66.667);
  });
});
