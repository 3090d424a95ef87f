// Invitations through the core: an owner or admin invites an e-mail address; only the account with that address
// joins through the link, with the role it names, once; someone signed out makes the account for that address there;
// a used, revoked, malformed or unknown link joins nobody; admins cannot invite owners. Inviting answers alike whether
// the address has an account or not, and makes no account.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { acceptInvitation, createInvitation, joinWithNewAccount, listInvitations, previewInvitation, revokeInvitation } from "../../src/core/invitations";
import { createOrganization } from "../../src/core/organizations";
import type { User } from "../../src/storage/ports";
import { joinByInvitation, outcome, type TestCore, testCore, uniq } from "../helpers/core";

let t: TestCore;
before(async () => {
  t = await testCore();
});
after(async () => {
  await t.close();
});

const user = (): Promise<User> => t.accounts.createUser({ email: `${uniq("u")}@example.com`, password: "password123", name: "U" });
const membership = async (orgSlug: string, u: User) => t.store.getMembership((await t.store.getOrganizationBySlug(orgSlug))!.id, u.id);

test("an invitation joins the invited account, signed in, with its role, once; the list shows only open invitations", async () => {
  const owner = await user();
  const org = await createOrganization(t.as(owner), { name: uniq("Org") });
  const bob = await user();
  const { invitation, secret } = await createInvitation(t.as(owner), org.slug, { email: ` ${bob.email.toUpperCase()} `, role: "admin" });
  assert.equal(invitation.email, bob.email, "kept trimmed and lowercase");
  assert.deepEqual(
    (await listInvitations(t.as(owner), org.slug)).map((i) => [i.id, i.email]),
    [[invitation.id, bob.email]],
  );
  const preview = await previewInvitation(t.store, secret);
  assert.deepEqual([preview.organization.slug, preview.role, preview.email, preview.open], [org.slug, "admin", bob.email, true]);
  assert.equal(await acceptInvitation(t.as(bob), secret), org.slug);
  assert.equal((await membership(org.slug, bob))?.role, "admin");
  assert.equal((await previewInvitation(t.store, secret)).open, false);
  assert.match(await outcome(() => acceptInvitation(t.as(bob), secret)), /conflict/);
  assert.deepEqual(await listInvitations(t.as(owner), org.slug), []);
});

test("inviting an address again replaces its open invitation; an address already among the members is refused", async () => {
  const owner = await user();
  const org = await createOrganization(t.as(owner), { name: uniq("Org") });
  const email = `${uniq("twice")}@example.com`;
  const first = await createInvitation(t.as(owner), org.slug, { email, role: "member" });
  const second = await createInvitation(t.as(owner), org.slug, { email, role: "viewer" });
  assert.deepEqual(
    (await listInvitations(t.as(owner), org.slug)).map((i) => i.id),
    [second.invitation.id],
  );
  assert.match(await outcome(() => previewInvitation(t.store, first.secret)), /not_found/, "the first link ended");
  assert.match(await outcome(() => createInvitation(t.as(owner), org.slug, { email: owner.email, role: "member" })), /conflict/);
  assert.match(await outcome(() => createInvitation(t.as(owner), org.slug, { email: "not an address", role: "member" })), /bad_request/);
});

test("someone signed out makes the account for the invited address through an open link, never another address, never a superuser", async () => {
  const owner = await user();
  const org = await createOrganization(t.as(owner), { name: uniq("Org") });
  const email = `${uniq("new")}@example.com`;
  const { secret } = await createInvitation(t.as(owner), org.slug, { email, role: "member" });
  const other = `${uniq("other")}@example.com`;
  assert.match(await outcome(() => joinWithNewAccount(t.accounts, t.store, secret, { password: "short" })), /bad_request/);
  assert.deepEqual(await joinWithNewAccount(t.accounts, t.store, secret, { email: other, password: "password123", name: "New", isSuperuser: true }), {
    email,
    joined: org.slug,
  });
  const created = await t.store.getUserByEmail(email);
  assert.equal(created?.isSuperuser, false);
  assert.equal(created?.name, "New");
  assert.equal(await t.store.getUserByEmail(other), null, "the address typed is not the one the account gets");
  assert.equal((await membership(org.slug, created!))?.role, "member");
  assert.match(await outcome(() => joinWithNewAccount(t.accounts, t.store, secret, { password: "password123" })), /conflict/, "used");
  assert.match(await outcome(() => joinWithNewAccount(t.accounts, t.store, "x".repeat(43), { password: "password123" })), /not_found/);
  assert.match(await outcome(() => previewInvitation(t.store, "../../etc")), /not_found/);
});

