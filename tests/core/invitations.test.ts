// Invitations by link through the core: an admin makes a link, someone signed in or someone new joins with it once,
// with the role it names; a used, revoked, malformed or unknown link joins nobody; admins cannot invite owners.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { acceptInvitation, acceptInvitationWithNewAccount, createInvitation, listInvitations, previewInvitation, revokeInvitation } from "../../src/core/invitations";
import { addMember } from "../../src/core/members";
import { createOrganization } from "../../src/core/organizations";
import type { User } from "../../src/storage/ports";
import { outcome, type TestCore, testCore, uniq } from "../helpers/core";

let t: TestCore;
before(async () => {
  t = await testCore();
});
after(async () => {
  await t.close();
});

const user = (): Promise<User> => t.accounts.createUser({ email: `${uniq("u")}@example.com`, password: "password123", name: "U" });

test("a link joins one signed-in user with its role, once; the list shows only open links", async () => {
  const owner = await user();
  const org = await createOrganization(t.as(owner), { name: uniq("Org") });
  const { invitation, secret } = await createInvitation(t.as(owner), org.slug, { role: "admin" });
  assert.deepEqual((await listInvitations(t.as(owner), org.slug)).map((i) => i.id), [invitation.id]);
  const preview = await previewInvitation(t.store, secret);
  assert.deepEqual([preview.organization.slug, preview.role, preview.open], [org.slug, "admin", true]);
  const bob = await user();
  assert.equal(await acceptInvitation(t.as(bob), secret), org.slug);
  assert.equal((await t.store.getMembership((await t.store.getOrganizationBySlug(org.slug))!.id, bob.id))?.role, "admin");
  assert.equal((await previewInvitation(t.store, secret)).open, false);
  const carol = await user();
  assert.match(await outcome(() => acceptInvitation(t.as(carol), secret)), /conflict/);
  assert.deepEqual(await listInvitations(t.as(owner), org.slug), []);
});

test("someone new makes an account through an open link; never through a used or unknown one, never a superuser", async () => {
  const owner = await user();
  const org = await createOrganization(t.as(owner), { name: uniq("Org") });
  const { secret } = await createInvitation(t.as(owner), org.slug, { role: "member" });
  const email = `${uniq("new")}@example.com`;
  const { user: created, orgSlug } = await acceptInvitationWithNewAccount(t.accounts, t.store, secret, { email, password: "password123", name: "New", isSuperuser: true });
  assert.equal(orgSlug, org.slug);
  assert.equal(created.isSuperuser, false);
  const other = `${uniq("late")}@example.com`;
  assert.match(await outcome(() => acceptInvitationWithNewAccount(t.accounts, t.store, secret, { email: other, password: "password123" })), /conflict/);
  assert.equal(await t.store.getUserByEmail(other), null, "a used link makes no account");
  assert.match(await outcome(() => acceptInvitationWithNewAccount(t.accounts, t.store, "x".repeat(43), { email: other, password: "password123" })), /not_found/);
  assert.match(await outcome(() => previewInvitation(t.store, "../../etc")), /not_found/);
  assert.equal(await t.store.getUserByEmail(other), null);
});

test("revoked links join nobody; an admin cannot invite an owner; a member already in is told so", async () => {
  const owner = await user();
  const org = await createOrganization(t.as(owner), { name: uniq("Org") });
  const admin = await user();
  await addMember({ ...t.as(owner), accounts: t.accounts }, org.slug, { email: admin.email, role: "admin" });
  assert.match(await outcome(() => createInvitation(t.as(admin), org.slug, { role: "owner" })), /forbidden/);
  assert.match(await outcome(() => createInvitation(t.as(admin), org.slug, { role: "chief" })), /bad_request/);
  const { invitation, secret } = await createInvitation(t.as(admin), org.slug, { role: "viewer" });
  assert.match(await outcome(() => acceptInvitation(t.as(admin), secret)), /conflict/);
  await revokeInvitation(t.as(admin), org.slug, invitation.id);
  const dave = await user();
  assert.match(await outcome(() => acceptInvitation(t.as(dave), secret)), /not_found/);
  assert.match(await outcome(() => revokeInvitation(t.as(admin), org.slug, invitation.id)), /not_found/);
});
