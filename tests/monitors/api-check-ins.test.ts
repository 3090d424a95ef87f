// Check-ins through Sentry's web API (the legacy POST …/monitors/{slug}/checkins/ and PUT …/checkins/{id}/), through
// the core function the routes call and the real intake's in-process entry: the check-in reaches the digest as an
// SDK's would, an unknown monitor is not found, and a bad status or duration is refused before anything is sent.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sendApiCheckIn } from "../../src/core/monitor-checkins";
import { outcome } from "../helpers/core";
import { type TestIntake, startTestIntake } from "../helpers/intake";

describe("API check-ins", () => {
  let t: TestIntake;
  let orgId: number;
  before(async () => {
    t = await startTestIntake();
    orgId = (await t.core.store.getOrganizationBySlug(t.org))!.id;
    await t.core.store.createMonitor(
      {
        projectId: t.projects[0].id,
        slug: "export",
        name: "Export",
        scheduleType: "interval",
        schedule: "1",
        intervalUnit: "day",
        timezone: "UTC",
        checkinMargin: null,
        maxRuntime: null,
        failureIssueThreshold: null,
        recoveryThreshold: null,
      },
      new Date().toISOString(),
    );
  });
  after(() => t.close());

  test("POST starts a check-in, PUT with its id finishes it with the duration in milliseconds", async () => {
    const ctx = t.core.as(t.owner);
    const { id } = await sendApiCheckIn(ctx, t.org, "export", { status: "in_progress", environment: "prod" }, t.submitEnvelope, "127.0.0.1");
    assert.match(id, /^[0-9a-f]{32}$/);
    await t.settle();
    assert.deepEqual(await sendApiCheckIn(ctx, t.org, "export", { status: "ok", duration: 1500, environment: "prod" }, t.submitEnvelope, "127.0.0.1", id), {
      id,
    });
    await t.settle();
    const m = (await t.core.store.monitorInOrganization(orgId, "export"))!;
    const list = await t.core.store.recentCheckIns(
      m.environments.map((e) => e.id),
      10,
    );
    assert.deepEqual(
      list.map((c) => [c.guid, c.status, c.durationMs]),
      [[id, "ok", 1500]],
    );
  });

  test("an unknown monitor is not found; a bad status or duration is refused", async () => {
    const ctx = t.core.as(t.owner);
    assert.equal(await outcome(() => sendApiCheckIn(ctx, t.org, "nope", { status: "ok" }, t.submitEnvelope, "127.0.0.1")), "not_found");
    assert.equal(await outcome(() => sendApiCheckIn(ctx, t.org, "export", { status: "missed" }, t.submitEnvelope, "127.0.0.1")), "bad_request");
    assert.equal(await outcome(() => sendApiCheckIn(ctx, t.org, "export", { status: "ok", duration: 1e300 }, t.submitEnvelope, "127.0.0.1")), "bad_request");
    assert.equal(await outcome(() => sendApiCheckIn(ctx, t.org, "export", { status: "ok" }, t.submitEnvelope, "127.0.0.1", "not-an-id")), "not_found");
  });
});
