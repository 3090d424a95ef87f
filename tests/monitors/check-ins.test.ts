// Cron monitors end to end (issue 19), on SQLite and on PostgreSQL: check-ins from the official @sentry/node SDK's
// withMonitor and from the HTTP check-in endpoint (Relay's endpoints/monitor.rs) go through the real intake, spool
// and digest worker into the monitor tables; failures, missed check-ins and timeouts open the monitor's issue
// through the digest, and recovery resolves it. The scheduler is run at chosen instants (no waiting on clocks): a
// pass one scheduler interval after the deadline finds it, and two schedulers on one database (this process and a
// second one, tests/monitors/scheduler-process.ts) claim it once.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { MONITOR_LIMITS } from "../../src/config/limits";
import { failureEventId } from "../../src/core/monitor-failure";
import { type FailureEvent, type PassResult, missedGuid, runMonitorPass } from "../../src/monitors/scheduler";
import { intakeSubmitter } from "../../src/monitors/submit";
import type { OpenDbOptions } from "../../src/storage/db";
import type { MonitorWithEnvironments } from "../../src/storage/monitor-ports";
import { type TestIntake, type TestProject, startTestIntake } from "../helpers/intake";
import { freshPgDatabase } from "../helpers/pg";

const DIALECTS = ["sqlite", "postgres"] as const;

