// Releases and release health, run by conformance.ts on each dialect: the release store (idempotent create, updates,
// keyset pages, search) and session counting through the digest's own writeBatch, read back as health figures.
import assert from "node:assert/strict";
import { test } from "node:test";
import { writeBatch } from "../../src/digest/commit";
import type { SessionAggregate, SessionUpdate } from "../../src/digest/sessions";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

export function releaseConformance(get: () => Fixture) {
  async function org() {
    const { t, alice } = get();
    const o = await t.store.createOrganization({ slug: uniq("rel"), name: "Rel", ownerUserId: alice.id });
    const project = () => t.store.createProject({ organizationId: o.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    return { o, a: await project(), b: await project() };
  }
  const recent = new Date(Date.now() - 3_600_000).toISOString();
  const update = (projectId: number, sessionId: string, over: Partial<SessionUpdate> = {}): SessionUpdate => ({
    kind: "update",
    projectId,
    receivedAt: recent,
    sessionId,
    distinctId: null,
    started: recent,
    status: "ok",
    errors: 0,
    release: "app@1.0.0",
    environment: "production",
    ...over,
  });
  const batch = (spoolId: string, position: number, sessions: (SessionUpdate | SessionAggregate)[]) => ({
    spoolId,
    position,
    events: [],
    rawItems: [],
    outcomes: [],
    sessions,
  });

  test("releases: create is idempotent and adds projects; updates keep what they do not name; delete", async () => {
    const { t } = get();
    const { o, a, b } = await org();
    const first = await t.store.upsertRelease({
      organizationId: o.id,
      version: "web@1.0+build/7",
      projectIds: [a.id],
      createdAt: "2026-11-23T10:00:00.000Z",
      url: "https://ci.example/7",
      releasedAt: null,
    });
    assert.equal(first.created, true);
    assert.deepEqual(
      first.release.projects.map((p) => [p.projectId, p.newIssues, p.firstEvent]),
      [[a.id, 0, null]],
    );
    assert.equal(first.release.url, "https://ci.example/7");
    const again = await t.store.upsertRelease({
      organizationId: o.id,
      version: "web@1.0+build/7",
      projectIds: [a.id, b.id],
      createdAt: "2026-11-23T11:00:00.000Z",
    });
    assert.equal(again.created, false);
    assert.equal(again.release.createdAt, "2026-11-23T10:00:00.000Z", "the existing release is returned");
    assert.deepEqual(again.release.projects.map((p) => p.projectId).sort(), [a.id, b.id].sort());
    await t.store.updateRelease(again.release.id, { releasedAt: "2026-11-23T12:00:00.000Z", refs: '[{"repository":"o/r","commit":"abc"}]' }, []);
    const read = (await t.store.getRelease(o.id, "web@1.0+build/7"))!;
    assert.deepEqual(
      [read.releasedAt, read.url, read.refs, read.commits],
      ["2026-11-23T12:00:00.000Z", "https://ci.example/7", '[{"repository":"o/r","commit":"abc"}]', null],
    );
    assert.equal(read.status, "open", "a release is open until archived");
    await t.store.updateRelease(read.id, { status: "archived" }, []);
    assert.deepEqual(await t.store.getRelease(o.id, "web@1.0+build/7").then((r) => [r?.status, r?.releasedAt]), ["archived", "2026-11-23T12:00:00.000Z"]);
    const later = await t.store.upsertRelease({ organizationId: o.id, version: "web@1.1", projectIds: [a.id], createdAt: "2026-11-23T13:00:00.000Z" });
    assert.equal((await t.store.previousReleaseWithCommits(later.release))?.version, "web@1.0+build/7", "the newest older release with refs or commits");
    assert.equal(await t.store.previousReleaseWithCommits(read), null);
    await t.store.updateRelease(read.id, { status: "open" }, []);
    assert.equal((await t.store.getRelease(o.id, "web@1.0+build/7"))?.status, "open");
    await t.store.deleteRelease(read.id);
    assert.equal(await t.store.getRelease(o.id, "web@1.0+build/7"), null);
  });

  test("releases: newest first in keyset pages, narrowed to projects and by part of the version (LIKE characters are literal)", async () => {
    const { t } = get();
    const { o, a, b } = await org();
    const versions = ["1.0", "1.1", "2.0_rc", "2.0%x", "2.01"];
    for (const [i, version] of versions.entries()) {
      await t.store.upsertRelease({ organizationId: o.id, version, projectIds: [i % 2 === 0 ? a.id : b.id], createdAt: `2026-11-23T10:0${i}:00.000Z` });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await t.store.listReleases({ organizationId: o.id, projectIds: null, query: null, page: { limit: 2, cursor } });
      seen.push(...page.items.map((r) => r.version));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, [...versions].reverse());
    const ofA = await t.store.listReleases({ organizationId: o.id, projectIds: [a.id], query: null, page: { limit: 10 } });
    assert.deepEqual(
      ofA.items.map((r) => r.version),
      ["2.01", "2.0_rc", "1.0"],
    );
    const search = async (query: string) =>
      (await t.store.listReleases({ organizationId: o.id, projectIds: null, query, page: { limit: 10 } })).items.map((r) => r.version);
    assert.deepEqual(await search("2.0_"), ["2.0_rc"]);
    assert.deepEqual(await search("0%"), ["2.0%x"]);
    assert.deepEqual(await search("RC"), ["2.0_rc"]);
  });

  test("release health: a session counts as started once, errored once, and by its first end only; users crash once", async () => {
    const { t } = get();
    const { a } = await org();
    const spool = uniq("spool");
    await writeBatch(
      t.store,
      batch(spool, 1, [
        update(a.id, "s1", { distinctId: "u1" }),
        update(a.id, "s1", { distinctId: "u1", errors: 1 }),
        update(a.id, "s2", { distinctId: "u2", status: "exited" }),
        update(a.id, "s3", { distinctId: "u3", status: "abnormal" }),
      ]),
    );
    // Later batches: s1 goes from errored to crashed, then sends its crash again; s2 tries to change an ended session.
    await writeBatch(
      t.store,
      batch(spool, 2, [update(a.id, "s1", { distinctId: "u1", status: "crashed", errors: 1 }), update(a.id, "s2", { status: "crashed" })]),
    );
    await writeBatch(t.store, batch(spool, 3, [update(a.id, "s1", { distinctId: "u1", status: "crashed", errors: 1 })]));
    const since24h = new Date(Date.now() - 86_400_000).toISOString();
    const [h] = await t.store.releaseHealth([a.id], ["app@1.0.0"], { environments: null, since24h });
    assert.deepEqual(
      { ...h },
      {
        projectId: a.id,
        version: "app@1.0.0",
        sessions: 3,
        sessionsErroredAll: 2,
        sessionsCrashed: 1,
        sessionsAbnormal: 1,
        users: 3,
        usersCrashed: 1,
        sessions24h: 3,
        users24h: 3,
      },
    );
    assert.ok(await t.store.getRelease((await t.store.getProjectById(a.id))!.organizationId, "app@1.0.0"), "sessions create the release they name");
  });

  test("release health: two digests writing updates of the same sessions at once count each session once", async () => {
    const { t } = get();
    const { a, b } = await org();
    const [one, two] = [uniq("spool"), uniq("spool")];
    const rounds = 8;
    for (let n = 1; n <= rounds; n++) {
      // Two spools (two processes) digest updates of the same sessions in concurrent transactions, in the same order of
      // projects or (every other round) in opposite orders.
      const sessions = [update(b.id, `b${n}`, { release: "race@1" }), update(a.id, `a${n}`, { release: "race@1" })];
      await Promise.all([writeBatch(t.store, batch(one, n, sessions)), writeBatch(t.store, batch(two, n, n % 2 ? sessions : [...sessions].reverse()))]);
    }
    const health = await t.store.releaseHealth([a.id, b.id], ["race@1"], { environments: null, since24h: new Date(Date.now() - 86_400_000).toISOString() });
    assert.deepEqual(
      health.map((h) => h.sessions),
      [rounds, rounds],
    );
  });

  test("release health: session states are kept by the batch's arrival time, so a backlog digested days later counts each session once", async () => {
    const { t } = get();
    const { a } = await org();
    const spool = uniq("spool");
    // Sessions that arrived in January, digested now (a spool read again, or a digest that was stopped for months).
    const started = "2026-01-10T08:00:00.000Z";
    const sessions = (receivedAt: string, status: SessionUpdate["status"]) => [update(a.id, "late", { started, receivedAt, status, release: "late@1" })];
    await writeBatch(t.store, batch(spool, 1, sessions("2026-01-10T08:01:00.000Z", "ok")));
    await writeBatch(t.store, batch(spool, 2, sessions("2026-01-10T08:30:00.000Z", "crashed")));
    const [h] = await t.store.releaseHealth([a.id], ["late@1"], { environments: null, since24h: "2026-01-10T00:00:00.000Z" });
    assert.deepEqual([h?.sessions, h?.sessionsErroredAll, h?.sessionsCrashed], [1, 1, 1]);
  });

  test("release health: aggregates add up per environment; users are distinct across environments; old hours are not in the 24h figures", async () => {
    const { t } = get();
    const { a, o } = await org();
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const agg = (over: Partial<SessionAggregate>): SessionAggregate => ({
      kind: "aggregate",
      projectId: a.id,
      receivedAt: recent,
      distinctId: null,
      started: recent,
      release: "api@2",
      environment: "production",
      exited: 0,
      errored: 0,
      abnormal: 0,
      crashed: 0,
      ...over,
    });
    await writeBatch(
      t.store,
      batch(uniq("spool"), 1, [
        agg({ exited: 90, errored: 6, crashed: 4 }),
        agg({ started: old, exited: 10 }),
        agg({ environment: "staging", exited: 5, crashed: 5, distinctId: "u1" }),
        agg({ environment: "production", exited: 1, distinctId: "u1" }),
        agg({ environment: "production", exited: 1, distinctId: "u2" }),
      ]),
    );
    const since24h = new Date(Date.now() - 86_400_000).toISOString();
    const [all] = await t.store.releaseHealth([a.id], ["api@2"], { environments: null, since24h });
    assert.deepEqual([all?.sessions, all?.sessionsErroredAll, all?.sessionsCrashed, all?.sessions24h, all?.users, all?.usersCrashed], [122, 15, 9, 112, 2, 1]);
    const [prod] = await t.store.releaseHealth([a.id], ["api@2"], { environments: ["production"], since24h });
    assert.deepEqual([prod?.sessions, prod?.sessionsCrashed, prod?.users, prod?.usersCrashed], [112, 4, 2, 0]);
    // An event for the release after sessions made it: its first and last event are set (not kept null).
    assert.deepEqual(
      (await t.store.getRelease(o.id, "api@2"))!.projects.map((p) => p.firstEvent),
      [null],
    );
    const at = "2026-11-23T10:15:00.000Z";
    const event = {
      projectId: a.id,
      eventId: "e".repeat(32),
      type: "error",
      receivedAt: at,
      timestamp: at,
      platform: "node",
      level: "error",
      title: "E",
      message: "",
      culprit: "",
      release: "api@2",
      environment: "production",
      size: 2,
      data: "{}",
      category: "error" as const,
      grouping: { config: "c", hashes: ["h"] },
      metadata: "{}",
      userKey: null,
      tags: [],
    };
    await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, events: [event], rawItems: [], outcomes: [] });
    assert.deepEqual(
      (await t.store.getRelease(o.id, "api@2"))!.projects.map((p) => [p.firstEvent, p.lastEvent, p.newIssues]),
      [[at, at, 1]],
    );
  });
}
