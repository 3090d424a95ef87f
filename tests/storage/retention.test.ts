// Retention's storage contract (storage/retention-ports.ts) on SQLite and on a real PostgreSQL, each test on a fresh
// database: its deletes look at the whole table. The job that drives it: retention-job.test.ts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { writeBatch } from "../../src/digest/commit";
import { RetentionJob, type RetentionSettings } from "../../src/digest/retention";
import type { DigestedEvent } from "../../src/digest/items";
import { CUTOFF, NEW, OLD, aggregate, dialects, event, eventIds, hex, rawItem, withStore, write } from "./retention-fixtures";

for (const [dialect, fresh] of Object.entries(dialects)) {
  describe(`retention on ${dialect}`, () => {
    test("age: events and other items received before the cutoff go oldest first, in bounded chunks; newer ones stay", async () => {
      await withStore(fresh, async (t, p) => {
        await write(
          t,
          [1, 2, 3, 4, 5].map((n) => event(p, n, OLD, "old")),
          [rawItem(p, OLD), rawItem(p, OLD)],
        );
        await write(
          t,
          [6, 7, 8].map((n) => event(p, n, NEW, "new")),
          [rawItem(p, NEW)],
        );
        const chunks: number[] = [];
        for (let n = -1; n !== 0; ) chunks.push((n = await t.store.pruneEventsBefore(CUTOFF, 2)));
        assert.deepEqual(chunks, [2, 2, 1, 0]);
        assert.deepEqual(await eventIds(t, p), [hex(6), hex(7), hex(8)]);
        assert.equal(await t.store.pruneRawItemsBefore(CUTOFF, 10), 2);
        assert.equal(await t.store.pruneRawItemsBefore(CUTOFF, 10), 0);
        const raw = await t.db.kysely.selectFrom("raw_items").select("received_at").execute();
        assert.deepEqual(
          raw.map((r) => r.received_at),
          [NEW],
        );
      });
    });

    test("cap: a crowded issue keeps its first and its newest events, in bounded chunks; totals stay; others are untouched", async () => {
      await withStore(fresh, async (t, p) => {
        await write(
          t,
          [1, 2, 3, 4, 5, 6, 7, 8].map((n) => event(p, n, NEW, "crowded")),
        );
        await write(
          t,
          [9, 10].map((n) => event(p, n, NEW, "quiet")),
        );
        const issues = (await t.store.listIssues(p, { page: { limit: 10 } })).items;
        const crowded = issues.find((i) => i.timesSeen === 8)!;
        const quiet = issues.find((i) => i.timesSeen === 2)!;
        const first = await t.store.crowdedIssuesAfter(0, 100, 3);
        assert.deepEqual(first.issueIds, [crowded.id]);
        const again = await t.store.crowdedIssuesAfter(first.lastEventId, 100, 3);
        assert.deepEqual(again, { issueIds: [], lastEventId: first.lastEventId }, "nothing after the last event looked at");
        assert.equal(await t.store.overflowCursor(), 0, "no walk yet");
        await t.store.saveOverflowCursor(first.lastEventId);
        await t.store.saveOverflowCursor(first.lastEventId + 1);
        assert.equal(await t.store.overflowCursor(), first.lastEventId + 1, "the cursor kept is the last saved");
        await t.store.saveOverflowCursor(first.lastEventId);
        assert.equal(await t.store.overflowCursor(), first.lastEventId + 1, "and never goes back");
        const partial = await t.store.crowdedIssuesAfter(0, 2, 3);
        assert.equal(partial.issueIds.length, 1);
        assert.ok(partial.lastEventId < first.lastEventId, "a scan looks at no more than `scan` events");
        assert.deepEqual([await t.store.pruneIssueOverflow(crowded.id, 3, 3), await t.store.pruneIssueOverflow(crowded.id, 3, 3)], [3, 1]);
        assert.equal(await t.store.pruneIssueOverflow(crowded.id, 3, 3), 0);
        assert.equal(await t.store.pruneIssueOverflow(quiet.id, 3, 3), 0);
        assert.deepEqual(await eventIds(t, p), [1, 6, 7, 8, 9, 10].map(hex), "the first and the newest three of the crowded issue, all of the quiet one");
        assert.equal((await t.store.getIssue(crowded.id))?.timesSeen, 8, "times seen is a total");
        assert.equal((await t.store.getIssue(crowded.id))?.firstSeen, NEW);
      });
    });

    test("counters of hours before the cutoff go; issues last seen before it go with their hashes and events", async () => {
      await withStore(fresh, async (t, p) => {
        await write(t, [event(p, 1, OLD, "gone")]);
        await write(t, [event(p, 2, NEW, "kept")]);
        await writeBatch(t.store, {
          spoolId: "s",
          position: 2,
          events: [],
          rawItems: [],
          outcomes: [OLD, NEW].map((at) => ({
            projectId: p,
            hour: `${at.slice(0, 13)}:00:00Z`,
            category: "error",
            outcome: "rate_limited" as const,
            reason: "key_quota",
            quantity: 1,
          })),
        });
        const [kept, gone] = ["kept", "gone"].map((h) =>
          t.db.kysely.selectFrom("issue_hashes").select("issue_id").where("hash", "=", h).executeTakeFirstOrThrow(),
        );
        const keptId = (await kept!).issue_id;
        const goneId = (await gone!).issue_id;
        // Two issue counters and two outcome rows before the cutoff: one counter for each event, the outcomes above.
        assert.equal(await t.store.pruneHourlyCountersBefore("2026-06-01T00:00:00Z", 1), 1);
        assert.equal(await t.store.pruneHourlyCountersBefore("2026-06-01T00:00:00Z", 10), 2, "the rest: the old hour's outcomes (accepted, rate limited)");
        assert.equal(await t.store.pruneHourlyCountersBefore("2026-06-01T00:00:00Z", 10), 0);
        assert.deepEqual(await t.store.issueCounts(keptId, "2026-01-01T00:00:00Z"), [{ hour: "2026-11-23T10:00:00Z", count: 1 }]);
        assert.deepEqual(await t.store.issueCounts(goneId, "2026-01-01T00:00:00Z"), []);
        const outcomeHours = await t.db.kysely.selectFrom("outcomes").select("hour").execute();
        assert.ok(outcomeHours.length > 0 && outcomeHours.every((o) => o.hour >= "2026-06"), "newer outcomes stay");

        assert.equal(await t.store.pruneIssuesBefore(CUTOFF, 10), 1);
        assert.equal(await t.store.getIssue(goneId), null);
        assert.ok(await t.store.getIssue(keptId));
        assert.deepEqual(await eventIds(t, p), [hex(2)], "the issue's events went with it");
        const again = await write(t, [event(p, 3, NEW, "gone")]);
        assert.equal(again.newIssues, 1, "its hashes went too: the same error now starts a new issue");
      });
    });

    test("release health: session counts of hours before the cutoff and release users last seen before it go, in bounded chunks", async () => {
      await withStore(fresh, async (t, p) => {
        // Old: two count rows (production and staging) and u2; u1 came back since, so stays, as do u3 and the new hour.
        const sessions = [
          aggregate(p, OLD, "production", "u1"),
          aggregate(p, OLD, "staging", "u2"),
          aggregate(p, NEW, "production", "u1"),
          aggregate(p, NEW, "production", "u3"),
        ];
        await writeBatch(t.store, { spoolId: "s", position: 1, events: [], rawItems: [], outcomes: [], sessions });
        const chunks: number[] = [];
        for (let n = -1; n !== 0; ) chunks.push((n = await t.store.pruneReleaseHealthBefore(CUTOFF, "2026-06-01T00:00:00Z", 2)));
        assert.deepEqual(chunks, [2, 1, 0]);
        const hours = await t.db.kysely.selectFrom("release_session_counts").select("hour").execute();
        assert.deepEqual(
          hours.map((r) => r.hour),
          ["2026-11-23T10:00:00Z"],
        );
        const users = await t.db.kysely.selectFrom("release_session_users").select(["distinct_id", "environment"]).orderBy("distinct_id").execute();
        assert.deepEqual(
          users.map((u) => `${u.distinct_id}/${u.environment}`),
          ["u1/production", "u3/production"],
        );
        const [health] = await t.store.releaseHealth([p], ["app@1"], { environments: null, since24h: "2026-11-22T12:00:00.000Z" });
        assert.deepEqual([health?.sessions, health?.users], [2, 2]);
      });
    });

    test("issues: one whose events carry old timestamps but arrived after the cutoff stays, until its events are old too", async () => {
      await withStore(fresh, async (t, p) => {
        // A device whose clock is behind, or an SDK sending a buffered event late: last_seen is its timestamp.
        await write(t, [{ ...event(p, 1, OLD, "late"), receivedAt: NEW }]);
        const issueId = (await t.db.kysely.selectFrom("issue_hashes").select("issue_id").where("hash", "=", "late").executeTakeFirstOrThrow()).issue_id;
        assert.equal((await t.store.getIssue(issueId))?.lastSeen, OLD);
        assert.equal(await t.store.pruneIssuesBefore(CUTOFF, 10), 0);
        assert.ok(await t.store.getIssue(issueId), "kept: its event was received after the cutoff");
        assert.equal(await t.store.pruneIssuesBefore("2026-12-01T00:00:00.000Z", 10), 1, "a later cutoff finds no recent event");
        assert.equal(await t.store.getIssue(issueId), null);
      });
    });

    test("issue 18 personal data: per-project retention deletes older events of that project only, with their user rows", async () => {
      await withStore(fresh, async (t, p) => {
        const now = Date.parse("2026-11-23T12:00:00.000Z");
        const project = (await t.store.getProjectById(p))!;
        const other = await t.store.createProject({ organizationId: project.organizationId, teamId: null, slug: "api", name: "API", platform: null });
        const idle = await t.store.createProject({ organizationId: project.organizationId, teamId: null, slug: "idle", name: "Idle", platform: null });
        await t.store.updateProject(p, { retentionDays: 30 });
        await t.store.updateProject(idle.id, { retentionDays: 120 });
        assert.equal((await t.store.getProjectById(p))?.retentionDays, 30);
        const MONTH_AGO = "2026-10-01T08:00:00.000Z";
        const withUser = (e: DigestedEvent): DigestedEvent => ({ ...e, userKey: "id:1", userParts: [["id", "1"]] });
        await write(t, [
          withUser(event(p, 1, MONTH_AGO, "a")),
          withUser(event(p, 2, NEW, "a")),
          withUser(event(other.id, 3, MONTH_AGO, "b")),
          event(idle.id, 4, MONTH_AGO, "c"),
        ]);
        const settings: RetentionSettings = {
          days: 90,
          eventsPerIssue: 100,
          chunkRows: 1,
          chunkIssues: 10,
          scanEvents: 100,
          passIntervalMs: 60_000,
          partitionDaysAhead: 3,
          defaultDaysPerPass: 7,
          blobSweepPerStep: 2,
          blobSweepStepsPerPass: 3,
        };
        const lines: string[] = [];
        const job = new RetentionJob(
          t.store,
          settings,
          (l) => lines.push(l),
          () => now,
        );
        while (await job.step());
        assert.deepEqual(await eventIds(t, p), [hex(2)], "the project's event older than its 30 days is gone");
        assert.deepEqual(await eventIds(t, other.id), [hex(3)], "another project keeps the instance's 90 days");
        assert.deepEqual(await eventIds(t, idle.id), [hex(4)], "a retention longer than the instance's changes nothing");
        const users = await t.db.kysely
          .selectFrom("event_users")
          .leftJoin("events", "events.id", "event_users.event_row_id")
          .select(["events.event_id", "event_users.user_id"])
          .orderBy("events.event_id")
          .execute();
        assert.deepEqual(
          users.map((u) => [u.event_id, u.user_id]),
          [
            [hex(2), "1"],
            [hex(3), "1"],
          ],
          "the deleted event's user row went with it",
        );
        assert.match(lines[0]!, /, 1 events past their project's shorter retention, /);
      });
    });
  });
}