test("revoked links join nobody; an admin cannot invite an owner; a member already in is told so", async () => {
  const owner = await user();
  const org = await createOrganization(t.as(owner), { name: uniq("Org") });
  const admin = await user();
  await joinByInvitation(t, t.as(owner), org.slug, { email: admin.email, role: "admin" });
  assert.match(await outcome(() => createInvitation(t.as(admin), org.slug, { email: `${uniq("o")}@example.com`, role: "owner" })), /forbidden/);
  assert.match(await outcome(() => createInvitation(t.as(admin), org.slug, { email: `${uniq("o")}@example.com`, role: "chief" })), /bad_request/);
  const dave = await user();
  const { invitation, secret } = await createInvitation(t.as(admin), org.slug, { email: dave.email, role: "viewer" });
  await revokeInvitation(t.as(admin), org.slug, invitation.id);
  assert.match(await outcome(() => acceptInvitation(t.as(dave), secret)), /not_found/);
  assert.match(await outcome(() => revokeInvitation(t.as(admin), org.slug, invitation.id)), /not_found/);
  assert.equal(await membership(org.slug, dave), null);
});

test("hostile input #12: inviting an address answers alike with or without an account, makes no account and adds nobody", async () => {
  const owner = await user();
  const org = await createOrganization(t.as(owner), { name: uniq("Org") });
  const existing = await user();
  const fresh = `${uniq("fresh")}@example.com`;
  const shape = ({ invitation, secret }: Awaited<ReturnType<typeof createInvitation>>) => ({
    keys: Object.keys(invitation).sort(),
    organizationId: invitation.organizationId,
    role: invitation.role,
    createdBy: invitation.createdBy,
    accepted: [invitation.acceptedBy, invitation.acceptedAt],
    secret: /^[A-Za-z0-9_-]{43}$/.test(secret),
  });
  const a = await createInvitation(t.as(owner), org.slug, { email: existing.email, role: "member", password: "attacker-chosen" });
  const b = await createInvitation(t.as(owner), org.slug, { email: fresh, role: "member", password: "attacker-chosen" });
  assert.deepEqual(shape(a), shape(b));
  assert.equal(await t.store.getUserByEmail(fresh), null, "no account for the address invited");
  assert.equal(await membership(org.slug, existing), null, "the existing account is not a member until it accepts");
  assert.deepEqual(
    (await t.store.listMembers((await t.store.getOrganizationBySlug(org.slug))!.id)).map((m) => m.email),
    [owner.email],
  );
});

test("hostile input #12: a link joins only the invited address's account; another account, signed in or signing up, cannot use it", async () => {
  const owner = await user();
  const org = await createOrganization(t.as(owner), { name: uniq("Org") });
  const victim = await user();
  const { secret } = await createInvitation(t.as(owner), org.slug, { email: victim.email, role: "admin" });
  const intruder = await user();
  assert.match(await outcome(() => acceptInvitation(t.as(intruder), secret)), /forbidden/);
  assert.equal(await membership(org.slug, intruder), null);
  // Signed out with the link: the victim's account exists, so nothing is made and nobody joins without its password
  // (the dashboard then signs in with the password given, through better-auth's rate-limited check).
  assert.deepEqual(await joinWithNewAccount(t.accounts, t.store, secret, { email: intruder.email, password: "attacker-chosen" }), {
    email: victim.email,
    joined: null,
  });
  assert.equal(await membership(org.slug, victim), null);
  assert.equal((await previewInvitation(t.store, secret)).open, true, "the link is still the victim's to use");
  assert.equal(await acceptInvitation(t.as(victim), secret), org.slug);
});

test("hostile input #12: an account another organization's admin made through its own link does not join a second organization without that organization's link", async () => {
  // The pre-hijack of the finding: mallory invites an address into her own organization and sets its password
  // through her own link; acme later invites the same address. Acme's link, not the address, is what joins.
  const mallory = await user();
  const hers = await createOrganization(t.as(mallory), { name: uniq("Mallory") });
  const address = `${uniq("victim")}@example.com`;
  const own = await createInvitation(t.as(mallory), hers.slug, { email: address, role: "member" });
  await joinWithNewAccount(t.accounts, t.store, own.secret, { password: "mallory-knows" });
  const squatted = (await t.store.getUserByEmail(address))!;
  const acmeOwner = await user();
  const acme = await createOrganization(t.as(acmeOwner), { name: uniq("Acme") });
  await createInvitation(t.as(acmeOwner), acme.slug, { email: address, role: "admin" });
  assert.equal(await membership(acme.slug, squatted), null, "inviting adds nobody");
  assert.match(await outcome(() => joinWithNewAccount(t.accounts, t.store, own.secret, { password: "mallory-knows" })), /conflict/, "her own link is used up");
});
