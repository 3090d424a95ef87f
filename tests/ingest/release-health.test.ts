// Release health end to end: sessions from the official @sentry/node SDK and hand-built session envelopes go through
// the real intake, spool and digest worker, and come back as Sentry's healthData of the release.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { getRelease } from "../../src/core/releases";
import { serializeHealth, serializeRelease } from "../../src/web/api/release-serializers";
import { type TestIntake, type TestProject, startTestIntake } from "../helpers/intake";

const hex = () => crypto.randomUUID().replace(/-/g, "");

describe("release health from sessions", () => {
  let t: TestIntake;
  before(async () => {
    t = await startTestIntake();
  });
  after(() => t.close());

  const owner = async () => {
    const org = (await t.core.store.getOrganizationBySlug(t.org))!;
    const member = (await t.core.store.listMembers(org.id))[0]!;
    return t.core.as((await t.core.store.getUserById(member.userId))!);
  };
  const health = async (project: TestProject, version: string, environments: string[] = []) => {
    const view = await getRelease(await owner(), t.org, project.slug, version, { health: true, environments });
    return serializeRelease(view).projects[0]!.healthData!;
  };
  /** Sends session items, one envelope each, as SDKs send them (an envelope header without event id). */
  const sendSessions = async (project: TestProject, items: { type: "session" | "sessions"; payload: Record<string, unknown> }[]) => {
    const url = t.url("envelope", project, `?sentry_key=${project.key.publicKey}&sentry_version=7`);
    for (const item of items) {
      const r = await fetch(url, {
        method: "POST",
        body: `{"sent_at":"${new Date().toISOString()}"}\n{"type":"${item.type}"}\n${JSON.stringify(item.payload)}\n`,
      });
      assert.equal(r.status, 200);
    }
    await t.settle();
  };
  /** Runs an SDK script to its end, then waits for the digest. */
  const runSdk = async (file: string, args: string[]) => {
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      execFile(file, args, { timeout: 30_000 }, (err, _out, stderr) => resolve({ code: err ? ((err.code as number) ?? null) : 0, stderr })),
    );
    assert.equal(r.code, 0, r.stderr);
    await t.settle();
  };
  const session = (sid: string, did: string | null, status: string, over: Record<string, unknown> = {}) => ({
    type: "session" as const,
    payload: {
      sid,
      did,
      init: false,
      started: new Date(Date.now() - 60_000).toISOString(),
      status,
      errors: 0,
      attrs: { release: "mobile@3.1.0+42", environment: "production" },
      ...over,
    },
  });

  test("@sentry/node 11.5.0: request-mode aggregates and the process session, whose exit does not count it twice", async () => {
    const p = t.projects[0];
    await runSdk(process.execPath, ["tests/ingest/sdk/node-sessions.mjs", p.dsn, "api@1.4.0"]);
    const h = await health(p, "api@1.4.0");
    // Requests: 3 exited and 2 errored (an aggregate); the process: one session, errored, sent at start and at exit.
    assert.equal(h.totalSessions, 6);
    assert.equal(h.sessionsErrored, 3);
    assert.equal(h.sessionsCrashed, 0);
    assert.equal(h.crashFreeSessions, 100);
    assert.equal(h.totalUsers, 0, "server sessions carry no distinct id");
    assert.equal(h.crashFreeUsers, null);
    assert.equal(h.hasHealthData, true);
    assert.deepEqual(await health(p, "api@1.4.0", ["other"]), serializeHealth(undefined), "environments narrow the figures");
  });

  test("python3-sentry-sdk 1.9.10: request-mode aggregates and a user's application session in one envelope", async () => {
    const p = t.projects[0];
    await runSdk("/usr/bin/python3", ["tests/ingest/sdk/python-sessions.py", p.dsn, "worker@7.2"]); // Debian's, with python3-sentry-sdk
    const h = await health(p, "worker@7.2");
    assert.deepEqual(
      { total: h.totalSessions, errored: h.sessionsErrored, crashed: h.sessionsCrashed, users: h.totalUsers, crashFreeUsers: h.crashFreeUsers },
      { total: 4, errored: 1, crashed: 0, users: 1, crashFreeUsers: 100 },
    );
  });

  test("individual sessions: status transitions, crash-free sessions and users, updates and resends counted once", async () => {
    const p = t.projects[1];
    const [a, b, c, d] = [hex(), hex(), hex(), hex()];
    await sendSessions(p, [
      session(a, "u1", "ok", { init: true }),
      session(a, "u1", "ok", { errors: 1 }),
      session(b, "u2", "ok", { init: true }),
      session(c, "u3", "ok", { init: true }),
      session(d, "u3", "ok", { init: true }),
    ]);
    await sendSessions(p, [
      session(a, "u1", "crashed", { errors: 1 }),
      session(a, "u1", "crashed", { errors: 1 }), // resent
      session(b, "u2", "exited"),
      session(b, "u2", "crashed"), // an ended session never changes
      session(c, "u3", "exited", { errors: 2 }),
      session(d, "u3", "exited"),
    ]);
    const h = await health(p, "mobile@3.1.0+42");
    assert.deepEqual(
      {
        total: h.totalSessions,
        crashed: h.sessionsCrashed,
        errored: h.sessionsErrored,
        users: h.totalUsers,
        crashFreeSessions: h.crashFreeSessions,
        crashFreeUsers: h.crashFreeUsers,
      },
      { total: 4, crashed: 1, errored: 1, users: 3, crashFreeSessions: 75, crashFreeUsers: 100 - 100 / 3 },
    );
  });

  test("a session without a valid release or started too long ago is refused; a nil distinct id is no user", async () => {
    const p = t.projects[1];
    await sendSessions(p, [
      session(hex(), "u9", "exited", { attrs: { environment: "production" } }),
      session(hex(), "u9", "exited", { attrs: { release: "feature/x@1" } }),
      session(hex(), "u9", "exited", { started: new Date(Date.now() - 6 * 86_400_000).toISOString() }),
      session(hex(), "00000000-0000-0000-0000-000000000000", "exited", { attrs: { release: "nil-did@1" } }),
    ]);
    const outcomes = await t.core.store.outcomeTotals(p.id, new Date(Date.now() - 2 * 3_600_000).toISOString());
    const invalid = outcomes
      .filter((o) => o.category === "session" && o.outcome === "invalid" && o.reason === "invalid_session")
      .reduce((n, o) => n + o.quantity, 0);
    assert.equal(invalid, 3);
    const h = await health(p, "nil-did@1");
    assert.deepEqual([h.totalSessions, h.totalUsers], [1, 0]);
  });
});
