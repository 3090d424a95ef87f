// Retention's storage contract (storage/retention-ports.ts) and the job that drives it (digest/retention.ts), on
// SQLite and on a real PostgreSQL, each test on a fresh database: its deletes look at the whole table.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { feedbackOfUserReport } from "../../src/digest/feedback";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { SessionAggregate } from "../../src/digest/sessions";
import { RetentionJob, type RetentionSettings } from "../../src/digest/retention";
import type { OpenDbOptions } from "../../src/storage/db";
import type { NewRawItem } from "../../src/storage/ports";
import { type TestCore, testCore } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";

const OLD = "2026-01-10T08:00:00.000Z";
const NEW = "2026-11-23T10:15:00.000Z";
const CUTOFF = "2026-06-01T00:00:00.000Z";
const hex = (n: number) => n.toString(16).padStart(32, "0");

const dialects: Record<string, () => Promise<{ options: OpenDbOptions; drop: () => Promise<void> }>> = {
  sqlite: async () => ({ options: { dialect: "sqlite", file: ":memory:" }, drop: async () => {} }),
  postgres: async () => {
    const db = await freshPgDatabase(`retention_${randomBytes(4).toString("hex")}`);
    return { options: { dialect: "postgres", url: db.url }, drop: db.drop };
  },
};

function event(projectId: number, n: number, at: string, hash: string): DigestedEvent {
  return {
    projectId,
    eventId: hex(n),
    type: "error",
    receivedAt: at,
    timestamp: at,
    platform: "javascript",
    level: "error",
    title: `TypeError ${n}`,
    message: "",
    culprit: "",
    release: null,
    environment: null,
    size: 2,
    data: JSON.stringify({ n }),
    category: "error",
    grouping: { config: "c", hashes: [hash] },
    metadata: "{}",
    userKey: null,
    tags: [],
  };
}
const aggregate = (projectId: number, at: string, environment: string, distinctId: string): SessionAggregate => ({
  kind: "aggregate",
  projectId,
  receivedAt: at,
  started: at,
  distinctId,
  release: "app@1",
  environment,
  exited: 1,
  errored: 0,
  abnormal: 0,
  crashed: 0,
});
const rawItem = (projectId: number, at: string): NewRawItem => ({
  projectId,
  type: "session",
  eventId: null,
  receivedAt: at,
  headers: "{}",
  payload: Buffer.from("{}"),
  category: "session",
  quantity: 1,
});

