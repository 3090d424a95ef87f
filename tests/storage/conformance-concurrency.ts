// Several digests writing at once, as several Faultline nodes on one PostgreSQL do (README, "Several nodes"): each
// batch is the digest's own writeBatch in its own transaction, started together. On SQLite the transactions take
// turns; on PostgreSQL they overlap, and the results must be the same: one issue per hash, exact counters and users,
// one regression, and no batch lost to a deadlock.
import assert from "node:assert/strict";
import { test } from "node:test";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

/** Batches written side by side, as many as nodes: enough for overlapping transactions on every run. */
const WRITERS = 6;

export function concurrencyConformance(get: () => Fixture) {
  async function project() {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("cc"), name: "CC", ownerUserId: alice.id });
    return t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
  }
  let serial = 0;
  const event = (projectId: number, hashes: string[], over: Partial<DigestedEvent> = {}): DigestedEvent => ({
    projectId,
    eventId: (++serial).toString(16).padStart(32, "c"),
    type: "error",
    receivedAt: "2026-11-28T10:15:00.000Z",
    timestamp: "2026-11-28T10:15:00.000Z",
    platform: "python",
    level: "error",
    title: "ValueError: same",
    message: "m",
    culprit: "app in main",
    release: null,
    environment: "production",
    size: 2,
    data: "{}",
    category: "error",
    grouping: { config: "newstyle:2023-01-11", hashes },
    metadata: JSON.stringify({ type: "ValueError", value: "same" }),
    userKey: null,
    tags: [["level", "error"]],
    ...over,
  });
  const issuesOf = async (projectId: number) =>
    get()
      .t.db.kysely.selectFrom("issues")
      .select(["id", "times_seen", "user_count", "status", "short_id"])
      .where("project_id", "=", projectId)
      .orderBy("id")
      .execute();

  test("several digests at once: the first event of a new issue seen by each makes one issue, with every event, exact counts and users", async () => {
    const { t } = get();
    const p = await project();
    for (let round = 0; round < 3; round++) {
      const hash = uniq("new-hash");
      const results = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) =>
          writeBatch(t.store, {
            spoolId: uniq("spool"),
            position: 1,
            events: [event(p.id, [hash], { userKey: `id:${i % 3}` }), event(p.id, [hash], { userKey: "id:shared" })],
            rawItems: [],
            outcomes: [],
          }),
        ),
      );
      assert.equal(
        results.reduce((n, r) => n + r.newIssues, 0),
        1,
        "exactly one batch created the issue",
      );
      const hashOwners = await t.db.kysely.selectFrom("issue_hashes").select("issue_id").where("project_id", "=", p.id).where("hash", "=", hash).execute();
      assert.equal(hashOwners.length, 1);
      const issue = (await issuesOf(p.id)).find((i) => i.id === hashOwners[0]!.issue_id)!;
      assert.equal(Number(issue.times_seen), WRITERS * 2);
      assert.equal(Number(issue.user_count), 4, "id:0, id:1, id:2 and id:shared");
      const events = await t.db.kysely
        .selectFrom("events")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("issue_id", "=", issue.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(events.n), WRITERS * 2);
    }
    const issues = await issuesOf(p.id);
    assert.equal(issues.length, 3, "one issue per new hash");
    assert.deepEqual(
      issues.map((i) => Number(i.short_id)),
      [1, 2, 3],
      "short ids without gaps or repeats",
    );
  });

  test("several digests at once: batches touching the same issues in opposite orders all commit, counted once each", async () => {
    const { t } = get();
    const p = await project();
    const hashes = Array.from({ length: 8 }, () => uniq("h"));
    await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, events: hashes.map((h) => event(p.id, [h])), rawItems: [], outcomes: [] });
    await Promise.all(
      Array.from({ length: WRITERS }, (_, i) => {
        const order = i % 2 === 0 ? hashes : [...hashes].reverse();
        return writeBatch(t.store, {
          spoolId: uniq("spool"),
          position: 1,
          events: order.map((h) => event(p.id, [h], { userKey: `id:${i}` })),
          rawItems: [],
          outcomes: [{ projectId: p.id, hour: "2026-11-28T10:00:00Z", category: "error", outcome: "rate_limited", reason: "key_quota", quantity: 1 }],
        });
      }),
    );
    const issues = await issuesOf(p.id);
    assert.equal(issues.length, hashes.length, "one issue per hash");
    for (const i of issues) {
      assert.equal(Number(i.times_seen), 1 + WRITERS);
      assert.equal(Number(i.user_count), WRITERS);
    }
    const limited = await t.db.kysely
      .selectFrom("outcomes")
      .select("quantity")
      .where("project_id", "=", p.id)
      .where("outcome", "=", "rate_limited")
      .executeTakeFirstOrThrow();
    assert.equal(Number(limited.quantity), WRITERS);
  });

  test("several digests at once: a resolved issue seen again by each regresses once", async () => {
    const { t } = get();
    const p = await project();
    const hash = uniq("resolved");
    await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, events: [event(p.id, [hash])], rawItems: [], outcomes: [] });
    const [issue] = await issuesOf(p.id);
    await t.store.setIssueStatus(issue!.id, {
      status: "resolved",
      substatus: null,
      resolution: null,
      snooze: null,
      activity: { type: "set_resolved", userId: null, data: "{}", createdAt: new Date().toISOString() },
    });
    await Promise.all(
      Array.from({ length: WRITERS }, () =>
        writeBatch(t.store, { spoolId: uniq("spool"), position: 1, events: [event(p.id, [hash])], rawItems: [], outcomes: [] }),
      ),
    );
    const regressions = await t.db.kysely
      .selectFrom("issue_activity")
      .select("id")
      .where("issue_id", "=", issue!.id)
      .where("type", "=", "set_regression")
      .execute();
    assert.equal(regressions.length, 1);
    const [after] = await issuesOf(p.id);
    assert.equal(after!.status, "unresolved");
    assert.equal(Number(after!.times_seen), 1 + WRITERS);
  });
}
