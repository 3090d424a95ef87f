// The digest's storage contract, run by conformance.ts on each dialect: a batch written with the digest's own
// writeBatch (src/digest/commit.ts), then read back through the stores. The SQL for issues, hashes and counters
// differs between SQLite and PostgreSQL; these tests hold both to the same results.
import assert from "node:assert/strict";
import { test } from "node:test";
import { RETENTION_LIMITS } from "../../src/config/limits";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

export function digestConformance(get: () => Fixture) {
  async function project() {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("dg"), name: "DG", ownerUserId: alice.id });
    return t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
  }
  const event = (projectId: number, eventId: string, over: Partial<DigestedEvent> = {}): DigestedEvent => ({
    projectId,
    eventId,
    type: "error",
    receivedAt: "2026-11-23T10:15:00.000Z",
    timestamp: "2026-11-23T10:15:00.000Z",
    platform: "python",
    level: "error",
    title: `ValueError: ${eventId.slice(0, 4)}`,
    message: "m",
    culprit: "app in main",
    release: "r1",
    environment: "production",
    size: 2,
    data: "{}",
    category: "error",
    grouping: { config: "newstyle:2023-01-11", hashes: ["h-default"] },
    metadata: JSON.stringify({ type: "ValueError", value: "x" }),
    userKey: "id:1",
    tags: [["level", "error"]],
    ...over,
  });
  const hex = (c: string) => c.repeat(32);

  test("digest: a batch, its outcomes and its spool position commit together; events are unique per project and event id", async () => {
    const { t } = get();
    const p = await project();
    const spoolId = uniq("spool");
    assert.equal(await t.store.getSpoolPosition(spoolId), 0);
    const first = await writeBatch(t.store, {
      spoolId,
      position: 10,
      events: [event(p.id, hex("a")), event(p.id, hex("a")), event(p.id, hex("b"), { type: "transaction", category: "transaction", grouping: null })],
      rawItems: [
        {
          projectId: p.id,
          type: "session",
          eventId: null,
          receivedAt: "2026-11-23T10:15:00.000Z",
          headers: "{}",
          payload: Buffer.from([0, 1, 255]),
          category: "session",
          quantity: 1,
        },
      ],
      outcomes: [{ projectId: p.id, hour: "2026-11-23T10:00:00Z", category: "error", outcome: "rate_limited", reason: "key_quota", quantity: 3 }],
    });
    assert.equal(first.duplicates, 1);
    const again = await writeBatch(t.store, {
      spoolId,
      position: 12,
      events: [event(p.id, hex("a"))],
      rawItems: [],
      outcomes: [{ projectId: p.id, hour: "2026-11-23T10:00:00Z", category: "error", outcome: "rate_limited", reason: "key_quota", quantity: 2 }],
    });
    assert.equal(again.duplicates, 1, "a batch written again after a crash stores nothing twice");
    assert.equal(await t.store.getSpoolPosition(spoolId), 12);
    const errors = await t.store.listEvents(p.id, "errors", { limit: 10 });
    assert.deepEqual(
      errors.items.map((e) => e.eventId),
      [hex("a")],
    );
    const transactions = await t.store.listEvents(p.id, "transactions", { limit: 10 });
    assert.deepEqual(
      transactions.items.map((e) => [e.type, e.issueId]),
      [["transaction", null]],
      "transactions belong to no issue",
    );
    const totals = await t.store.outcomeTotals(p.id, "2026-11-23T00:00:00Z");
    const q = (outcome: string, category: string, reason: string) =>
      totals.find((o) => o.outcome === outcome && o.category === category && o.reason === reason)?.quantity;
    assert.equal(q("accepted", "error", ""), 1);
    assert.equal(q("accepted", "transaction", ""), 1);
    assert.equal(q("accepted", "session", ""), 1);
    assert.equal(q("invalid", "error", "duplicate"), 2);
    assert.equal(q("rate_limited", "error", "key_quota"), 5, "increments of the same hour and reason add up");
    const series = await t.store.outcomeSeries(p.id, {
      sinceHour: "2026-11-23T00:00:00Z",
      untilHour: "2026-11-23T23:00:00Z",
      outcomes: ["accepted"],
      categories: ["error", "default"],
    });
    assert.deepEqual(series, [{ hour: "2026-11-23T10:00:00Z", quantity: 1 }]);
  });

  test("events: listed newest first with keyset pages", async () => {
    const { t } = get();
    const p = await project();
    const events = ["1", "2", "3"].map((n) => event(p.id, hex(n), { title: n }));
    await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, events, rawItems: [], outcomes: [] });
    const first = await t.store.listEvents(p.id, "errors", { limit: 2 });
    assert.deepEqual(
      first.items.map((e) => e.title),
      ["3", "2"],
    );
    const rest = await t.store.listEvents(p.id, "errors", { limit: 2, cursor: first.nextCursor });
    assert.deepEqual(
      rest.items.map((e) => e.title),
      ["1"],
    );
    assert.equal(rest.nextCursor, null);
  });

  test("issues: an event joins the issue owning any of its hashes, its other hashes follow; short ids count per project", async () => {
    const { t } = get();
    const p = await project();
    const other = await project();
    const spoolId = uniq("spool");
    const r1 = await writeBatch(t.store, {
      spoolId,
      position: 1,
      events: [
        event(p.id, hex("1"), { grouping: { config: "c", hashes: ["app-1", "sys-1"] } }),
        event(p.id, hex("2"), { grouping: { config: "c", hashes: ["sys-1"] }, timestamp: "2026-11-23T11:00:00.000Z", title: "newest title" }),
        event(p.id, hex("3"), { grouping: { config: "c", hashes: ["msg-9"] }, release: "r2" }),
        event(other.id, hex("4"), { grouping: { config: "c", hashes: ["app-1"] } }),
      ],
      rawItems: [],
      outcomes: [],
    });
    assert.equal(r1.newIssues, 3, "two issues in p (the second event shares a hash), one in the other project");
    const r2 = await writeBatch(t.store, {
      spoolId,
      position: 2,
      events: [event(p.id, hex("5"), { grouping: { config: "c", hashes: ["new-app", "sys-1"] }, userKey: "id:2" })],
      rawItems: [],
      outcomes: [],
    });
    assert.equal(r2.newIssues, 0);
    const issues = await t.store.listIssues(p.id, { page: { limit: 10 } });
    assert.equal(issues.items.length, 2);
    const main = issues.items.find((i) => i.timesSeen === 3)!;
    assert.ok(main, "events 1, 2 and 5 share one issue");
    assert.equal(main.title, "newest title", "the issue shows what its newest event says");
    assert.equal(main.lastSeen, "2026-11-23T11:00:00.000Z");
    assert.equal(main.firstSeen, "2026-11-23T10:15:00.000Z");
    assert.equal(main.userCount, 2);
    assert.equal(main.status, "unresolved");
    assert.equal(main.substatus, "new");
    assert.deepEqual(issues.items.map((i) => i.shortId).sort(), [1, 2]);
    const otherIssues = await t.store.listIssues(other.id, { filter: { status: "unresolved", level: null, tags: [], text: [] }, page: { limit: 10 } });
    assert.deepEqual(
      otherIssues.items.map((i) => i.shortId),
      [1],
      "hashes and short ids are per project",
    );
    // "new-app" now leads to the same issue: an event with only that hash joins it.
    await writeBatch(t.store, {
      spoolId,
      position: 3,
      events: [event(p.id, hex("6"), { grouping: { config: "c", hashes: ["new-app"] } })],
      rawItems: [],
      outcomes: [],
    });
    assert.equal((await t.store.getIssue(main.id))?.timesSeen, 4);
    const stored = await t.store.getEvent(p.id, hex("6"));
    assert.equal(stored?.issueId, main.id);
    assert.deepEqual(
      (await t.store.issueActivity(main.id)).map((a) => a.type),
      ["first_seen"],
    );
    assert.equal((await t.store.listIssues(p.id, { filter: { status: "resolved", level: null, tags: [], text: [] }, page: { limit: 10 } })).items.length, 0);
  });

  test("issue counters: events per hour, users and tag values add up across batches", async () => {
    const { t } = get();
    const p = await project();
    const spoolId = uniq("spool");
    const grouping = { config: "c", hashes: ["counted"] };
    const at = (hour: string) => `2026-11-23T${hour}:30:00.000Z`;
    await writeBatch(t.store, {
      spoolId,
      position: 1,
      events: [
        event(p.id, hex("a"), {
          grouping,
          timestamp: at("09"),
          tags: [
            ["browser", "Firefox"],
            ["level", "error"],
          ],
          userKey: "ip:10.0.0.1",
        }),
        event(p.id, hex("b"), {
          grouping,
          timestamp: at("10"),
          tags: [
            ["browser", "Chrome"],
            ["level", "error"],
          ],
          userKey: "ip:10.0.0.1",
        }),
      ],
      rawItems: [],
      outcomes: [],
    });
    await writeBatch(t.store, {
      spoolId,
      position: 2,
      events: [event(p.id, hex("c"), { grouping, timestamp: at("10"), tags: [["browser", "Chrome"]], userKey: null })],
      rawItems: [],
      outcomes: [],
    });
    const [issue] = (await t.store.listIssues(p.id, { page: { limit: 10 } })).items;
    assert.ok(issue);
    assert.deepEqual(await t.store.issueCounts(issue.id, "2026-11-23T00:00:00Z"), [
      { hour: "2026-11-23T09:00:00Z", count: 1 },
      { hour: "2026-11-23T10:00:00Z", count: 2 },
    ]);
    assert.equal(issue.userCount, 1);
    const tags = await t.store.issueTags(issue.id, 1);
    const browser = tags.find((tag) => tag.key === "browser");
    assert.deepEqual(browser && { total: browser.totalValues, unique: browser.uniqueValues, top: browser.topValues.map((v) => [v.value, v.count]) }, {
      total: 3,
      unique: 2,
      top: [["Chrome", 2]],
    });
    assert.equal(browser?.topValues[0]?.lastSeen, at("10"));
    assert.deepEqual(await t.store.issueTag(issue.id, "browser", 1), browser, "one key reads as in the list");
    for (const tag of await t.store.issueTags(issue.id, 10)) assert.deepEqual(await t.store.issueTag(issue.id, tag.key, 10), tag);
    assert.equal(await t.store.issueTag(issue.id, "nope", 1), null);
  });

  test("issue counters: events since a time, from stored events up to the per-issue cap, from hourly counts beyond it", async () => {
    const { t } = get();
    const p = await project();
    const grouping = { config: "c", hashes: ["windowed"] };
    const events = ["09", "10", "10"].map((hour, i) => event(p.id, hex(String(i)), { grouping, timestamp: `2026-11-23T${hour}:30:00.000Z` }));
    await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, events, rawItems: [], outcomes: [] });
    const [issue] = (await t.store.listIssues(p.id, { page: { limit: 10 } })).items;
    assert.ok(issue);
    const since = (n: number, at: string) => t.store.digestTransaction((tx) => tx.hasEventsSince(issue.id, n, at));
    assert.equal(await since(2, "2026-11-23T10:00:00.000Z"), true);
    assert.equal(await since(3, "2026-11-23T10:00:00.000Z"), false, "the third newest event is older");
    assert.equal(await since(3, "2026-11-23T09:00:00.000Z"), true);
    // Beyond the cap the stored events cannot tell: the hourly counts, from the hour the window starts in.
    const many = RETENTION_LIMITS.eventsPerIssue + 1;
    await t.store.digestTransaction((tx) => tx.countIssueEvents([{ issueId: issue.id, hour: "2026-11-23T11:00:00Z", count: many - 1 }]));
    assert.equal(await since(many, "2026-11-23T10:59:00.000Z"), true, "2 events at 10:xx and 10,000 at 11:xx");
    assert.equal(await since(many, "2026-11-23T11:00:00.000Z"), false);
  });
}
