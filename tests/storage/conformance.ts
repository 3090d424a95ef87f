// The storage contract (src/storage/ports.ts), written once and run against every dialect:
// store.sqlite.test.ts and store.pg.test.ts call conformance() with their own database.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { findInternalProject } from "../../src/core/internal-project";
import type { OpenDbOptions } from "../../src/storage/db";
import type { Role } from "../../src/core/roles";
import { DuplicateError, type Member, type User } from "../../src/storage/ports";
import { type TestCore, testCore, uniq } from "../helpers/core";
import { digestConformance } from "./conformance-digest";
import { concurrencyConformance } from "./conformance-concurrency";
import { clusterConformance } from "./conformance-cluster";
import { triageConformance } from "./conformance-triage";
import { streamConformance } from "./conformance-stream";
import { releaseConformance } from "./conformance-releases";
import { dashboardConformance } from "./conformance-dashboard";
import { orgTokenConformance } from "./conformance-org-tokens";
import { artifactConformance } from "./conformance-artifacts";
import { spanConformance } from "./conformance-spans";
import { deadLetterConformance } from "./conformance-dead-letters";
import { notificationSettingsConformance } from "./conformance-notification-settings";
import { alertRuleConformance } from "./conformance-alert-rules";
import { metricAlertConformance } from "./conformance-metric-alerts";
import { personalDataConformance } from "./conformance-personal-data";
import { scrubbingConformance } from "./conformance-scrubbing";
import { monitorConformance } from "./conformance-monitors";
import { feedbackConformance } from "./conformance-feedback";
import { attachmentConformance } from "./conformance-attachments";
import { logConformance } from "./conformance-logs";
import { auditConformance } from "./conformance-audit";
import { twoFactorConformance } from "./conformance-two-factor";
import { ssoConformance } from "./conformance-sso";
import { signInSessionConformance } from "./conformance-sign-in-sessions";

