// The audit trail (issue 20, migration 0033), run by conformance.ts on each dialect: the changes the core records
// (who, from which address, old and new values) for members, invitations, keys, organization tokens, data scrubbing,
// alert rules, projects, erasures and personal tokens; read newest first per organization or of the instance, filtered
// by event and actor, paged; an organization deleted takes its trail along and leaves its deletion in the instance's.
import assert from "node:assert/strict";
import { test } from "node:test";
import { listAuditLog, listInstanceAuditLog, recordSignInAttempt } from "../../src/core/audit";
import type { CoreContext } from "../../src/core/context";
import { createInvitation, revokeInvitation } from "../../src/core/invitations";
import { createKey, deleteKey, updateKey } from "../../src/core/keys";
import { removeMember, updateMemberRole } from "../../src/core/members";
import { createMetricAlert, deleteMetricAlert } from "../../src/core/metric-alerts";
import { createOrgToken, revokeOrgToken } from "../../src/core/org-tokens";
import { createOrganization, deleteOrganization, updateOrganization } from "../../src/core/organizations";
import { createProject, deleteProject, updateProject } from "../../src/core/projects";
import { createAlertRule, deleteAlertRule, updateAlertRule } from "../../src/core/alert-rules";
import { erasePersonData } from "../../src/core/personal-data";
import { createToken, deleteToken } from "../../src/core/tokens";
import { AUDIT_LIMITS } from "../../src/config/limits";
import type { User } from "../../src/storage/ports";
import { joinByInvitation, outcome, type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

const RULE = {
  name: "Errors",
  actionMatch: "all",
  conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }],
  actions: [
    { id: "sentry.rules.actions.notify_event_service.NotifyEventServiceAction", service: "webhooks", url: "https://93.184.216.34/hooks/secret-path-123" },
  ],
};

