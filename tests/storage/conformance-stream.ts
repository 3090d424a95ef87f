// The issue stream's storage, run by conformance.ts on each dialect: an organization's issues across projects with
// cursors forward and back, the live poll (new issues above an id, the figures of watched issues, bounded), and the
// values the search suggests.
import assert from "node:assert/strict";
import { test } from "node:test";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { IssueSort } from "../../src/storage/issue-ports";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";
import { digestedEvent } from "../helpers/digested-event";

type Fixture = { t: TestCore; alice: User };

export function streamConformance(get: () => Fixture) {
  async function org() {
    const { t, alice } = get();
    const o = await t.store.createOrganization({ slug: uniq("st"), name: "ST", ownerUserId: alice.id });
    const project = () => t.store.createProject({ organizationId: o.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    return { o, a: await project(), b: await project() };
  }
  const event = (projectId: number, hash: string, over: Partial<DigestedEvent> = {}) => digestedEvent("StreamError", projectId, hash, over);
  const write = (events: DigestedEvent[]) => writeBatch(get().t.store, { spoolId: uniq("spool"), position: 1, events, rawItems: [], outcomes: [] });
  const base = { status: null, level: null, tags: [] as [string, string][], text: [] as string[] };

  test("stream: an organization's issues across projects, in each sort, paged forward and back without repeats", async () => {
    const { t } = get();
    const { a, b } = await org();
    const other = await org();
    const hashes = ["x1", "x2", "x3", "x4", "x5", "x6", "x7"];
    for (const [i, h] of hashes.entries()) {
      const at = `2026-11-2${i % 3}T1${i}:00:00.000Z`;
      await write(Array.from({ length: (i % 3) + 1 }, () => event(i % 2 ? a.id : b.id, h, { timestamp: at, receivedAt: at })));
    }
    await write([event(other.a.id, "elsewhere")]);
    const all = (await t.store.listIssues([a.id, b.id], { filter: base, page: { limit: 100 } })).items;
    assert.deepEqual(all.map((i) => i.title.slice(-2)).sort(), hashes, "both projects, no other organization");
    assert.deepEqual(new Set(all.map((i) => i.projectId)), new Set([a.id, b.id]));
    for (const sort of ["date", "new", "freq", "user"] as IssueSort[]) {
      const pages: { ids: number[]; cursor: string | null | undefined; previous: { cursor: string | null } | null }[] = [];
      let cursor: string | null | undefined;
      do {
        const page = await t.store.listIssues([a.id, b.id], { filter: base, sort, page: { limit: 3, cursor } });
        pages.push({ ids: page.items.map((i) => i.id), cursor, previous: page.previous });
        cursor = page.nextCursor;
      } while (cursor);
      assert.equal(pages.flatMap((p) => p.ids).length, 7, sort);
      assert.equal(new Set(pages.flatMap((p) => p.ids)).size, 7, sort);
      assert.equal(pages[0]!.previous, null, "the first page has none before it");
      assert.deepEqual(pages[1]!.previous, { cursor: null }, "the second page's previous is the first page");
      assert.deepEqual(pages[2]!.previous, { cursor: pages[1]!.cursor }, "the third page's previous is the second page");
      const back = await t.store.listIssues([a.id, b.id], { filter: base, sort, page: { limit: 3, cursor: pages[2]!.previous!.cursor } });
      assert.deepEqual(
        back.items.map((i) => i.id),
        pages[1]!.ids,
        `${sort}: the previous cursor reads the same page again`,
      );
    }
    assert.deepEqual((await t.store.listIssues([], { filter: base, page: { limit: 10 } })).items, [], "no projects, no issues");
    assert.equal((await t.store.listIssues(a.id, { filter: base, page: { limit: 100 } })).items.length, 3, "one project alone");
  });

  test("stream: the poll counts new issues matching the filter above an id, bounded, and reads only watched issues of its projects", async () => {
    const { t } = get();
    const { a, b } = await org();
    const other = await org();
    assert.equal(await t.store.newestIssueId([a.id, b.id]), 0);
    await write([event(a.id, "old"), event(other.a.id, "foreign")]);
    const old = (await t.store.listIssues(a.id, { filter: base, page: { limit: 10 } })).items[0]!;
    const foreign = (await t.store.listIssues(other.a.id, { filter: base, page: { limit: 10 } })).items[0]!;
    const start = await t.store.newestIssueId([a.id, b.id]);
    assert.equal(start, old.id);
    const quiet = await t.store.issueStreamTick([a.id, b.id], { filter: base, afterId: start, watchIds: [old.id, foreign.id], cap: 10 });
    assert.deepEqual(
      quiet,
      { newIssues: 0, newestId: start, watched: [{ id: old.id, timesSeen: 1, userCount: 0, lastSeen: old.lastSeen, status: "unresolved" }] },
      "another organization's issue is never read",
    );

    await write([
      event(a.id, "old", { timestamp: "2026-11-23T11:00:00.000Z", userKey: "id:1" }),
      event(b.id, "n1", { level: "warning" }),
      event(a.id, "n2"),
      event(b.id, "n3"),
    ]);
    const tick = await t.store.issueStreamTick([a.id, b.id], { filter: base, afterId: start, watchIds: [old.id], cap: 10 });
    assert.equal(tick.newIssues, 3);
    assert.ok(tick.newestId > start);
    assert.deepEqual(
      tick.watched.map((w) => [w.timesSeen, w.userCount, w.lastSeen]),
      [[2, 1, "2026-11-23T11:00:00.000Z"]],
    );
    assert.equal(
      (await t.store.issueStreamTick([a.id, b.id], { filter: { ...base, level: "error" }, afterId: start, watchIds: [], cap: 10 })).newIssues,
      2,
      "the filter applies",
    );
    assert.equal((await t.store.issueStreamTick([a.id, b.id], { filter: base, afterId: start, watchIds: [], cap: 2 })).newIssues, 2, "counted up to the cap");
    assert.equal(
      (await t.store.issueStreamTick([b.id], { filter: base, afterId: start, watchIds: [old.id], cap: 10 })).watched.length,
      0,
      "a watched issue outside the projects is not read",
    );
    assert.equal(await t.store.newestIssueId([a.id, b.id]), tick.newestId);
  });

  test("stream: search values are the releases and environments of the given projects only", async () => {
    const { t } = get();
    const { o, a, b } = await org();
    await write([event(a.id, "r1", { release: "app@1.0.0", environment: "production" }), event(b.id, "r2", { release: "app@2.0.0", environment: "staging" })]);
    const values = await t.store.issueSearchValues(o.id, [a.id, b.id], 10);
    assert.deepEqual(values.releases.sort(), ["app@1.0.0", "app@2.0.0"]);
    assert.deepEqual(values.environments, ["production", "staging"]);
    assert.deepEqual(await t.store.issueSearchValues(o.id, [a.id], 10), { releases: ["app@1.0.0"], environments: ["production"] });
    assert.equal((await t.store.issueSearchValues(o.id, [a.id, b.id], 1)).releases.length, 1, "bounded");
    assert.deepEqual(await t.store.issueSearchValues(o.id, [], 10), { releases: [], environments: [] });
  });
}
