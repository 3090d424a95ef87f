// `sentry-cli monitors run` (the real @sentry/cli 2.58.6, unmodified) against the real intake: 2.58.6 sends its
// check-ins as check_in envelope items to the DSN (SENTRY_DSN), upserting the monitor from --schedule and its
// options. `-- true` is an ok check-in, `-- false` an error check-in that opens the monitor's issue, and the command's
// exit status is the wrapped program's.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { failureEventId } from "../../src/core/monitor-failure";
import { type TestIntake, startTestIntake } from "../helpers/intake";

const SENTRY_CLI = path.resolve("node_modules/@sentry/cli/bin/sentry-cli");

describe("sentry-cli 2.58.6 monitors run", () => {
  let t: TestIntake;
  let orgId: number;
  const home = mkdtempSync(path.join(tmpdir(), "faultline-cli-home-"));
  before(async () => {
    t = await startTestIntake();
    orgId = (await t.core.store.getOrganizationBySlug(t.org))!.id;
  });
  after(() => t.close());

  const run = (args: string[]) =>
    new Promise<{ code: number; out: string }>((resolve) =>
      execFile(
        SENTRY_CLI,
        args,
        {
          timeout: 60_000,
          env: {
            PATH: process.env.PATH,
            HOME: home,
            SENTRY_DSN: t.projects[0].dsn,
            SENTRY_LOAD_DOTENV: "0",
            SENTRY_DISABLE_UPDATE_CHECK: "true",
            NODE_ENV: "test",
          },
        },
        (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, out: `${stdout}\n${stderr}` }),
      ),
    );
  const schedule = [
    "--schedule",
    "15 4 * * *",
    "--timezone",
    "America/New_York",
    "--check-in-margin",
    "10",
    "--max-runtime",
    "30",
    "--failure-issue-threshold",
    "1",
    "--recovery-threshold",
    "1",
  ];

  test("-- true: the monitor from --schedule, one ok check-in with its duration", async () => {
    const r = await run(["monitors", "run", "db-vacuum", "-e", "ci", ...schedule, "--", "true"]);
    assert.equal(r.code, 0, r.out);
    await t.settle();
    const m = await t.core.store.monitorInOrganization(orgId, "db-vacuum");
    assert.ok(m, "the monitor was created from the check-in's monitor_config");
    assert.deepEqual(
      { schedule: m.schedule, tz: m.timezone, margin: m.checkinMargin, runtime: m.maxRuntime, env: m.environments.map((e) => [e.environment, e.status]) },
      { schedule: "15 4 * * *", tz: "America/New_York", margin: 10, runtime: 30, env: [["ci", "ok"]] },
    );
    const checkIns = await t.core.store.recentCheckIns(
      m.environments.map((e) => e.id),
      10,
    );
    assert.deepEqual(
      checkIns.map((c) => c.status),
      ["ok"],
    );
    assert.ok(checkIns[0]!.durationMs !== null);
  });

  test("-- false: an error check-in, the monitor's issue, and the program's exit status", async () => {
    const r = await run(["monitors", "run", "db-vacuum", "-e", "ci", ...schedule, "--", "false"]);
    assert.equal(r.code, 1, r.out);
    await t.settle();
    const m = (await t.core.store.monitorInOrganization(orgId, "db-vacuum"))!;
    const [latest] = await t.core.store.recentCheckIns(
      m.environments.map((e) => e.id),
      10,
    );
    assert.equal(latest!.status, "error");
    const event = await t.waitForEvent(t.projects[0], failureEventId(m, "ci", latest!.guid));
    const issue = (await t.core.store.getIssue(event.issueId!))!;
    assert.equal(issue.title, "Cron failure: db-vacuum");
    assert.equal(issue.status, "unresolved");
    // The next good run resolves it (recovery threshold 1).
    assert.equal((await run(["monitors", "run", "db-vacuum", "-e", "ci", ...schedule, "--", "true"])).code, 0);
    await t.settle();
    assert.equal((await t.core.store.getIssue(issue.id))!.status, "resolved");
  });
});