for (const [dialect, fresh] of Object.entries(dialects)) {
  describe(`retention on ${dialect}`, () => {
    async function withStore(work: (t: TestCore, projectId: number) => Promise<void>) {
      const f = await fresh();
      const t = await testCore(f.options);
      try {
        const owner = await t.accounts.createUser({ email: "owner@example.com", password: "password123", name: "Owner" });
        const org = await t.store.createOrganization({ slug: "org", name: "Org", ownerUserId: owner.id });
        const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: "web", name: "Web", platform: null });
        await work(t, p.id);
      } finally {
        await t.close();
        await f.drop();
      }
    }
    const write = (t: TestCore, events: DigestedEvent[], rawItems: NewRawItem[] = []) =>
      writeBatch(t.store, { spoolId: "s", position: 1, events, rawItems, outcomes: [] });
    const eventIds = async (t: TestCore, projectId: number) =>
      (await t.store.listEvents(projectId, "errors", { limit: 100 })).items.map((e) => e.eventId).sort();

    test("age: events and other items received before the cutoff go oldest first, in bounded chunks; newer ones stay", async () => {
      await withStore(async (t, p) => {
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
      await withStore(async (t, p) => {
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
      await withStore(async (t, p) => {
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
      await withStore(async (t, p) => {
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
      await withStore(async (t, p) => {
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
      await withStore(async (t, p) => {
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
        const users = await t.db.kysely.selectFrom("event_users").select(["project_id", "event_id"]).where("field", "=", "id").orderBy("event_id").execute();
        assert.deepEqual(
          users.map((u) => u.event_id),
          [hex(2), hex(3)],
          "the deleted event's user rows went with it",
        );
        assert.match(lines[0]!, /, 1 events past their project's shorter retention, /);
      });
    });

    test("the job: a pass runs its phases in bounded steps between batches, logs once with its counts, and is not due again before its interval", async () => {
      await withStore(async (t, p) => {
        let now = Date.parse("2026-11-23T12:00:00.000Z");
        const lines: string[] = [];
        const settings: RetentionSettings = {
          days: 90,
          eventsPerIssue: 3,
          chunkRows: 2,
          chunkIssues: 1,
          scanEvents: 3,
          passIntervalMs: 60_000,
          partitionDaysAhead: 3,
          defaultDaysPerPass: 7,
        };
        const job = new RetentionJob(
          t.store,
          settings,
          (l) => lines.push(l),
          () => now,
        );
        await write(
          t,
          [1, 2, 3].map((n) => event(p, n, OLD, "old")),
          [rawItem(p, OLD)],
        );
        await write(
          t,
          [4, 5, 6, 7, 8, 9].map((n) => event(p, n, NEW, "busy")),
          [rawItem(p, NEW)],
        );
        await writeBatch(t.store, { spoolId: "s", position: 2, events: [], rawItems: [], outcomes: [], sessions: [aggregate(p, OLD, "production", "u1")] });
        // User feedback (issue 19): an old user report goes with its age, a new one stays.
        const report = (n: number, at: string) => feedbackOfUserReport({ event_id: hex(n), comments: `report ${n}` }, p, at, "user_report");
        await writeBatch(t.store, { spoolId: "s", position: 2, events: [], rawItems: [], outcomes: [], feedback: [report(1, OLD), report(9, NEW)] });
        // An artifact bundle last used longer ago than UPLOAD_LIMITS.bundleRetentionDays, and one used now.
        const project = (await t.store.getProjectById(p))!;
        const bundle = (checksum: string, at: string) =>
          t.store.createBundle({
            organizationId: project.organizationId,
            checksum,
            bundleId: null,
            size: 1,
            files: [],
            links: [{ projectId: p, release: "", dist: "" }],
            now: at,
          });
        await bundle("a".repeat(40), "2026-01-01T00:00:00.000Z");
        await bundle("b".repeat(40), "2026-11-23T11:00:00.000Z");
        const span = (n: number, at: string) => ({
          projectId: p,
          traceId: "f".repeat(32),
          spanId: hex(n).slice(-16),
          parentSpanId: null,
          segmentId: null,
          isSegment: false,
          transaction: "t",
          op: "db",
          description: "",
          status: "ok",
          startTime: at,
          durationMs: 1,
          environment: null,
          release: null,
          eventId: null,
          receivedAt: at,
        });
        await writeBatch(t.store, {
          spoolId: "s",
          position: 3,
          events: [],
          rawItems: [],
          outcomes: [],
          spans: { spans: [span(1, OLD), span(2, OLD), span(3, OLD), span(4, NEW)], values: [] },
        });
        // Attachments (issue 19): an old one goes with its age (and its blob), one of a kept event stays.
        const attachment = (key: string, eventN: number, at: string) => ({
          projectId: p,
          eventId: hex(eventN),
          blobKey: key,
          name: "a.txt",
          contentType: "text/plain",
          attachmentType: "event.attachment" as const,
          size: 1,
          storedSize: 1,
          codec: "gzip" as const,
          sha1: "0".repeat(40),
          receivedAt: at,
        });
        for (const key of ["rtold", "rtnew"]) await t.store.attachmentBlobs.write(key, new Uint8Array([1]));
        await writeBatch(t.store, {
          spoolId: "s",
          position: 4,
          events: [],
          rawItems: [],
          outcomes: [],
          attachments: [attachment("rtold", 1, OLD), attachment("rtnew", 4, NEW)],
        });
        // Log lines (issue 19): an old one goes with its age, a new one stays.
        const logLine = (body: string, at: string) => ({
          projectId: p,
          timestamp: at,
          receivedAt: at,
          level: "info" as const,
          severityNumber: 9,
          body,
          attributes: {},
          traceId: null,
          spanId: null,
          release: null,
          environment: null,
          meta: null,
        });
        await writeBatch(t.store, {
          spoolId: "s",
          position: 5,
          events: [],
          rawItems: [],
          outcomes: [],
          logs: [logLine("old line", OLD), logLine("new line", NEW)],
        });
        let steps = 0;
        while (await job.step()) {
          steps++;
          // Intake goes on between steps: a batch written mid-pass is stored and counted.
          if (steps === 3) await write(t, [event(p, 10, NEW, "busy")]);
        }
        assert.ok(steps >= 8, `bounded steps (${steps})`);
        assert.deepEqual(await eventIds(t, p), [4, 8, 9, 10].map(hex), "old events gone; the busy issue keeps its first and newest three");
        assert.equal(lines.length, 1);
        assert.match(
          lines[0]!,
          /^faultline: retention removed 3 events received before 2026-08-25T12:00:00\.000Z \(90 days\), 0 events past their project's shorter retention, 3 events beyond 3 per issue, 1 other items, 1 user feedback, 1 log lines, 1 attachments, 3 spans, \d+ hourly counters, 2 release health rows and 1 issues last seen before then, 1 artifact bundles and upload chunks, in \d+ steps over \d+ ms$/,
        );
        assert.deepEqual(
          (await t.store.listLogs({ projectId: p }, 10)).map((l) => l.body),
          ["new line"],
          "the new log line stays",
        );
        assert.deepEqual(
          [
            await t.store.bundleByChecksum(project.organizationId, "a".repeat(40)),
            typeof (await t.store.bundleByChecksum(project.organizationId, "b".repeat(40))),
          ],
          [null, "number"],
        );
        assert.deepEqual(
          (await t.db.kysely.selectFrom("spans").select("received_at").execute()).map((r) => r.received_at),
          [NEW],
          "old spans gone, the new one stays",
        );
        assert.deepEqual(
          (await t.db.kysely.selectFrom("user_feedback").select("message").execute()).map((r) => r.message),
          ["report 9"],
          "old feedback gone, the new one stays",
        );
        assert.deepEqual(
          [await t.store.attachmentBlobs.has("rtold"), await t.store.attachmentBlobs.has("rtnew")],
          [false, true],
          "the old attachment's blob gone, the kept event's stays",
        );
        assert.equal(await job.step(), false, "not due again yet");
        now += 60_000;
        while (await job.step());
        assert.equal(lines.length, 1, "a pass that deletes nothing says nothing");
        assert.equal((await t.store.listIssues(p, { page: { limit: 10 } })).items.find((i) => i.title.startsWith("TypeError"))?.timesSeen, 7);
      });
    });

    test("several nodes: each interval's pass runs on the one node that claims it; another takes the next when the first is gone", async () => {
      await withStore(async (t, p) => {
        let now = Date.parse("2026-11-23T12:00:00.000Z");
        const settings: RetentionSettings = {
          days: 90,
          eventsPerIssue: 100,
          chunkRows: 10,
          chunkIssues: 10,
          scanEvents: 100,
          passIntervalMs: 60_000,
          partitionDaysAhead: 3,
          defaultDaysPerPass: 7,
        };
        const logs: string[][] = [[], []];
        const [a, b] = logs.map(
          (lines) =>
            new RetentionJob(
              t.store,
              settings,
              (l) => lines.push(l),
              () => now,
            ),
        );
        await write(t, [event(p, 1, OLD, "old")]);
        while (await a!.step());
        while (await b!.step());
        assert.equal(logs[0]!.length, 1, "the first node pruned");
        assert.equal(logs[1]!.length, 0, "the second found the pass claimed");
        await write(t, [event(p, 2, OLD, "old")]);
        now += 60_000;
        // The first node is gone: the second claims the next pass.
        while (await b!.step());
        assert.equal(logs[1]!.length, 1);
        assert.deepEqual(await eventIds(t, p), []);
      });
    });
  });
}
