// The retention job (digest/retention.ts) over the storage contract, on SQLite and on a real PostgreSQL: its passes in
// bounded steps, its log line, its interval, and one node per interval when several run.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { writeBatch } from "../../src/digest/commit";
import { feedbackOfUserReport } from "../../src/digest/feedback";
import { RetentionJob, type RetentionSettings } from "../../src/digest/retention";
import { ageBlob } from "../helpers/blobs";
import { NEW, OLD, aggregate, dialects, event, eventIds, hex, rawItem, withStore, write } from "./retention-fixtures";

/** The job's settings of these tests: a 90-day retention, passes a minute apart, and what each test sizes itself. */
const settingsWith = (sized: Pick<RetentionSettings, "eventsPerIssue" | "chunkRows" | "chunkIssues" | "scanEvents">): RetentionSettings => ({
  days: 90,
  passIntervalMs: 60_000,
  partitionDaysAhead: 3,
  defaultDaysPerPass: 7,
  blobSweepPerStep: 2,
  blobSweepStepsPerPass: 3,
  ...sized,
});

for (const [dialect, fresh] of Object.entries(dialects)) {
  describe(`retention on ${dialect}`, () => {
    test("the job: a pass runs its phases in bounded steps between batches, logs once with its counts, and is not due again before its interval", async () => {
      await withStore(fresh, async (t, p) => {
        let now = Date.parse("2026-11-23T12:00:00.000Z");
        const lines: string[] = [];
        const settings = settingsWith({ eventsPerIssue: 3, chunkRows: 2, chunkIssues: 1, scanEvents: 3 });
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
        // Blobs no row names (a crash after the rows' delete, a batch set aside after writing them), older than the
        // sweep's grace by the job's clock, go; a named one of the same age stays.
        for (const key of ["rtold", "rtnew", "rtlost1", "rtlost2", "rtlost3"]) await t.store.attachmentBlobs.write(key, new Uint8Array([1]));
        for (const key of ["rtnew", "rtlost1", "rtlost2", "rtlost3"]) await ageBlob(t, key, new Date(OLD));
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
          /^faultline: retention removed 3 events received before 2026-08-25T12:00:00\.000Z \(90 days\), 0 events past their project's shorter retention, 3 events beyond 3 per issue, 1 other items, 1 user feedback, 1 log lines, 1 attachments, 3 attachment blobs no attachment named, 3 spans, \d+ hourly counters, 2 release health rows and 1 issues last seen before then, 1 artifact bundles and upload chunks, in \d+ steps over \d+ ms$/,
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
        assert.deepEqual(
          (await t.store.attachmentBlobs.listBlobs("", 100)).blobs.map((b) => b.key),
          ["rtnew"],
          "the unnamed blobs swept, in steps of two",
        );
        assert.equal(await job.step(), false, "not due again yet");
        now += 60_000;
        while (await job.step());
        assert.equal(lines.length, 1, "a pass that deletes nothing says nothing");
        assert.equal((await t.store.listIssues(p, { page: { limit: 10 } })).items.find((i) => i.title.startsWith("TypeError"))?.timesSeen, 7);
      });
    });

    test("the per-issue cap's walk goes on after a restart from where it stopped, not from the first event", async () => {
      await withStore(fresh, async (t, p) => {
        let now = Date.parse("2026-11-23T12:00:00.000Z");
        const settings = settingsWith({ eventsPerIssue: 3, chunkRows: 10, chunkIssues: 10, scanEvents: 2 });
        /** A job on the real store that records where each of its walks over events starts. */
        const started = (walks: number[]) =>
          new RetentionJob(
            new Proxy(t.store, {
              get(target, key, receiver) {
                if (key === "crowdedIssuesAfter")
                  return (after: number, scan: number, keep: number) => (walks.push(after), target.crowdedIssuesAfter(after, scan, keep));
                const value: unknown = Reflect.get(target, key, receiver);
                return typeof value === "function" ? value.bind(target) : value;
              },
            }),
            settings,
            () => {},
            () => now,
          );
        await write(
          t,
          [1, 2, 3, 4, 5].map((n) => event(p, n, NEW, "busy")),
        );
        const before: number[] = [];
        const first = started(before);
        while (await first.step());
        assert.equal(before[0], 0, "the first walk starts at the first event");
        assert.deepEqual(await eventIds(t, p), [1, 3, 4, 5].map(hex), "the first and the newest three");
        const walked = before.at(-1)!;
        assert.ok(walked > 0);

        // A restart: a new job on the same database. Its walk starts where the last one stopped, and the cap still holds
        // for the events that came since.
        await write(
          t,
          [6, 7].map((n) => event(p, n, NEW, "busy")),
        );
        now += 60_000;
        const after: number[] = [];
        const restarted = started(after);
        while (await restarted.step());
        assert.equal(after[0], walked, "the walk goes on from the saved cursor");
        assert.deepEqual(await eventIds(t, p), [1, 5, 6, 7].map(hex), "the cap holds for the new events");
      });
    });

    test("several nodes: each interval's pass runs on the one node that claims it; another takes the next when the first is gone", async () => {
      await withStore(fresh, async (t, p) => {
        let now = Date.parse("2026-11-23T12:00:00.000Z");
        const settings = settingsWith({ eventsPerIssue: 100, chunkRows: 10, chunkIssues: 10, scanEvents: 100 });
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
