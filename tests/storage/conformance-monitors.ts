// Cron monitors' storage (storage/monitor-ports.ts), run by conformance.ts on each dialect: a monitor upserted per
// project and slug (unique in its organization), its environments created once, check-ins stored once per id and
// finished only while in progress, deadlines claimed once, due deadlines and timeouts found, booleans read back as
// booleans, and edits that keep slugs unique.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { MonitorConfig } from "../../src/storage/monitor-ports";
import type { User } from "../../src/storage/ports";
import { pruneCheckIns } from "../../src/monitors/retention";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

const config: MonitorConfig = {
  scheduleType: "crontab",
  schedule: "0 * * * *",
  intervalUnit: null,
  timezone: "Europe/Vienna",
  checkinMargin: 5,
  maxRuntime: null,
  failureIssueThreshold: 2,
  recoveryThreshold: null,
};

export function monitorConformance(get: () => Fixture) {
  test("monitors: upserted per project and slug, environments once, check-ins once per id, finished while in progress", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("mon"), name: "Mon", ownerUserId: alice.id });
    const p1 = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P1", platform: null });
    const p2 = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P2", platform: null });
    const now = "2026-05-01T10:00:00.000Z";
    const m = await t.store.monitorTransaction((tx) => tx.upsertMonitor(p1.id, "backup", config, now));
    assert.ok(m);
    assert.deepEqual(
      {
        slug: m.slug,
        name: m.name,
        status: m.status,
        isMuted: m.isMuted,
        organizationId: m.organizationId,
        schedule: m.schedule,
        timezone: m.timezone,
        margin: m.checkinMargin,
        runtime: m.maxRuntime,
      },
      {
        slug: "backup",
        name: "backup",
        status: "active",
        isMuted: false,
        organizationId: org.id,
        schedule: "0 * * * *",
        timezone: "Europe/Vienna",
        margin: 5,
        runtime: null,
      },
    );
    const again = await t.store.monitorTransaction((tx) => tx.upsertMonitor(p1.id, "backup", { ...config, schedule: "30 2 * * *", maxRuntime: 10 }, now));
    assert.equal(again?.id, m.id);
    assert.equal(again?.schedule, "30 2 * * *");
    // The organization's slug belongs to p1: p2 cannot take it.
    assert.equal(await t.store.monitorTransaction((tx) => tx.upsertMonitor(p2.id, "backup", config, now)), null);
    assert.equal(await t.store.monitorTransaction((tx) => tx.monitorBySlug(p2.id, "backup")), null);

    const env = await t.store.monitorTransaction((tx) => tx.monitorEnvironment(m.id, "production"));
    const same = await t.store.monitorTransaction((tx) => tx.monitorEnvironment(m.id, "production"));
    assert.equal(same.id, env.id);
    assert.deepEqual(
      { status: env.status, inIncident: env.inIncident, failures: env.failures, next: env.nextCheckinLatest },
      { status: "active", inIncident: false, failures: 0, next: null },
    );

    const guid = "a".repeat(32);
    const base = {
      guid,
      monitorId: m.id,
      environmentId: env.id,
      projectId: p1.id,
      status: "in_progress" as const,
      durationMs: null,
      dateAdded: now,
      dateUpdated: now,
      expectedTime: null,
      timeoutAt: "2026-05-01T10:30:00.000Z",
    };
    const stored = await t.store.monitorTransaction((tx) => tx.insertCheckIn(base));
    assert.ok(stored);
    assert.equal(await t.store.monitorTransaction((tx) => tx.insertCheckIn(base)), null, "the same check-in id is stored once");
    assert.equal((await t.store.monitorTransaction((tx) => tx.latestInProgress(env.id)))?.id, stored.id);
    assert.deepEqual(
      (await t.store.dueTimeouts("2026-05-01T10:29:59.000Z", 100)).filter((d) => d.monitor.id === m.id),
      [],
    );
    const due = (await t.store.dueTimeouts("2026-05-01T10:30:00.000Z", 100)).filter((d) => d.monitor.id === m.id);
    assert.deepEqual(
      due.map((d) => d.checkIn.id),
      [stored.id],
    );
    // 3e9 ms does not fit a 32-bit integer.
    assert.equal(
      await t.store.monitorTransaction((tx) => tx.finishCheckIn(stored.id, { status: "ok", durationMs: 3_000_000_000, dateUpdated: now, timeoutAt: null })),
      true,
    );
    assert.equal(
      await t.store.monitorTransaction((tx) => tx.finishCheckIn(stored.id, { status: "error", dateUpdated: now })),
      false,
      "a finished check-in stays",
    );
    const read = await t.store.monitorTransaction((tx) => tx.checkInByGuid(m.id, guid));
    assert.deepEqual(
      { status: read?.status, durationMs: read?.durationMs, timeoutAt: read?.timeoutAt },
      { status: "ok", durationMs: 3_000_000_000, timeoutAt: null },
    );
    assert.equal((await t.store.recentCheckIns([env.id], 10)).length, 1);
  });

  test("monitors: a deadline is found when due and claimed once; edits keep slugs unique; mute reads back as a boolean", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("mon"), name: "Mon", ownerUserId: alice.id });
    const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    const m = (await t.store.createMonitor({ ...config, projectId: p.id, slug: "sync", name: "Sync job" }, "2026-05-01T10:00:00.000Z"))!;
    assert.ok(m);
    assert.equal(await t.store.createMonitor({ ...config, projectId: p.id, slug: "sync", name: "Again" }, "2026-05-01T10:00:00.000Z"), null);
    const env = await t.store.monitorTransaction((tx) => tx.monitorEnvironment(m.id, "prod"));
    const deadline = "2026-05-01T11:05:00.000Z";
    await t.store.monitorTransaction((tx) =>
      tx.updateMonitorEnvironment(env.id, {
        nextCheckin: "2026-05-01T11:00:00.000Z",
        nextCheckinLatest: deadline,
        status: "ok",
        inIncident: true,
        failures: 3,
      }),
    );
    assert.deepEqual(
      (await t.store.dueDeadlines("2026-05-01T11:04:59.000Z", 100)).filter((d) => d.monitor.id === m.id),
      [],
    );
    const [due] = (await t.store.dueDeadlines("2026-05-01T11:05:00.000Z", 100)).filter((d) => d.monitor.id === m.id);
    assert.deepEqual(
      { id: due?.environment.id, inIncident: due?.environment.inIncident, failures: due?.environment.failures, slug: due?.monitor.slug },
      { id: env.id, inIncident: true, failures: 3, slug: "sync" },
    );
    const next = { nextCheckin: "2026-05-01T12:00:00.000Z", nextCheckinLatest: "2026-05-01T12:05:00.000Z" };
    const claims = await Promise.all([1, 2].map(() => t.store.monitorTransaction((tx) => tx.claimMissedDeadline(env.id, deadline, next))));
    assert.deepEqual(claims.sort(), [false, true]);

    const other = (await t.store.createMonitor({ ...config, projectId: p.id, slug: "other", name: "Other" }, "2026-05-01T10:00:00.000Z"))!;
    assert.equal(await t.store.updateMonitor(other.id, { slug: "sync" }), null, "a slug taken in the organization");
    const muted = await t.store.updateMonitor(m.id, { isMuted: true, name: "Sync", schedule: "*/5 * * * *" });
    assert.deepEqual({ isMuted: muted?.isMuted, name: muted?.name, schedule: muted?.schedule }, { isMuted: true, name: "Sync", schedule: "*/5 * * * *" });
    await t.store.updateMonitor(m.id, { status: "disabled" });
    assert.deepEqual(
      (await t.store.dueDeadlines("2026-05-01T13:00:00.000Z", 100)).filter((d) => d.monitor.id === m.id),
      [],
      "a disabled monitor is never due",
    );
    const list = await t.store.listMonitors(org.id, null);
    assert.deepEqual(
      list.map((x) => [x.slug, x.environments.map((e) => e.environment)]),
      [
        ["other", []],
        ["sync", ["prod"]],
      ],
    );
    assert.deepEqual(await t.store.listMonitors(org.id, []), []);
    assert.equal((await t.store.monitorInOrganization(org.id, "sync"))?.isMuted, true);
    assert.equal(await t.store.deleteMonitor(other.id), true);
    assert.equal(await t.store.monitorInOrganization(org.id, "other"), null);
    assert.equal(typeof (await t.store.activePublicKey(p.id)), "object", "no key yet: null");
  });

  test("monitors: check-ins older than retention are pruned oldest first, newer ones and the monitor stay", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("mon"), name: "Mon", ownerUserId: alice.id });
    const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    const m = (await t.store.createMonitor({ ...config, projectId: p.id, slug: "old", name: "Old" }, "2020-01-01T00:00:00.000Z"))!;
    const env = await t.store.monitorTransaction((tx) => tx.monitorEnvironment(m.id, "prod"));
    const now = Date.parse("2026-05-01T00:00:00.000Z");
    const at = (days: number) => new Date(now - days * 86_400_000).toISOString();
    // Arrival order is id order: three old ones first, then a recent one.
    for (const [i, days] of [100, 95, 91, 2].entries()) {
      await t.store.monitorTransaction((tx) =>
        tx.insertCheckIn({
          guid: String(i).repeat(32),
          monitorId: m.id,
          environmentId: env.id,
          projectId: p.id,
          status: "ok",
          durationMs: 1,
          dateAdded: at(days),
          dateUpdated: at(days),
          expectedTime: null,
          timeoutAt: null,
        }),
      );
    }
    // Other tests' check-ins are recent (their dates are 2026-05-01 or today), so only these three are past 90 days.
    assert.equal(await pruneCheckIns(t.store, 90, now), 3);
    assert.deepEqual(
      (await t.store.recentCheckIns([env.id], 10)).map((c) => c.dateAdded),
      [at(2)],
    );
    assert.equal(await pruneCheckIns(t.store, 90, now), 0);
    assert.ok(await t.store.monitorInOrganization(org.id, "old"));
  });
}
