// Single sign-on's storage (issue 20, migration 0035), run by conformance.ts on each dialect: an organization's SSO
// settings replaced whole, auto-join organizations found by domain and joined once (racing joins too), the members
// of organizations that require SSO, provider and password accounts, and the instance settings' provider.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createOrganization } from "../../src/core/organizations";
import { autoJoinOrganizations, passwordSignInRefusal, setOrgSsoSettings, SSO_PROVIDER_ID } from "../../src/core/sso";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

export function ssoConformance(fixture: () => Fixture) {
  test("sso: organization settings, auto-join by domain once (racing too), require SSO, linked accounts, instance provider", async () => {
    const { t, alice } = fixture();
    const org = await createOrganization(t.as(alice), { name: uniq("Org") });
    const stored = (await t.store.getOrganizationBySlug(org.slug))!;
    assert.deepEqual(await t.store.getOrgSso(stored.id), { requireSso: false, autoJoinDomains: [], autoJoinRole: "member" });
    assert.equal(await t.store.getOrgSso(2_000_000_000), null);

    const domain = `${uniq("d")}.example`;
    await t.store.setOrgSso(stored.id, { requireSso: false, autoJoinDomains: [`b.${domain}`, domain], autoJoinRole: "viewer" });
    assert.deepEqual(await t.store.getOrgSso(stored.id), { requireSso: false, autoJoinDomains: [`b.${domain}`, domain].sort(), autoJoinRole: "viewer" });
    assert.deepEqual(await t.store.listAutoJoinOrganizations(domain), [{ organizationId: stored.id, role: "viewer" }]);
    assert.deepEqual(await t.store.listAutoJoinOrganizations(`other.${domain}`), []);
    // Replaced whole.
    await t.store.setOrgSso(stored.id, { requireSso: false, autoJoinDomains: [domain], autoJoinRole: "member" });
    assert.deepEqual((await t.store.getOrgSso(stored.id))!.autoJoinDomains, [domain]);

    const bob = await t.accounts.createUser({ email: `bob@${domain}`, password: "password123", name: "Bob" });
    const results = await Promise.all(Array.from({ length: 8 }, () => t.store.joinOrganization(stored.id, bob.id, "member")));
    assert.equal(results.filter(Boolean).length, 1, "joined once");
    assert.equal((await t.store.getMembership(stored.id, bob.id))!.role, "member");
    assert.equal(await t.store.joinOrganization(stored.id, alice.id, "viewer"), false, "an owner stays an owner");
    assert.equal((await t.store.getMembership(stored.id, alice.id))!.role, "owner");

    // Through the core: only a provider-verified address joins; the join is in the organization's audit trail.
    const carol = await t.accounts.createUser({ email: `carol@${domain.toUpperCase()}`, password: "password123", name: "Carol" });
    assert.deepEqual(await autoJoinOrganizations(t.store, carol, false, null), []);
    assert.equal(await t.store.getMembership(stored.id, carol.id), null);
    assert.deepEqual(await autoJoinOrganizations(t.store, carol, true, "192.0.2.1"), [stored.id]);
    assert.deepEqual(await autoJoinOrganizations(t.store, carol, true, "192.0.2.1"), [], "a member already");
    const joins = await t.store.listAudit({ organizationId: stored.id, events: ["member.auto-join"], limit: 10 });
    assert.equal(joins.length, 1);
    assert.equal(joins[0]!.targetUserId, carol.id);
    assert.equal(joins[0]!.ipAddress, "192.0.2.1");

    // Require SSO: the members' password sign-in is refused, others' not.
    assert.equal(await passwordSignInRefusal(t.store, bob.email), null);
    assert.equal(await t.store.userHasProviderAccount(alice.id, SSO_PROVIDER_ID), false);
    assert.equal(await t.store.userHasPassword(alice.id), true);
    await assert.rejects(setOrgSsoSettings(t.as(alice), org.slug, { requireSso: true, autoJoinDomains: [], autoJoinRole: "member" }, true), /once yourself/);
    await assert.rejects(setOrgSsoSettings(t.as(alice), org.slug, { requireSso: true, autoJoinDomains: [], autoJoinRole: "member" }, false), /not configured/);
    const now = new Date().toISOString();
    await t.db.kysely
      .insertInto("accounts")
      .values({
        id: crypto.randomUUID(),
        account_id: uniq("sub"),
        provider_id: SSO_PROVIDER_ID,
        user_id: alice.id,
        access_token: null,
        refresh_token: null,
        id_token: null,
        access_token_expires_at: null,
        refresh_token_expires_at: null,
        scope: null,
        password: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    assert.equal(await t.store.userHasProviderAccount(alice.id, SSO_PROVIDER_ID), true);
    await setOrgSsoSettings(t.as(alice), org.slug, { requireSso: true, autoJoinDomains: [`${domain}.`, domain.toUpperCase()], autoJoinRole: "viewer" }, true);
    assert.deepEqual(await t.store.getOrgSso(stored.id), { requireSso: true, autoJoinDomains: [domain], autoJoinRole: "viewer" });
    assert.deepEqual(await t.store.listSsoRequiringOrganizations(bob.id), [org.slug]);
    assert.match((await passwordSignInRefusal(t.store, bob.email.toUpperCase()))!, /single sign-on/);
    assert.equal(await passwordSignInRefusal(t.store, "nobody@nowhere.example"), null);
    await assert.rejects(
      setOrgSsoSettings(t.as(alice), org.slug, { requireSso: true, autoJoinDomains: ["*.example.com"], autoJoinRole: "member" }, true),
      /domain/,
    );
    await assert.rejects(setOrgSsoSettings(t.as(alice), org.slug, { requireSso: true, autoJoinDomains: [], autoJoinRole: "owner" }, true));
    await assert.rejects(
      setOrgSsoSettings(
        t.as(alice),
        org.slug,
        { requireSso: true, autoJoinDomains: Array.from({ length: 21 }, (_, i) => `d${i}.example`), autoJoinRole: "member" },
        true,
      ),
    );

    // The instance settings' provider.
    assert.equal(await t.store.getSsoSettings(), null);
    const settings = { issuer: "https://login.example.com", clientId: "faultline", clientSecret: "v1:encrypted", name: "Example ID", updatedAt: now };
    await t.store.setSsoSettings(settings);
    assert.deepEqual(await t.store.getSsoSettings(), settings);
    await t.store.setSsoSettings({ ...settings, name: "Renamed" });
    assert.equal((await t.store.getSsoSettings())!.name, "Renamed");
    await t.store.setSsoSettings(null);
    assert.equal(await t.store.getSsoSettings(), null);
  });
}