export function auditConformance(fixture: () => Fixture) {
  test("audit trail: every security-relevant change of an organization, with who, the address, and old and new values", async () => {
    const { t, alice } = fixture();
    const as = (user: User, ip: string): CoreContext => ({ store: t.store, actor: { user }, ip });
    const owner = as(alice, "198.51.100.7");
    const org = await createOrganization(owner, { name: uniq("Audited") });
    const project = await createProject(owner, org.slug, { name: uniq("web") });
    const bobEmail = `${uniq("bob")}@example.com`;
    const bob = await t.accounts.createUser({ email: bobEmail, password: "correct horse battery", name: "Bob", isSuperuser: false });
    const member = await joinByInvitation(t, owner, org.slug, { email: bobEmail, role: "member" });
    await updateMemberRole(owner, org.slug, member.id, { role: "admin" });
    const invited = await createInvitation(owner, org.slug, { email: `${uniq("carol")}@example.com`, role: "viewer" });
    await revokeInvitation(owner, org.slug, invited.invitation.id);
    const key = (await createKey(owner, org.slug, project.slug, { name: "CI" })).key;
    await updateKey(owner, org.slug, project.slug, key.publicKey, { isActive: false });
    await deleteKey(owner, org.slug, project.slug, key.publicKey);
    const orgToken = await createOrgToken(owner, org.slug, { name: "deploys" }, "https://errors.example.com");
    await revokeOrgToken(owner, org.slug, orgToken.token.id);
    await updateOrganization(owner, org.slug, { scrubIPAddresses: true });
    await updateProject(owner, org.slug, project.slug, { sensitiveFields: ["card"] });
    const rule = await createAlertRule(owner, org.slug, project.slug, RULE);
    await updateAlertRule(owner, org.slug, project.slug, rule.id, { ...RULE, name: "Renamed" });
    await deleteAlertRule(owner, org.slug, project.slug, rule.id);
    const metric = await createMetricAlert(owner, org.slug, {
      name: "Many errors",
      aggregate: "count()",
      timeWindow: 5,
      thresholdType: 0,
      projects: [project.slug],
      triggers: [{ label: "critical", alertThreshold: 100, actions: [] }],
    });
    await deleteMetricAlert(owner, org.slug, metric.id);
    await erasePersonData(owner, org.slug, { field: "email", value: "ann@example.com" });
    await removeMember(as(bob, "203.0.113.9"), org.slug, member.id);
    const doomed = await createProject(owner, org.slug, { name: uniq("old") });
    await deleteProject(owner, org.slug, doomed.slug);

    const page = await listAuditLog(owner, org.slug, {});
    const events = page.entries.map((e) => e.event).reverse();
    assert.deepEqual(events, [
      "member.invite",
      "member.accept-invite",
      "member.edit",
      "member.invite",
      "invite.revoke",
      "projectkey.create",
      "projectkey.edit",
      "projectkey.remove",
      "orgauthtoken.create",
      "orgauthtoken.remove",
      "org.edit",
      "project.edit",
      "rule.create",
      "rule.edit",
      "rule.remove",
      "alertrule.create",
      "alertrule.remove",
      "personal-data.erase",
      "member.remove",
      "project.remove",
    ]);
    const by = (event: string) => page.entries.filter((e) => e.event === event);
    const roleChange = by("member.edit")[0]!;
    assert.equal(roleChange.actorUserId, alice.id);
    assert.equal(roleChange.actorLabel, alice.email);
    assert.equal(roleChange.ipAddress, "198.51.100.7");
    assert.equal(roleChange.targetUserId, bob.id);
    assert.deepEqual([roleChange.data.old, roleChange.data.new], [{ role: "member" }, { role: "admin" }]);
    assert.deepEqual([by("projectkey.edit")[0]!.data.old, by("projectkey.edit")[0]!.data.new], [{ isActive: true }, { isActive: false }]);
    assert.deepEqual([by("org.edit")[0]!.data.old, by("org.edit")[0]!.data.new], [{ scrubIPAddresses: false }, { scrubIPAddresses: true }]);
    assert.deepEqual(by("project.edit")[0]!.data.new, { sensitiveFields: ["card"] });
    assert.deepEqual([(by("rule.edit")[0]!.data.old as { name: string }).name, (by("rule.edit")[0]!.data.new as { name: string }).name], ["Errors", "Renamed"]);
    assert.ok(!JSON.stringify(page.entries).includes("secret-path-123"), "webhook paths (often secrets) are not kept");
    assert.ok(!JSON.stringify(page.entries).includes(orgToken.plaintext.slice(-20)), "no token in the trail");
    const left = by("member.remove")[0]!;
    assert.deepEqual([left.actorUserId, left.ipAddress, left.note], [bob.id, "203.0.113.9", `${bobEmail} left`]);
    assert.equal(by("member.accept-invite")[0]!.actorUserId, bob.id);
    assert.equal(by("project.remove")[0]!.data.slug, doomed.slug);

    // Filters: by event, by actor; the facets name what occurs.
    assert.deepEqual(
      (await listAuditLog(owner, org.slug, { event: "projectkey.remove" })).entries.map((e) => e.targetObject),
      [key.publicKey],
    );
    assert.deepEqual(
      (await listAuditLog(owner, org.slug, { actor: bob.id })).entries.map((e) => e.event),
      ["member.remove", "member.accept-invite"],
    );
    assert.deepEqual((await listAuditLog(owner, org.slug, { event: "no.such-event" })).entries, []);
    assert.ok(page.events.includes("rule.create") && page.actors.some((a) => a.userId === bob.id && a.label === bobEmail));
    // Hostile filters and cursors find nothing or start at the newest; they never fail.
    const newest = (await listAuditLog(owner, org.slug, {})).entries[0]!;
    for (const q of [{ cursor: "0" }, { cursor: "99999999999" }, { cursor: "x\u0000" }, { actor: "\u0000" }]) {
      const { entries } = await listAuditLog(owner, org.slug, q);
      assert.ok(entries.length === 0 || entries[0]!.id === newest.id, JSON.stringify(q));
    }
    // Too long to name anything (the pages pass the address's parameters as they come): nothing, or the newest.
    assert.deepEqual((await listAuditLog(owner, org.slug, { event: "e".repeat(1_000_000) })).entries, []);
    assert.deepEqual((await listAuditLog(owner, org.slug, { actor: "a".repeat(101) })).entries, []);
    assert.equal((await listAuditLog(owner, org.slug, { cursor: "9".repeat(21) })).entries[0]!.id, newest.id);
    // Only owners and admins: a member does not see it; another organization's trail is not found.
    await joinByInvitation(t, owner, org.slug, { email: bobEmail, role: "member" });
    assert.equal(await outcome(() => listAuditLog(as(bob, "203.0.113.9"), org.slug, {})), "forbidden");
  });

  test("audit trail: pages of AUDIT_LIMITS.pageSize by cursor; the instance's entries (sign-in failures, personal tokens, deleted organizations) for superusers only", async () => {
    const { t, alice } = fixture();
    const owner: CoreContext = { store: t.store, actor: { user: alice }, ip: "198.51.100.7" };
    const org = await createOrganization(owner, { name: uniq("Paged") });
    const orgId = (await t.store.getOrganizationBySlug(org.slug))!.id;
    for (let i = 0; i < AUDIT_LIMITS.pageSize + 5; i++)
      await t.store.recordAudit({
        organizationId: orgId,
        event: "org.edit",
        actorUserId: alice.id,
        actorLabel: alice.email,
        ipAddress: null,
        targetObject: null,
        targetUserId: null,
        note: `change ${i}`,
        data: "{}",
        createdAt: new Date().toISOString(),
      });
    const first = await listAuditLog(owner, org.slug, {});
    assert.equal(first.entries.length, AUDIT_LIMITS.pageSize);
    assert.equal(first.entries[0]!.note, `change ${AUDIT_LIMITS.pageSize + 4}`);
    const second = await listAuditLog(owner, org.slug, { cursor: first.nextCursor! });
    assert.deepEqual(
      second.entries.map((e) => e.note),
      ["change 4", "change 3", "change 2", "change 1", "change 0"],
    );
    assert.equal(second.nextCursor, null);

    const email = `${uniq("nobody")}@example.com`;
    await recordSignInAttempt(t.store, { email, ip: "192.0.2.44", lockedOut: false });
    await recordSignInAttempt(t.store, { email: `${email}\u0000${"x".repeat(10_000)}`, ip: "192.0.2.44", lockedOut: true });
    const { token } = await createToken(owner, { name: "ci", scopes: ["org:read"] });
    await deleteToken(owner, token.id);
    await deleteOrganization(owner, org.slug);
    assert.equal((await t.store.listAudit({ organizationId: orgId, limit: 10 })).length, 0, "the organization's trail went with it");
    const superuser = await t.accounts.createUser({ email: `${uniq("root")}@example.com`, password: "correct horse battery", name: "Root", isSuperuser: true });
    const instance = await listInstanceAuditLog({ store: t.store, actor: { user: superuser } }, {});
    const mine = instance.entries.filter((e) => e.data.email === email || e.actorLabel.startsWith(email) || e.actorUserId === alice.id);
    assert.deepEqual(
      mine.slice(0, 5).map((e) => e.event),
      ["org.remove", "api-token.remove", "api-token.create", "auth.lock-out", "auth.sign-in-failed"],
    );
    const lockOut = mine[3]!;
    assert.equal(lockOut.ipAddress, "192.0.2.44");
    assert.ok(lockOut.actorLabel.length <= AUDIT_LIMITS.emailMaxLength + 1 && !lockOut.actorLabel.includes("\u0000"));
    assert.deepEqual(
      (await listInstanceAuditLog({ store: t.store, actor: { user: superuser } }, { event: "auth.sign-in-failed" })).entries.every(
        (e) => e.event === "auth.sign-in-failed",
      ),
      true,
    );
    assert.equal(await outcome(() => listInstanceAuditLog(owner, {})), alice.isSuperuser ? "ok" : "forbidden");
  });
}
