// The release pages' reads and invitations by link, run by conformance.ts on each dialect: sessions per hour of a
// release, its events and new issues through the digest's own writeBatch, environments (events' and sessions'), and
// an invitation accepted once, never twice, never after it expired.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hourOf } from "../../src/core/hours";
import { writeBatch } from "../../src/digest/commit";
import type { SessionAggregate } from "../../src/digest/sessions";
import type { Role } from "../../src/core/roles";
import type { Invitation } from "../../src/storage/dashboard-ports";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

export function dashboardConformance(get: () => Fixture) {
  const hour = (hoursAgo: number) => hourOf(Date.now() - hoursAgo * 3_600_000);
  async function org() {
    const { t, alice } = get();
    const o = await t.store.createOrganization({ slug: uniq("dash"), name: "Dash", ownerUserId: alice.id });
    const project = () => t.store.createProject({ organizationId: o.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    return { o, a: await project(), b: await project() };
  }
  const event = (projectId: number, eventId: string, over: { release?: string | null; environment?: string | null; hash?: string }) => {
    const at = hour(1);
    return {
      projectId,
      eventId,
      type: "error",
      receivedAt: at,
      timestamp: at,
      platform: "node",
      level: "error",
      title: `E ${over.hash ?? "h"}`,
      message: "",
      culprit: "c",
      release: over.release ?? null,
      environment: over.environment ?? null,
      size: 2,
      data: "{}",
      category: "error" as const,
      grouping: { config: "c", hashes: [over.hash ?? "h"] },
      metadata: "{}",
      userKey: null,
      tags: [],
    };
  };

  test("release reads: sessions per hour, events per environment, new issues, environments of events and sessions", async () => {
    const { t } = get();
    const { o, a, b } = await org();
    const agg = (over: Partial<SessionAggregate>): SessionAggregate =>
      ({
        kind: "aggregate",
        projectId: a.id,
        distinctId: null,
        started: hour(2),
        receivedAt: hour(2),
        release: "web@3",
        environment: "production",
        exited: 0,
        errored: 0,
        abnormal: 0,
        crashed: 0,
        ...over,
      }) as SessionAggregate;
    await writeBatch(t.store, {
      spoolId: uniq("spool"),
      position: 1,
      rawItems: [],
      outcomes: [],
      events: [
        event(a.id, "a".repeat(32), { release: "web@3", environment: "production", hash: "x" }),
        event(a.id, "b".repeat(32), { release: "web@3", environment: "staging", hash: "y" }),
        event(a.id, "c".repeat(32), { release: "web@2", environment: "production", hash: "z" }),
        event(b.id, "d".repeat(32), { release: "web@3", environment: null, hash: "x" }),
      ],
      sessions: [
        agg({ exited: 8, crashed: 2 }),
        agg({ started: hour(5), exited: 3, errored: 1 }),
        agg({ environment: "canary", exited: 4 }),
        agg({ started: hour(50), exited: 9 }),
      ],
    });
    const series = await t.store.releaseSessionSeries([a.id], "web@3", { environments: null, sinceHour: hour(24) });
    assert.deepEqual(series, [
      { hour: hour(5), sessions: 4, erroredAll: 1, crashed: 0, abnormal: 0 },
      { hour: hour(2), sessions: 14, erroredAll: 2, crashed: 2, abnormal: 0 },
    ]);
    const canary = await t.store.releaseSessionSeries([a.id], "web@3", { environments: ["canary"], sinceHour: hour(24) });
    assert.deepEqual(
      canary.map((r) => [r.hour, r.sessions]),
      [[hour(2), 4]],
    );
    assert.deepEqual(await t.store.releaseSessionSeries([b.id], "web@3", { environments: null, sinceHour: hour(24) }), []);

    assert.equal(await t.store.releaseEventCount([a.id, b.id], "web@3", null), 3);
    assert.equal(await t.store.releaseEventCount([a.id, b.id], "web@3", ["production"]), 1);
    assert.equal(await t.store.releaseEventCount([a.id], "web@2", ["staging"]), 0);
    assert.equal(await t.store.releaseEventCount([], "web@3", null), 0);

    const fresh = await t.store.releaseNewIssues([a.id, b.id], "web@3", 10);
    assert.deepEqual(
      fresh.map((i) => [i.projectId, i.title]).sort(),
      [
        [a.id, "E x"],
        [a.id, "E y"],
        [b.id, "E x"],
      ].sort(),
    );
    assert.equal((await t.store.releaseNewIssues([a.id], "web@3", 1)).length, 1, "the limit holds");
    assert.deepEqual(
      (await t.store.releaseNewIssues([a.id], "web@2", 10)).map((i) => i.title),
      ["E z"],
    );

    assert.deepEqual(await t.store.listEnvironments(o.id, null), ["canary", "production", "staging"]);
    assert.deepEqual(await t.store.listEnvironments(o.id, [b.id]), []);
    assert.deepEqual(await t.store.listEnvironments(o.id, [a.id, b.id]), ["canary", "production", "staging"]);
    assert.deepEqual(await t.store.listEnvironments(o.id, []), []);
  });

  test("invitations: for one address, accepted once by its account only, never after expiry; a new one replaces the open one; members are not invited", async () => {
    const { t, alice } = get();
    const { o } = await org();
    const bob = await t.accounts.createUser({ email: `${uniq("bob")}@example.com`, password: "password123", name: "Bob" });
    const carol = await t.accounts.createUser({ email: `${uniq("carol")}@example.com`, password: "password123", name: "Carol" });
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const invite = async (email: string, role: Role, expiresAt: string) => {
      const made = await t.store.createInvitation({
        organizationId: o.id,
        email,
        role,
        tokenHash: uniq("hash"),
        createdBy: alice.id,
        createdAt: now,
        expiresAt,
      });
      assert.notEqual(made, "already_member", email);
      return made as Invitation;
    };
    const inv = await invite(` ${bob.email.toUpperCase()}`, "admin", later);
    assert.equal(inv.email, bob.email.toLowerCase(), "kept trimmed and lowercase");
    const expired = await invite(carol.email, "member", now);
    assert.equal(
      await t.store.createInvitation({
        organizationId: o.id,
        email: alice.email.toUpperCase(),
        role: "member",
        tokenHash: uniq("hash"),
        createdBy: alice.id,
        createdAt: now,
        expiresAt: later,
      }),
      "already_member",
    );
    assert.deepEqual(
      (await t.store.listPendingInvitations(o.id)).map((i) => i.id),
      [expired.id, inv.id],
    );
    const hashOf = async (id: number) =>
      (await t.db.kysely.selectFrom("invitations").select("token_hash").where("id", "=", id).executeTakeFirstOrThrow()).token_hash;
    const hash = await hashOf(inv.id);
    assert.deepEqual([(await t.store.getInvitationByHash(hash))?.role, (await t.store.getInvitationByHash(hash))?.email], ["admin", bob.email.toLowerCase()]);
    assert.equal(await t.store.acceptInvitation(hash, alice.id, now), "other_address");
    assert.equal(await t.store.acceptInvitation(hash, carol.id, now), "other_address");
    const results = await Promise.all([t.store.acceptInvitation(hash, bob.id, now), t.store.acceptInvitation(hash, bob.id, now)]);
    const joined = results.filter((r) => typeof r === "object");
    assert.equal(joined.length, 1, "one link, one new member");
    assert.equal(results.filter((r) => r === "invalid").length, 1);
    const member = await t.store.getMember(o.id, (joined[0] as { memberId: number }).memberId);
    assert.deepEqual([member?.role, member?.userId], ["admin", bob.id]);
    assert.equal((await t.store.getInvitationByHash(hash))?.acceptedBy, bob.id);
    assert.equal(await t.store.acceptInvitation(await hashOf(expired.id), carol.id, now), "invalid", "expired");
    assert.equal(await t.store.acceptInvitation("no-such-hash", bob.id, now), "invalid");
    assert.deepEqual(
      (await t.store.listPendingInvitations(o.id)).map((i) => i.id),
      [expired.id],
    );
    const again = await invite(carol.email, "viewer", later);
    assert.deepEqual(
      (await t.store.listPendingInvitations(o.id)).map((i) => i.id),
      [again.id],
      "the open invitation of the address is replaced",
    );
    assert.equal((await t.store.getInvitationByHash(await hashOf(again.id)))?.role, "viewer");
    assert.equal(await t.store.deleteInvitation(o.id + 1000, again.id), false, "only within its organization");
    assert.equal(await t.store.deleteInvitation(o.id, again.id), true);
    assert.deepEqual(await t.store.listPendingInvitations(o.id), []);
  });
}