for (const dialect of DIALECTS) {
  describe(`cron monitors (${dialect})`, () => {
    let t: TestIntake;
    let dbOptions: OpenDbOptions;
    let drop: (() => Promise<void>) | null = null;
    let orgId: number;

    before(async () => {
      if (dialect === "postgres") {
        const fresh = await freshPgDatabase(`monitors_${randomBytes(4).toString("hex")}`);
        drop = fresh.drop;
        dbOptions = { dialect: "postgres", url: fresh.url };
        t = await startTestIntake({ db: dbOptions });
      } else {
        t = await startTestIntake();
        dbOptions = { dialect: "sqlite", file: path.join(t.dataDir, "faultline.sqlite3") };
      }
      orgId = (await t.core.store.getOrganizationBySlug(t.org))!.id;
    });
    after(async () => {
      await t.close();
      await drop?.();
    });

    /** A scheduler pass in a second process on the same database; its failure events go to this intake. */
    const passElsewhere = async (now: number): Promise<PassResult> => {
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ["--import", "tsx", "tests/monitors/scheduler-process.ts", JSON.stringify(dbOptions), String(now)],
          { timeout: 60_000 },
          (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)),
        ),
      );
      const { result, failures } = JSON.parse(out) as { result: PassResult; failures: { projectId: number; failure: FailureEvent }[] };
      for (const f of failures) await submit()(f.projectId, f.failure);
      return result;
    };
    const monitor = async (slug: string): Promise<MonitorWithEnvironments> => {
      const m = await t.core.store.monitorInOrganization(orgId, slug);
      assert.ok(m, `monitor ${slug} exists`);
      return m;
    };
    const checkIns = async (m: MonitorWithEnvironments) =>
      t.core.store.recentCheckIns(
        m.environments.map((e) => e.id),
        50,
      );
    const issueOf = async (project: TestProject, eventId: string) => {
      const event = await t.waitForEvent(project, eventId);
      assert.ok(event.issueId, "the failure event joined an issue");
      return (await t.core.store.getIssue(event.issueId))!;
    };
    const submit = () => intakeSubmitter(t.core.store, t.submitEnvelope, (line) => assert.fail(line));
    const cron = (project: TestProject, slug: string, query: string, init?: RequestInit) =>
      fetch(`${t.origin}/api/${project.id}/cron/${slug}/${project.key.publicKey}/${query}`, init);
    const runSdk = async (mode: "ok" | "fail", project: TestProject) => {
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
        execFile(process.execPath, ["tests/monitors/sdk/node-cron.mjs", project.dsn, mode], { timeout: 30_000 }, (err, _out, stderr) =>
          resolve({ code: err ? ((err.code as number) ?? null) : 0, stderr }),
        ),
      );
      assert.equal(r.code, 0, r.stderr);
      await t.settle();
    };

    test("@sentry/node 11.5.0 withMonitor: the monitor from monitor_config, a failing run opens its issue, two good runs resolve it", async () => {
      const p = t.projects[0];
      await runSdk("ok", p);
      let m = await monitor("nightly-report");
      assert.equal(m.projectId, p.id);
      assert.deepEqual(
        {
          type: m.scheduleType,
          schedule: m.schedule,
          tz: m.timezone,
          margin: m.checkinMargin,
          runtime: m.maxRuntime,
          failure: m.failureIssueThreshold,
          recovery: m.recoveryThreshold,
        },
        { type: "crontab", schedule: "30 3 * * *", tz: "Europe/Vienna", margin: 5, runtime: 20, failure: 1, recovery: 2 },
      );
      assert.equal(m.environments.length, 1);
      const env = m.environments[0]!;
      assert.equal(env.environment, "sdk-test");
      assert.equal(env.status, "ok");
      // 03:30 in Vienna is 02:30 UTC in winter (the test's date) or 01:30 in summer: either way a :30 of the next day or so.
      assert.match(env.nextCheckin!, /T0[12]:30:00\.000Z$/);
      assert.equal(Date.parse(env.nextCheckinLatest!) - Date.parse(env.nextCheckin!), 5 * 60_000);
      // The SDK's in_progress and its ok share a check-in id: one check-in, finished, with a duration.
      let list = await checkIns(m);
      assert.equal(list.length, 1);
      assert.equal(list[0]!.status, "ok");
      assert.ok(list[0]!.durationMs !== null && list[0]!.durationMs >= 0);

      await runSdk("fail", p);
      m = await monitor("nightly-report");
      list = await checkIns(m);
      const failed = list.find((c) => c.status === "error");
      assert.ok(failed, "the failing run is an error check-in");
      const issue = await issueOf(p, failureEventId(m, "sdk-test", failed.guid));
      assert.equal(issue.title, "Cron failure: nightly-report");
      assert.equal(issue.status, "unresolved");
      assert.equal(m.environments[0]!.inIncident, true);

      await runSdk("ok", p);
      assert.equal((await t.core.store.getIssue(issue.id))!.status, "unresolved", "one success of the two the recovery threshold asks");
      await runSdk("ok", p);
      assert.equal((await t.core.store.getIssue(issue.id))!.status, "resolved");
      assert.equal((await monitor("nightly-report")).environments[0]!.inIncident, false);
    });

    test("a missed check-in opens the issue within a scheduler interval of its deadline, once with two schedulers; an ok check-in resolves it", async () => {
      const p = t.projects[1];
      // A pass looks at every monitor in the database, and the clock jumps an hour ahead below: the SDK test's
      // nightly-report (daily at 03:30 in Vienna, 5 minutes' margin) would be missed in that hour when this runs in
      // the hour before its deadline (a fresh-clone CI at 02:13 UTC failed so). This test is about backup-db alone.
      const nightly = await t.core.store.monitorInOrganization(orgId, "nightly-report");
      if (nightly) assert.equal(await t.core.store.deleteMonitor(nightly.id), true);
      const config = { schedule: { type: "interval", value: 1, unit: "hour" }, checkin_margin: 2, failure_issue_threshold: 1, recovery_threshold: 1 };
      const r = await cron(p, "backup-db", "", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status: "ok", environment: "production", monitor_config: config }),
      });
      assert.equal(r.status, 202);
      await t.settle();
      const m = await monitor("backup-db");
      const env = m.environments[0]!;
      const deadline = Date.parse(env.nextCheckinLatest!);
      assert.equal(deadline - Date.parse(env.nextCheckin!), 2 * 60_000);

      // The deadline found within 30 s: a pass runs every schedulerIntervalMs, and the digest stores its event within moments.
      assert.ok(MONITOR_LIMITS.schedulerIntervalMs <= 20_000);
      assert.deepEqual(await runMonitorPass(t.core.store, submit(), deadline - 1000), { missed: 0, timeouts: 0, failures: 0 });
      const at = deadline + MONITOR_LIMITS.schedulerIntervalMs;
      const [a, b] = await Promise.all([runMonitorPass(t.core.store, submit(), at), passElsewhere(at)]);
      assert.equal(a.missed + b.missed, 1, "two schedulers mark the deadline missed once");
      assert.equal(a.failures + b.failures, 1);
      await t.settle();
      const list = await checkIns(await monitor("backup-db"));
      assert.deepEqual(
        list.map((c) => c.status),
        ["missed", "ok"],
      );
      assert.equal(list[0]!.expectedTime, env.nextCheckin);
      const issue = await issueOf(p, failureEventId(m, "production", missedGuid(env.id, env.nextCheckin!)));
      assert.equal(issue.status, "unresolved");
      assert.equal(issue.timesSeen, 1);
      // The next deadline is an hour on; nothing is due again at the same instant.
      assert.deepEqual(await passElsewhere(at), { missed: 0, timeouts: 0, failures: 0 });

      const ok = await cron(p, "backup-db", "?status=ok");
      assert.equal(ok.status, 202);
      await t.settle();
      assert.equal((await t.core.store.getIssue(issue.id))!.status, "resolved");
    });

    test("an in-progress check-in past its max_runtime times out and opens the issue", async () => {
      const p = t.projects[1];
      const id = randomBytes(16).toString("hex");
      const body = {
        check_in_id: id,
        status: "in_progress",
        environment: "staging",
        monitor_config: { schedule: { type: "interval", value: 1, unit: "day" }, max_runtime: 3, failure_issue_threshold: 1 },
      };
      assert.equal(
        (await cron(p, "long-job", "", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).status,
        202,
      );
      await t.settle();
      const m = await monitor("long-job");
      const started = (await checkIns(m)).find((c) => c.guid === id)!;
      assert.equal(started.status, "in_progress");
      assert.equal(Date.parse(started.timeoutAt!) - Date.parse(started.dateAdded), 3 * 60_000);
      const at = Date.parse(started.timeoutAt!) + MONITOR_LIMITS.schedulerIntervalMs;
      const [a, b] = await Promise.all([runMonitorPass(t.core.store, submit(), at), passElsewhere(at)]);
      assert.equal(a.timeouts + b.timeouts, 1);
      await t.settle();
      const after = (await checkIns(m)).find((c) => c.guid === id)!;
      assert.equal(after.status, "timeout");
      const issue = await issueOf(p, failureEventId(m, "staging", id));
      assert.equal(issue.status, "unresolved");
      // The job's late ok changes nothing: a finished check-in stays as it finished.
      assert.equal((await cron(p, "long-job", `?status=ok&check_in_id=${id}&environment=staging`)).status, 202);
      await t.settle();
      assert.equal((await checkIns(m)).find((c) => c.guid === id)!.status, "timeout");
    });

    test("a monitor whose handling fails does not stop the pass: the other due deadlines are handled, then the pass says what failed", async () => {
      const p = t.projects[0];
      const config = { schedule: { type: "interval", value: 1, unit: "hour" }, checkin_margin: 1, failure_issue_threshold: 1, recovery_threshold: 1 };
      const slugs = ["isolated-a", "isolated-b", "isolated-c"];
      for (const slug of slugs) {
        const body = JSON.stringify({ status: "ok", environment: "production", monitor_config: config });
        assert.equal((await cron(p, slug, "", { method: "POST", headers: { "content-type": "application/json" }, body })).status, 202);
      }
      await t.settle();
      const monitors = await Promise.all(slugs.map(monitor));
      const at = Math.max(...monitors.map((m) => Date.parse(m.environments[0]!.nextCheckinLatest!))) + MONITOR_LIMITS.schedulerIntervalMs;
      // The first failure event cannot be handed on (as with a full disk under the spool); the others can.
      let refused = 0;
      const handed: FailureEvent[] = [];
      const failing = async (projectId: number, failure: FailureEvent) => {
        if (refused++ === 0) throw new Error("the spool's disk is full");
        handed.push(failure);
        await submit()(projectId, failure);
      };
      await assert.rejects(runMonitorPass(t.core.store, failing, at), {
        name: "AggregateError",
        message: "1 of the pass's monitors failed: the spool's disk is full",
      });
      assert.ok(handed.length >= slugs.length - 1, `${handed.length} failure events handed on after the refused one`);
      for (const m of monitors) assert.equal((await checkIns(m)).filter((c) => c.status === "missed").length, 1, `${m.slug}: its deadline was handled`);
      for (const m of monitors) assert.equal(await t.core.store.deleteMonitor(m.id), true);
    });
  });
}
