// Triage storage, run by conformance.ts on each dialect: daily counters and user counts kept by the digest, the
// issue list's sorts with keyset pages that neither repeat nor skip an issue, the assignee and environment filters,
// assignment and comments, one tag's values, and an event's neighbours in its issue.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "kysely";
import { STREAM_LIMITS } from "../../src/config/limits";
import { parseIssueQuery } from "../../src/core/issue-query";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { Issue, IssueSort } from "../../src/storage/issue-ports";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";
import { digestedEvent } from "../helpers/digested-event";

type Fixture = { t: TestCore; alice: User };

export function triageConformance(get: () => Fixture) {
  async function project() {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("tr"), name: "TR", ownerUserId: alice.id });
    return t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
  }
  const event = (projectId: number, hash: string, over: Partial<DigestedEvent> = {}) => digestedEvent("ValueError", projectId, hash, over);
  const write = (events: DigestedEvent[]) => writeBatch(get().t.store, { spoolId: uniq("spool"), position: 1, events, rawItems: [], outcomes: [] });
  const issueOf = async (projectId: number, hash: string) =>
    (await get().t.store.listIssues(projectId, { page: { limit: 100 } })).items.find((i) => i.title === `ValueError ${hash}`)!;

  test("triage: events per day next to per hour; user counts count each user once per issue, across batches", async () => {
    const { t } = get();
    const p = await project();
    await write([
      event(p.id, "d", { timestamp: "2026-11-22T23:30:00.000Z", userKey: "id:1" }),
      event(p.id, "d", { timestamp: "2026-11-23T00:10:00.000Z", userKey: "id:1" }),
      event(p.id, "d", { timestamp: "2026-11-23T05:00:00.000Z", userKey: "id:2" }),
    ]);
    await write([
      event(p.id, "d", { timestamp: "2026-11-23T06:00:00.000Z", userKey: "id:2" }),
      event(p.id, "d", { timestamp: "2026-11-23T07:00:00.000Z", userKey: "id:3" }),
    ]);
    const issue = await issueOf(p.id, "d");
    assert.equal(issue.userCount, 3, "id:1 and id:2 came back; only id:3 is new in the second batch");
    assert.equal((await t.store.getIssue(issue.id))?.userCount, 3);
    const days = await t.store.issueDailyCountsOf([issue.id], "2026-11-01");
    assert.deepEqual(days.get(issue.id), [
      { day: "2026-11-22", count: 1 },
      { day: "2026-11-23", count: 4 },
    ]);
    assert.deepEqual((await t.store.issueDailyCountsOf([issue.id], "2026-11-23")).get(issue.id), [{ day: "2026-11-23", count: 4 }]);
  });

  test("triage: every sort pages through all issues, most first, ties broken by id, without repeats", async () => {
    const { t } = get();
    const p = await project();
    // Five issues; equal values in each sort column so that ties cross page boundaries.
    const spec = [
      { hash: "s1", events: 3, users: 1, first: "2026-11-20T10:00:00.000Z", last: "2026-11-23T10:00:00.000Z" },
      { hash: "s2", events: 1, users: 1, first: "2026-11-21T10:00:00.000Z", last: "2026-11-23T10:00:00.000Z" },
      { hash: "s3", events: 3, users: 3, first: "2026-11-21T10:00:00.000Z", last: "2026-11-22T10:00:00.000Z" },
      { hash: "s4", events: 2, users: 0, first: "2026-11-19T10:00:00.000Z", last: "2026-11-23T11:00:00.000Z" },
      { hash: "s5", events: 1, users: 1, first: "2026-11-22T10:00:00.000Z", last: "2026-11-22T10:00:00.000Z" },
    ];
    for (const s of spec) {
      const times = [s.first, ...Array.from({ length: s.events - 2 }, () => s.first), s.last].slice(-s.events);
      if (s.events === 1) times[0] = s.first;
      await write(times.map((ts, i) => event(p.id, s.hash, { timestamp: ts, userKey: i < s.users ? `id:${s.hash}-${i}` : null })));
    }
    const all = (await t.store.listIssues(p.id, { page: { limit: 100 } })).items;
    assert.equal(all.length, 5);
    const value: Record<IssueSort, (i: Issue) => string | number> = {
      date: (i) => i.lastSeen,
      new: (i) => i.firstSeen,
      freq: (i) => i.timesSeen,
      user: (i) => i.userCount,
    };
    for (const sort of ["date", "new", "freq", "user"] as const) {
      const seen: Issue[] = [];
      let cursor: string | null | undefined;
      do {
        const page = await t.store.listIssues(p.id, { sort, page: { limit: 2, cursor } });
        seen.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      const expected = [...all].sort((a, b) => (value[sort](a) < value[sort](b) ? 1 : value[sort](a) > value[sort](b) ? -1 : b.id - a.id));
      assert.deepEqual(
        seen.map((i) => i.id),
        expected.map((i) => i.id),
        sort,
      );
    }
    assert.deepEqual(Object.fromEntries(all.map((i) => [i.title.slice(-2), [i.timesSeen, i.userCount]])), {
      s1: [3, 1],
      s2: [1, 1],
      s3: [3, 3],
      s4: [2, 0],
      s5: [1, 1],
    });
  });

  test("triage: each sort of a project's issues reads an index in order (SQLite's plan has no sort step)", async (ctx) => {
    const { t } = get();
    if (t.db.dialect !== "sqlite") return ctx.skip("query plans are checked on SQLite");
    const p = await project();
    for (const sort of ["date", "new", "freq", "user"] as const) {
      for (const status of [null, "unresolved"] as const) {
        const column = { date: "last_seen", new: "first_seen", freq: "times_seen", user: "user_count" }[sort];
        const where = status ? sql`project_id = ${p.id} and status = ${status}` : sql`project_id = ${p.id}`;
        const plan = await sql<{
          detail: string;
        }>`explain query plan select id from issues where ${where} order by ${sql.ref(column)} desc, id desc limit 26`.execute(t.db.kysely);
        const details = plan.rows.map((r) => r.detail).join("; ");
        assert.match(details, new RegExp(`USING (COVERING )?INDEX issues_project_${status ? "status_" : ""}${column}_idx`), `${sort} ${status}: ${details}`);
        assert.doesNotMatch(details, /TEMP B-TREE/, `${sort} ${status}: ${details}`);
      }
    }
  });

  test("triage: assignment with activity; assignee and environment filters", async () => {
    const { t, alice } = get();
    const p = await project();
    const team = await t.store.createTeam({ organizationId: p.organizationId, slug: uniq("team"), name: "Team" });
    await write([
      event(p.id, "a1", { environment: "production", tags: [["environment", "production"]] }),
      event(p.id, "a2", { environment: "staging", tags: [["environment", "staging"]] }),
      event(p.id, "a3"),
    ]);
    const [a1, a2, a3] = [await issueOf(p.id, "a1"), await issueOf(p.id, "a2"), await issueOf(p.id, "a3")];
    const activity = (type: string) => ({ type, userId: alice.id, data: "{}", createdAt: "2026-11-23T12:00:00.000Z" });
    await t.store.setIssueAssignee(a1.id, { userId: alice.id, teamId: null }, activity("assigned"));
    await t.store.setIssueAssignee(a2.id, { userId: null, teamId: team.id }, activity("assigned"));
    const got = await t.store.getIssue(a2.id);
    assert.deepEqual([got?.assigneeId, got?.assigneeTeamId], [null, team.id]);
    assert.deepEqual(
      (await t.store.issueActivity(a2.id)).map((a) => [a.type, a.userId]),
      [
        ["first_seen", null],
        ["assigned", alice.id],
      ],
    );
    const titles = async (filter: Parameters<typeof t.store.listIssues>[1]["filter"]) =>
      (await t.store.listIssues(p.id, { filter, page: { limit: 10 } })).items.map((i) => i.title.slice(-2)).sort();
    const base = { status: null, level: null, tags: [], text: [] };
    const cond = (over: object) => ({ userIds: [], teamIds: [], none: false, any: false, ...over });
    assert.deepEqual(await titles({ ...base, assignee: [cond({ userIds: [alice.id] })] }), ["a1"]);
    assert.deepEqual(await titles({ ...base, assignee: [cond({ teamIds: [team.id] })] }), ["a2"]);
    assert.deepEqual(await titles({ ...base, assignee: [cond({ any: true })] }), ["a1", "a2"]);
    assert.deepEqual(await titles({ ...base, assignee: [cond({ none: true })] }), ["a3"]);
    assert.deepEqual(await titles({ ...base, assignee: [cond({ userIds: [alice.id], none: true })] }), ["a1", "a3"]);
    assert.deepEqual(await titles({ ...base, assignee: [cond({ any: true }), cond({ userIds: [alice.id] })] }), ["a1"], "conditions all hold");
    assert.deepEqual(await titles({ ...base, assignee: [cond({})] }), [], "naming nobody who exists matches nothing");
    assert.deepEqual(await titles({ ...base, environments: ["production", "staging"] }), ["a1", "a2"]);
    assert.deepEqual(await titles({ ...base, environments: ["staging"] }), ["a2"]);
    await t.store.setIssueAssignee(a1.id, { userId: null, teamId: null }, activity("unassigned"));
    assert.equal((await t.store.getIssue(a1.id))?.assigneeId, null);
    await t.store.deleteTeam(p.organizationId, team.id);
    assert.equal((await t.store.getIssue(a2.id))?.assigneeTeamId, null, "a deleted team's issues become unassigned");
    assert.equal(a3.numComments, 0);
  });

  test("triage: comments are note activity, counted on the issue, listed newest first, edited and deleted", async () => {
    const { t, alice } = get();
    const p = await project();
    await write([event(p.id, "c1")]);
    const issue = await issueOf(p.id, "c1");
    const note = (text: string, at: string) => ({ type: "note", userId: alice.id, data: JSON.stringify({ text }), createdAt: at });
    const first = await t.store.addIssueActivity(issue.id, note("first", "2026-11-23T12:00:00.000Z"));
    const second = await t.store.addIssueActivity(issue.id, note("second", "2026-11-23T12:01:00.000Z"));
    assert.deepEqual([first.type, first.userId, first.data], ["note", alice.id, { text: "first" }]);
    assert.equal((await t.store.getIssue(issue.id))?.numComments, 2);
    assert.equal((await t.store.listIssues(p.id, { page: { limit: 10 } })).items[0]?.numComments, 2);
    const page1 = await t.store.listIssueActivity(issue.id, "note", { limit: 1 });
    assert.deepEqual(
      page1.items.map((a) => a.data.text),
      ["second"],
    );
    const page2 = await t.store.listIssueActivity(issue.id, "note", { limit: 1, cursor: page1.nextCursor });
    assert.deepEqual([page2.items.map((a) => a.data.text), page2.nextCursor], [["first"], null]);
    await t.store.updateIssueActivityData(issue.id, first.id, JSON.stringify({ text: "edited" }));
    assert.deepEqual((await t.store.getIssueActivity(issue.id, first.id))?.data, { text: "edited" });
    const other = await project();
    await write([event(other.id, "c2")]);
    const otherIssue = await issueOf(other.id, "c2");
    assert.equal(await t.store.getIssueActivity(otherIssue.id, first.id), null, "an entry is found through its own issue only");
    await t.store.deleteIssueActivity(otherIssue.id, second.id);
    assert.ok(await t.store.getIssueActivity(issue.id, second.id), "nor deleted through another");
    await t.store.deleteIssueActivity(issue.id, second.id);
    assert.equal((await t.store.getIssue(issue.id))?.numComments, 1);
  });

  test("triage: one tag's values, most frequent first, in offset pages", async () => {
    const { t } = get();
    const p = await project();
    const browsers = ["Chrome", "Chrome", "Chrome", "Firefox", "Firefox", "Safari", "Edge"];
    await write(browsers.map((b) => event(p.id, "t1", { tags: [["browser", b]] })));
    const issue = await issueOf(p.id, "t1");
    const first = await t.store.issueTagValues(issue.id, "browser", { limit: 3 });
    assert.deepEqual(
      first.items.map((v) => [v.value, v.count]),
      [
        ["Chrome", 3],
        ["Firefox", 2],
        ["Edge", 1],
      ],
    );
    const rest = await t.store.issueTagValues(issue.id, "browser", { limit: 3, cursor: first.nextCursor });
    assert.deepEqual([rest.items.map((v) => v.value), rest.nextCursor], [["Safari"], null]);
    assert.deepEqual((await t.store.issueTagValues(issue.id, "nope", { limit: 3 })).items, []);
  });

  test("triage: an issue's event by id, and its next (newer) and previous (older) events", async () => {
    const { t } = get();
    const p = await project();
    const events = [event(p.id, "e1"), event(p.id, "e1"), event(p.id, "e1")];
    await write(events);
    const issue = await issueOf(p.id, "e1");
    const [a, b, c] = events.map((e) => e.eventId) as [string, string, string];
    const middle = await t.store.issueEventById(issue.id, b);
    assert.equal(middle?.eventId, b);
    assert.deepEqual(await t.store.issueEventNeighbours(issue.id, middle!.id), { next: c, previous: a });
    const oldest = (await t.store.issueEventById(issue.id, a))!;
    assert.deepEqual(await t.store.issueEventNeighbours(issue.id, oldest.id), { next: b, previous: null });
    const other = await project();
    await write([event(other.id, "e2")]);
    assert.equal(await t.store.issueEventById((await issueOf(other.id, "e2")).id, a), null);
  });

  test("triage: an issue's ends and neighbours within environments", async () => {
    const { t } = get();
    const p = await project();
    const envs = ["production", "staging", "production", null, "staging"];
    const events = envs.map((environment) => event(p.id, "env1", { environment }));
    await write(events);
    const issue = await issueOf(p.id, "env1");
    const [a, b, c, d, e] = events.map((x) => x.eventId) as [string, string, string, string, string];
    assert.equal((await t.store.issueEventAt(issue.id, "latest", ["production"]))?.eventId, c);
    assert.equal((await t.store.issueEventAt(issue.id, "oldest", ["staging"]))?.eventId, b);
    assert.equal((await t.store.issueEventAt(issue.id, "latest", ["staging", "production"]))?.eventId, e);
    assert.equal((await t.store.issueEventAt(issue.id, "latest", []))?.eventId, e);
    assert.equal(await t.store.issueEventAt(issue.id, "latest", ["nowhere"]), null);
    const rowOf = async (id: string) => (await t.store.issueEventById(issue.id, id))!.id;
    assert.deepEqual(await t.store.issueEventNeighbours(issue.id, await rowOf(c), ["production"]), { next: null, previous: a });
    assert.deepEqual(await t.store.issueEventNeighbours(issue.id, await rowOf(b), ["staging"]), { next: e, previous: null });
    // The event itself need not be of the environment: its neighbours are.
    assert.deepEqual(await t.store.issueEventNeighbours(issue.id, await rowOf(d), ["production"]), { next: null, previous: c });
    assert.deepEqual(await t.store.issueEventNeighbours(issue.id, await rowOf(d)), { next: e, previous: c });
  });

  test("triage: an issue's event times and newest events within one environment", async () => {
    const { t } = get();
    const p = await project();
    const at = ["2026-11-20T10:00:00.000Z", "2026-11-21T10:00:00.000Z", "2026-11-22T10:00:00.000Z", "2026-11-22T11:00:00.000Z"];
    const events = at.map((timestamp, i) => event(p.id, "env2", { timestamp, environment: i === 2 ? "staging" : "production" }));
    await write(events);
    const issue = await issueOf(p.id, "env2");
    assert.deepEqual((await t.store.issueEventTimesIn(issue.id, "production", "2026-11-21T00:00:00Z")).sort(), [at[1], at[3]]);
    assert.deepEqual(await t.store.issueEventTimesIn(issue.id, "nowhere", "2026-11-01T00:00:00Z"), []);
    const newest = await t.store.latestIssueEventsIn(issue.id, "production", 2);
    assert.deepEqual(
      newest.map((e) => e.eventId),
      [events[3]!.eventId, events[1]!.eventId],
    );
    assert.equal(newest[0]!.data, events[3]!.data);
  });

  test("triage: the longest issue search the API takes (STREAM_LIMITS.maxQueryTerms words, or as many tag terms) runs on each dialect", async () => {
    const { t } = get();
    const p = await project();
    await write([event(p.id, "q", { tags: [["browser", "Chrome"]] })]);
    const words = Array.from({ length: STREAM_LIMITS.maxQueryTerms }, (_, i) => `w${i}`).join(" ");
    const tagTerms = Array.from({ length: STREAM_LIMITS.maxQueryTerms }, (_, i) => `browser:b${i}`).join(" ");
    for (const query of [words, tagTerms, `ValueError ${"q ".repeat(STREAM_LIMITS.maxQueryTerms - 1)}`.trim()]) {
      const { assigned: _assigned, ...filter } = parseIssueQuery(query);
      const page = await t.store.listIssues(p.id, { filter, page: { limit: 10 } });
      assert.equal(page.items.length, query.startsWith("ValueError") ? 1 : 0, query.slice(0, 40));
    }
  });
}
