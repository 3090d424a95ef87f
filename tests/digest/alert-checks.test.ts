// Each condition and filter of issue alert rules, as Sentry's rule classes decide them (src/digest/alert-checks.ts).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  AGE_FILTER,
  ASSIGNED_FILTER,
  EVENT_FREQUENCY,
  FIRST_SEEN,
  ISSUE_CATEGORY_FILTER,
  LATEST_RELEASE_FILTER,
  LEVEL_FILTER,
  OCCURRENCES_FILTER,
  REAPPEARED,
  REGRESSION,
  type RuleFilter,
  TAGGED_FILTER,
  type TagMatch,
} from "../../src/core/alert-rule-schema";
import { type EventFacts, type IssueFacts, conditionPasses, filterPasses, matchList, tagMatches } from "../../src/digest/alert-checks";

const event: EventFacts = {
  level: "error",
  release: "app@2.0.0",
  tags: [
    ["browser", "Firefox 130"],
    ["release", "app@2.0.0"],
    ["Server", "Web-1"],
  ],
  isNew: false,
  isRegression: false,
  hasReappeared: false,
  category: "1",
};
const issue: IssueFacts = { firstSeen: "2026-01-01T00:00:00.000Z", timesSeen: 10, assigneeId: null, assigneeTeamId: null };
const now = new Date("2026-01-03T00:00:00.000Z");
const lookups = { frequency: async () => true, latestRelease: async () => "app@2.0.0" };
const passes = (f: RuleFilter, e = event, i = issue) => filterPasses(f, e, i, now, lookups);

describe("issue 17 rules: conditions and filters", () => {
  test("state conditions pass for the event that made the state; frequency ones ask the count, unless first-time-only fired", async () => {
    assert.equal(await conditionPasses({ id: FIRST_SEEN }, { ...event, isNew: true }, false, lookups), true);
    assert.equal(await conditionPasses({ id: FIRST_SEEN }, event, false, lookups), false);
    assert.equal(await conditionPasses({ id: REGRESSION }, { ...event, isRegression: true }, false, lookups), true);
    assert.equal(await conditionPasses({ id: REAPPEARED }, { ...event, hasReappeared: true }, false, lookups), true);
    const freq = { id: EVENT_FREQUENCY, value: 1, interval: "1m", comparisonType: "count", firstTimeOnly: true } as const;
    assert.equal(await conditionPasses(freq, event, false, lookups), true);
    assert.equal(await conditionPasses(freq, event, true, lookups), false);
    assert.equal(await conditionPasses({ ...freq, firstTimeOnly: false }, event, true, lookups), true);
  });

  test("issue 19 issue category: 1 keeps errors, 4 monitor failures, 6 feedback (sentry GroupCategory)", async () => {
    assert.equal(await passes({ id: ISSUE_CATEGORY_FILTER, value: "1" }), true);
    assert.equal(await passes({ id: ISSUE_CATEGORY_FILTER, value: "6" }), false);
    assert.equal(await passes({ id: ISSUE_CATEGORY_FILTER, value: "6" }, { ...event, category: "6" }), true);
    assert.equal(await passes({ id: ISSUE_CATEGORY_FILTER, value: "4" }, { ...event, category: "4" }), true);
    assert.equal(await passes({ id: ISSUE_CATEGORY_FILTER, value: "1" }, { ...event, category: "4" }), false);
  });

  test("level: equal, at least, at most, by Sentry's numbers", async () => {
    assert.equal(await passes({ id: LEVEL_FILTER, match: "eq", level: "40" }), true);
    assert.equal(await passes({ id: LEVEL_FILTER, match: "gte", level: "50" }), false);
    assert.equal(await passes({ id: LEVEL_FILTER, match: "gte", level: "30" }), true);
    assert.equal(await passes({ id: LEVEL_FILTER, match: "lte", level: "30" }), false);
    assert.equal(await passes({ id: LEVEL_FILTER, match: "lte", level: "40" }, { ...event, level: "warning" }), true);
  });

  test("tags: keys and values in any case; each match type; a missing tag passes only 'not set'", () => {
    const cases: [string, TagMatch, string, boolean][] = [
      ["browser", "eq", "firefox 130", true],
      ["browser", "ne", "Firefox 130", false],
      ["browser", "sw", "fire", true],
      ["browser", "nsw", "fire", false],
      ["browser", "ew", "130", true],
      ["browser", "new", "130", false],
      ["browser", "co", "fox", true],
      ["browser", "nc", "chrome", true],
      ["browser", "is", "", true],
      ["browser", "ns", "", false],
      ["os", "ns", "", true],
      ["os", "ne", "linux", false],
      ["os", "is", "", false],
      ["SERVER", "in", "web-2, web-1", true],
      ["server", "nin", "web-2,web-3", true],
      ["release", "eq", "app@2.0.0", true],
    ];
    for (const [key, match, value, want] of cases) assert.equal(tagMatches(event.tags, key, match, value), want, `${key} ${match} ${value}`);
  });

  test("release: the latest one, or a given one (TaggedEventFilter key release)", async () => {
    assert.equal(await passes({ id: LATEST_RELEASE_FILTER }), true);
    assert.equal(await passes({ id: LATEST_RELEASE_FILTER }, { ...event, release: "app@1.0.0" }), false);
    assert.equal(await passes({ id: LATEST_RELEASE_FILTER }, { ...event, release: null }), false);
    assert.equal(await passes({ id: TAGGED_FILTER, key: "release", match: "eq", value: "app@2.0.0" }), true);
  });

  test("age, occurrences and assignee", async () => {
    assert.equal(await passes({ id: AGE_FILTER, comparison_type: "older", value: 1, time: "day" }), true);
    assert.equal(await passes({ id: AGE_FILTER, comparison_type: "newer", value: 1, time: "day" }), false);
    assert.equal(await passes({ id: AGE_FILTER, comparison_type: "newer", value: 1, time: "week" }), true);
    assert.equal(await passes({ id: OCCURRENCES_FILTER, value: 10 }), true);
    assert.equal(await passes({ id: OCCURRENCES_FILTER, value: 11 }), false);
    assert.equal(await passes({ id: ASSIGNED_FILTER, targetType: "Unassigned", targetIdentifier: null }), true);
    assert.equal(await passes({ id: ASSIGNED_FILTER, targetType: "Member", targetIdentifier: "u1" }, event, { ...issue, assigneeId: "u1" }), true);
    assert.equal(await passes({ id: ASSIGNED_FILTER, targetType: "Team", targetIdentifier: "7" }, event, { ...issue, assigneeTeamId: 7 }), true);
    assert.equal(await passes({ id: ASSIGNED_FILTER, targetType: "Unassigned", targetIdentifier: null }, event, { ...issue, assigneeTeamId: 7 }), false);
  });

  test("all, any and none of a list; an empty list passes", async () => {
    const yes = async (b: boolean) => b;
    assert.equal(await matchList([true, false], "all", yes), false);
    assert.equal(await matchList([true, false], "any", yes), true);
    assert.equal(await matchList([false, false], "none", yes), true);
    assert.equal(await matchList([true], "none", yes), false);
    assert.equal(await matchList([], "all", yes), true);
  });
});