export function conformance(name: string, options: () => OpenDbOptions | Promise<OpenDbOptions>) {
  describe(`storage conformance: ${name}`, () => {
    let t: TestCore;
    let alice: User;
    let bob: User;
    before(async () => {
      t = await testCore(await options());
      alice = await t.accounts.createUser({ email: `${uniq("alice")}@example.com`, password: "password123", name: "Alice", isSuperuser: true });
      bob = await t.accounts.createUser({ email: `${uniq("Bob")}@Example.com`, password: "password123", name: "Bob" });
    });
    after(async () => t.close());

    test("users: created through auth, found by id and case-insensitively by e-mail, superuser flag as boolean", async () => {
      assert.ok((await t.store.countUsers()) >= 2);
      const found = await t.store.getUserByEmail(bob.email.toUpperCase());
      assert.equal(found?.id, bob.id);
      assert.equal(found?.isSuperuser, false);
      assert.equal((await t.store.getUserById(alice.id))?.isSuperuser, true);
      await t.store.setSuperuser(bob.id, true);
      assert.equal((await t.store.getUserById(bob.id))?.isSuperuser, true);
      await t.store.setSuperuser(bob.id, false);
      assert.equal(await t.store.getUserById("nope"), null);
    });

    test("organizations: create makes the owner a member atomically; slugs are unique", async () => {
      const slug = uniq("org");
      const org = await t.store.createOrganization({ slug, name: "Org", ownerUserId: alice.id });
      assert.equal(typeof org.id, "number");
      assert.match(org.createdAt, /^\d{4}-\d{2}-\d{2}T/);
      assert.equal((await t.store.getMembership(org.id, alice.id))?.role, "owner");
      await assert.rejects(t.store.createOrganization({ slug, name: "Again", ownerUserId: bob.id }), DuplicateError);
      // The failed create must not leave a membership behind.
      assert.equal(
        (await t.store.listOrganizations({ userId: bob.id, all: false, page: { limit: 100 } })).items.some((o) => o.slug === slug),
        false,
      );
      const renamed = await t.store.updateOrganization(org.id, { name: "Renamed" });
      assert.equal(renamed?.name, "Renamed");
      assert.equal(await t.store.updateOrganization(999_999, { name: "x" }), null);
    });

    test("organizations: keyset pages by slug, members only unless all", async () => {
      const prefix = uniq("page");
      for (const n of [3, 1, 2]) await t.store.createOrganization({ slug: `${prefix}-${n}`, name: `P${n}`, ownerUserId: bob.id });
      const first = await t.store.listOrganizations({ userId: bob.id, all: false, page: { limit: 2 } });
      const mine = first.items.map((o) => o.slug).filter((s) => s.startsWith(prefix));
      assert.deepEqual(mine, [`${prefix}-1`, `${prefix}-2`]);
      assert.ok(first.nextCursor);
      const second = await t.store.listOrganizations({ userId: bob.id, all: false, page: { limit: 2, cursor: first.nextCursor } });
      assert.equal(second.items[0]?.slug, `${prefix}-3`);
      const all = await t.store.listOrganizations({ userId: "nobody", all: true, page: { limit: 10_000 } });
      assert.ok(all.items.some((o) => o.slug === `${prefix}-1`));
      assert.equal((await t.store.listOrganizations({ userId: "nobody", all: false, page: { limit: 10 } })).items.length, 0);
    });

    /** Bob joins as people join: an invitation to his address, accepted. */
    async function join(organizationId: number, user: User, role: Role): Promise<Member> {
      const tokenHash = uniq("hash");
      const now = new Date().toISOString();
      const later = new Date(Date.now() + 60_000).toISOString();
      const invitation = await t.store.createInvitation({
        organizationId,
        email: user.email,
        role,
        tokenHash,
        createdBy: alice.id,
        createdAt: now,
        expiresAt: later,
      });
      assert.notEqual(invitation, "already_member");
      const joined = await t.store.acceptInvitation(tokenHash, user.id, now);
      assert.ok(typeof joined === "object", String(joined));
      return (await t.store.getMember(organizationId, joined.memberId))!;
    }

    test("members: join, role change, owner count, remove", async () => {
      const org = await t.store.createOrganization({ slug: uniq("m"), name: "M", ownerUserId: alice.id });
      const m = await join(org.id, bob, "viewer");
      assert.equal(m.email, bob.email.toLowerCase());
      assert.equal(m.role, "viewer");
      const promoted = await t.store.updateMemberRole(org.id, m.id, "owner");
      assert.ok(promoted && promoted !== "last_owner" && promoted.role === "owner");
      assert.equal(await t.store.countOwners(org.id), 2);
      assert.equal((await t.store.listMembers(org.id)).length, 2);
      assert.equal(await t.store.removeMember(org.id, m.id), true);
      assert.equal(await t.store.removeMember(org.id, m.id), false);
      assert.equal(await t.store.getMember(org.id, m.id), null);
    });

    test("members: the last owner can be neither demoted nor removed, also when two owners step down at once", async () => {
      const org = await t.store.createOrganization({ slug: uniq("lo"), name: "LO", ownerUserId: alice.id });
      const aliceMember = (await t.store.getMembership(org.id, alice.id))!;
      assert.equal(await t.store.updateMemberRole(org.id, aliceMember.id, "admin"), "last_owner");
      assert.equal(await t.store.removeMember(org.id, aliceMember.id), "last_owner");
      const bobMember = await join(org.id, bob, "owner");
      // Both owners demote themselves at the same moment: exactly one may succeed.
      const results = await Promise.all([t.store.updateMemberRole(org.id, aliceMember.id, "member"), t.store.updateMemberRole(org.id, bobMember.id, "member")]);
      assert.equal(results.filter((r) => r === "last_owner").length, 1);
      assert.equal(await t.store.countOwners(org.id), 1);
    });

    test("instance settings: a key is claimed once", async () => {
      const key = uniq("setting");
      const claims = await Promise.all([t.store.claimSetting(key, "a"), t.store.claimSetting(key, "b")]);
      assert.deepEqual(claims.sort(), [false, true]);
      await t.store.releaseSetting(key);
      assert.equal(await t.store.getSetting(key), null);
      assert.equal(await t.store.claimSetting(key, "c"), true);
      assert.equal(await t.store.getSetting(key), "c");
    });

    test("teams: unique per organization, membership idempotent, counted, cascades on delete", async () => {
      const org = await t.store.createOrganization({ slug: uniq("t"), name: "T", ownerUserId: alice.id });
      const other = await t.store.createOrganization({ slug: uniq("t"), name: "T2", ownerUserId: alice.id });
      const team = await t.store.createTeam({ organizationId: org.id, slug: "backend", name: "Backend" });
      await t.store.createTeam({ organizationId: other.id, slug: "backend", name: "Backend" });
      await assert.rejects(t.store.createTeam({ organizationId: org.id, slug: "backend", name: "Again" }), DuplicateError);
      const member = await t.store.getMembership(org.id, alice.id);
      await t.store.addTeamMember(team.id, member!.id);
      await t.store.addTeamMember(team.id, member!.id);
      assert.equal((await t.store.getTeamBySlug(org.id, "backend"))?.memberCount, 1);
      assert.deepEqual(await t.store.listTeamIdsOfMember(member!.id), [team.id]);
      const project = await t.store.createProject({ organizationId: org.id, teamId: team.id, slug: "api", name: "API", platform: "node" });
      assert.equal(await t.store.deleteTeam(org.id, team.id), true);
      assert.equal((await t.store.getProjectById(project.id))?.teamId, null, "a project outlives its team");
      assert.deepEqual(await t.store.listTeamIdsOfMember(member!.id), []);
    });

    test("projects: numeric ids, unique slug per organization, update, list across organizations, delete cascades keys", async () => {
      const a = await t.store.createOrganization({ slug: uniq("p"), name: "A", ownerUserId: alice.id });
      const b = await t.store.createOrganization({ slug: uniq("p"), name: "B", ownerUserId: alice.id });
      const pa = await t.store.createProject({ organizationId: a.id, teamId: null, slug: "web", name: "Web", platform: "javascript" });
      const pb = await t.store.createProject({ organizationId: b.id, teamId: null, slug: "web", name: "Web", platform: null });
      assert.ok(Number.isInteger(pa.id) && pa.id !== pb.id);
      await assert.rejects(t.store.createProject({ organizationId: a.id, teamId: null, slug: "web", name: "Dup", platform: null }), DuplicateError);
      const listed = await t.store.listProjects({ scope: { organizationIds: [a.id, b.id] }, page: { limit: 1 } });
      assert.equal(listed.items.length, 1);
      const rest = await t.store.listProjects({ scope: { organizationIds: [a.id, b.id] }, page: { limit: 1, cursor: listed.nextCursor } });
      assert.equal(rest.items.length, 1);
      assert.notEqual(rest.items[0]?.id, listed.items[0]?.id, "equal slugs in two organizations page without loss");
      assert.equal(rest.nextCursor, null);
      const mine = await t.store.listProjects({ scope: { memberUserId: alice.id }, page: { limit: 1000 } });
      assert.ok(mine.items.some((p) => p.id === pa.id) && mine.items.some((p) => p.id === pb.id));
      assert.equal((await t.store.listProjects({ scope: { memberUserId: "nobody" }, page: { limit: 10 } })).items.length, 0);
      assert.ok((await t.store.listProjects({ scope: { all: true }, page: { limit: 1000 } })).items.length >= 2);
      assert.equal((await t.store.getOrganizationById(a.id))?.slug, a.slug);
      assert.equal(await t.store.getTeamById(a.id, 999_999), null);
      assert.equal((await t.store.updateProject(pa.id, { name: "Website", platform: null }))?.platform, null);
      assert.equal(pa.scrapeJavaScript, false, "fetching sources from public URLs is off for a new project");
      assert.equal((await t.store.updateProject(pa.id, { scrapeJavaScript: true }))?.scrapeJavaScript, true);
      assert.equal((await t.store.getProjectById(pa.id))?.scrapeJavaScript, true);
      assert.equal((await t.store.updateProject(pa.id, { scrapeJavaScript: false }))?.scrapeJavaScript, false);
      await assert.rejects(
        t.store
          .updateProject(pa.id, { slug: "web2" })
          .then(() => t.store.createProject({ organizationId: a.id, teamId: null, slug: "web2", name: "x", platform: null })),
        DuplicateError,
      );
      const key = await t.store.createKey({ projectId: pa.id, label: "Default", publicKey: uniq("pk"), secretKey: "s" });
      assert.equal(await t.store.deleteProject(pa.id), true);
      assert.equal(await t.store.getKeyByPublicKey(key.publicKey), null);
    });

    test("keys: unique public key, enable and disable as boolean, rename, delete", async () => {
      const org = await t.store.createOrganization({ slug: uniq("k"), name: "K", ownerUserId: alice.id });
      const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: "k", name: "K", platform: null });
      const pk = uniq("pk");
      const k = await t.store.createKey({ projectId: p.id, label: "Default", publicKey: pk, secretKey: "secret" });
      assert.equal(k.isActive, true);
      await assert.rejects(t.store.createKey({ projectId: p.id, label: "Dup", publicKey: pk, secretKey: "x" }), DuplicateError);
      assert.equal((await t.store.updateKey(p.id, k.id, { isActive: false }))?.isActive, false);
      assert.equal((await t.store.getKeyByPublicKey(pk))?.isActive, false);
      assert.equal((await t.store.updateKey(p.id, k.id, { label: "Browser", isActive: true }))?.label, "Browser");
      assert.equal(await t.store.updateKey(p.id + 1000, k.id, { label: "x" }), null, "a key is only reachable through its project");
      assert.equal(await t.store.deleteKey(p.id, k.id), true);
      assert.deepEqual(await t.store.listKeys(p.id), []);
    });

    test("intake keys: one lookup gives the key's state, every quota of the key and its project, and whether it is the internal project's", async () => {
      const org = await t.store.createOrganization({ slug: uniq("ik"), name: "IK", ownerUserId: alice.id });
      const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: "ik", name: "IK", platform: null });
      const k = await t.store.createKey({ projectId: p.id, label: "Default", publicKey: uniq("ipk"), secretKey: "s" });
      assert.deepEqual(await t.store.getIntakeKey(k.publicKey), {
        keyId: k.id,
        projectId: p.id,
        isActive: true,
        keyQuotas: {},
        projectQuotas: {},
        internal: false,
        organizationId: org.id,
        organizationQuotas: {},
      });
      assert.deepEqual((await t.store.updateKey(p.id, k.id, { rateLimit: { count: 100, windowSeconds: 60 } }))?.rateLimit, { count: 100, windowSeconds: 60 });
      assert.deepEqual((await t.store.updateProject(p.id, { rateLimit: { count: 5000, windowSeconds: 86400 } }))?.rateLimit, {
        count: 5000,
        windowSeconds: 86400,
      });
      const keyQuotas = { transaction: { count: 10, windowSeconds: 60 }, attachment: { count: 1_000_000, windowSeconds: 3600 } };
      assert.deepEqual((await t.store.updateKey(p.id, k.id, { quotas: keyQuotas }))?.quotas, keyQuotas);
      assert.deepEqual((await t.store.updateProject(p.id, { quotas: { span: { count: 7, windowSeconds: 1 } } }))?.quotas, {
        span: { count: 7, windowSeconds: 1 },
      });
      // The organization's own quotas (issue 19: attachments in bytes), read with the key.
      await t.store.setOrganizationQuotas(org.id, { attachment: { count: 50_000_000, windowSeconds: 86400 } });
      assert.deepEqual(await t.store.organizationQuotas(org.id), { attachment: { count: 50_000_000, windowSeconds: 86400 } });
      await t.store.updateKey(p.id, k.id, { isActive: false });
      assert.deepEqual(await t.store.getIntakeKey(k.publicKey), {
        keyId: k.id,
        projectId: p.id,
        isActive: false,
        keyQuotas: { ...keyQuotas, error: { count: 100, windowSeconds: 60 } },
        projectQuotas: { span: { count: 7, windowSeconds: 1 }, error: { count: 5000, windowSeconds: 86400 } },
        internal: false,
        organizationId: org.id,
        organizationQuotas: { attachment: { count: 50_000_000, windowSeconds: 86400 } },
      });
      assert.equal((await t.store.updateKey(p.id, k.id, { rateLimit: null }))?.rateLimit, null);
      assert.deepEqual((await t.store.updateKey(p.id, k.id, { quotas: {} }))?.quotas, {});
      assert.deepEqual((await t.store.getIntakeKey(k.publicKey))?.keyQuotas, {});
      assert.equal(await t.store.getIntakeKey("no-such-key"), null);
      // The internal project (migration 0014) is told apart, so the intake gives its public key quotas of its own.
      const internal = await findInternalProject(t.store);
      assert.ok(internal?.key);
      assert.equal((await t.store.getIntakeKey(internal.key.publicKey))?.internal, true);
    });

    test("tokens: looked up by hash with their user, use recorded, deleted only by their owner", async () => {
      const hash = uniq("hash");
      const tok = await t.store.createToken({
        userId: bob.id,
        name: "CI",
        tokenHash: hash,
        tokenSuffix: "abcd",
        scopes: ["project:releases", "org:read"],
        expiresAt: null,
      });
      assert.equal(tok.lastUsedAt, null);
      assert.deepEqual(tok.scopes, ["project:releases", "org:read"]);
      assert.equal(tok.expiresAt, null);
      const now = new Date().toISOString();
      const used = await t.store.useToken(hash, now);
      assert.equal(used?.user.id, bob.id);
      assert.equal((await t.store.listTokens(bob.id))[0]?.lastUsedAt, now);
      assert.equal(await t.store.useToken("unknown", now), null);
      assert.equal(await t.store.deleteToken(alice.id, tok.id), false);
      assert.equal(await t.store.deleteToken(bob.id, tok.id), true);
    });

    test("tokens (migration 0032): scopes and expiry kept; a token from before scopes reads as full access; an expired token's use is not recorded", async () => {
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const scoped = await t.store.createToken({ userId: bob.id, name: "scoped", tokenHash: uniq("hash"), tokenSuffix: "0001", scopes: [], expiresAt });
      assert.deepEqual(scoped.scopes, [], "an empty list stays empty: no scope, never full access");
      assert.equal(scoped.expiresAt, expiresAt);
      const legacyHash = uniq("hash");
      await t.db.kysely
        .insertInto("api_tokens")
        .values({
          user_id: bob.id,
          name: "legacy",
          token_hash: legacyHash,
          token_suffix: "0002",
          created_at: new Date().toISOString(),
          last_used_at: null,
          scopes: null,
          expires_at: null,
        })
        .execute();
      assert.equal((await t.store.useToken(legacyHash, new Date().toISOString()))?.token.scopes, null);
      const garbled = uniq("hash");
      await t.db.kysely
        .insertInto("api_tokens")
        .values({
          user_id: bob.id,
          name: "garbled",
          token_hash: garbled,
          token_suffix: "0003",
          created_at: new Date().toISOString(),
          last_used_at: null,
          scopes: '{"not":"a list"}',
          expires_at: null,
        })
        .execute();
      assert.deepEqual((await t.store.useToken(garbled, new Date().toISOString()))?.token.scopes, [], "unreadable scopes give nothing");
      const expiredHash = uniq("hash");
      const past = new Date(Date.now() - 1000).toISOString();
      const expired = await t.store.createToken({
        userId: bob.id,
        name: "expired",
        tokenHash: expiredHash,
        tokenSuffix: "0004",
        scopes: ["org:read"],
        expiresAt: past,
      });
      assert.equal((await t.store.useToken(expiredHash, new Date().toISOString()))?.token.expiresAt, past);
      assert.equal((await t.store.listTokens(bob.id)).find((x) => x.id === expired.id)?.lastUsedAt, null);
      for (const x of await t.store.listTokens(bob.id)) await t.store.deleteToken(bob.id, x.id);
    });
    digestConformance(() => ({ t, alice }));
    concurrencyConformance(() => ({ t, alice }));
    clusterConformance(() => ({ t, alice }));
    triageConformance(() => ({ t, alice }));
    streamConformance(() => ({ t, alice }));
    releaseConformance(() => ({ t, alice }));
    dashboardConformance(() => ({ t, alice }));
    orgTokenConformance(() => ({ t, alice }));
    twoFactorConformance(() => ({ t, alice }));
    ssoConformance(() => ({ t, alice }));
    signInSessionConformance(() => ({ t, alice }));
    artifactConformance(() => ({ t, alice }));
    spanConformance(() => ({ t, alice }));
    deadLetterConformance(() => ({ t, alice }));
    notificationSettingsConformance(() => ({ t, alice }));
    alertRuleConformance(() => ({ t, alice }));
    metricAlertConformance(() => ({ t, alice }));
    personalDataConformance(() => ({ t, alice }));
    scrubbingConformance(() => ({ t, alice }));
    monitorConformance(() => ({ t, alice }));
    feedbackConformance(() => ({ t, alice }));
    attachmentConformance(() => ({ t, alice }));
    logConformance(() => ({ t, alice }));
    auditConformance(() => ({ t, alice }));
  });
}
