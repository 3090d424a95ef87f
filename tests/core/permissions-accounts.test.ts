// Accounts and owners in the permission model: only superusers make and list accounts (instance settings); the last
// owner can neither leave nor be demoted, only owners make owners, and any member may leave.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createAccount, listAccounts } from "../../src/core/accounts";
import { type DiskProbe, instanceDiskUsage } from "../../src/core/disk-usage";
import { removeMember, updateMemberRole } from "../../src/core/members";
import { authenticateOrgToken, createOrgToken } from "../../src/core/org-tokens";
import { ROLES } from "../../src/core/roles";
import { joinByInvitation, outcome, uniq } from "../helpers/core";
import { t, coreForThisFile, user, world } from "./permission-world";

coreForThisFile();

describe("accounts are made by superusers only (instance settings)", () => {
  for (const role of ROLES) {
    test(`hostile input #12: an organization's ${role} may neither create an account nor list the install's accounts`, async () => {
      const { w, owner } = await world();
      const actor = role === "owner" ? owner : await user();
      if (role !== "owner") await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
      const email = `${uniq("made")}@example.com`;
      assert.equal(await outcome(() => createAccount(t.as(actor), t.accounts, { email, password: "password123" })), "forbidden");
      assert.equal(await outcome(() => listAccounts(t.as(actor), { limit: 10 })), "forbidden");
      assert.equal(await t.store.getUserByEmail(email), null);
    });
  }

  test("only a superuser sees the instance's disk usage: owners, members and tokens are refused before anything is measured", async () => {
    const { w, owner } = await world();
    let measured = 0;
    const probe: DiskProbe = {
      measure: async () => {
        measured++;
        return { dialect: "sqlite", bytes: { database: 1, artifacts: 0, spool: 0, attachments: 0, other: 0 }, freeBytes: 10, totalBytes: 20 };
      },
      record: () => [],
      samples: () => [],
      growth: () => ({ bytesPerDay: null, daysLeft: null, samples: 0 }),
    };
    assert.equal(await outcome(() => instanceDiskUsage(t.as(owner), probe)), "forbidden");
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const token = (await authenticateOrgToken(t.store, plaintext))!;
    assert.equal(await outcome(() => instanceDiskUsage({ store: t.store, actor: token }, probe)), "forbidden");
    assert.equal(measured, 0);
    const su = await user(true);
    assert.equal(await outcome(() => instanceDiskUsage(t.as(su), probe)), "ok");
    assert.equal(measured, 1);
  });

  test("an organization token may neither create an account nor list accounts", async () => {
    const { w, owner } = await world();
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const actor = (await authenticateOrgToken(t.store, plaintext))!;
    assert.equal(
      await outcome(() => createAccount({ store: t.store, actor }, t.accounts, { email: `${uniq("made")}@example.com`, password: "password123" })),
      "forbidden",
    );
    assert.equal(await outcome(() => listAccounts({ store: t.store, actor }, { limit: 10 })), "forbidden");
  });

  test("a superuser creates accounts, superusers too, and lists them by e-mail; a taken address is refused", async () => {
    const su = await user(true);
    const email = `${uniq("aa-made")}@example.com`;
    const made = await createAccount(t.as(su), t.accounts, { email, password: "password123", name: "Made", isSuperuser: true });
    assert.deepEqual([made.email, made.name, made.isSuperuser], [email, "Made", true]);
    assert.equal(await outcome(() => createAccount(t.as(su), t.accounts, { email: email.toUpperCase(), password: "password123" })), "conflict");
    const first = await listAccounts(t.as(su), { limit: 1 });
    assert.equal(first.items.length, 1);
    // Every page to the end: this file's other tests make well over a thousand accounts.
    const all = first.items.map((u) => u.email);
    for (let cursor = first.nextCursor; cursor; ) {
      const page = await listAccounts(t.as(su), { limit: 500, cursor });
      all.push(...page.items.map((u) => u.email));
      cursor = page.nextCursor;
    }
    const outOfOrder = all.findIndex((e, i) => i > 0 && all[i - 1]! >= e);
    assert.equal(outOfOrder, -1, `accounts listed by e-mail, each once: ${all.slice(outOfOrder - 1, outOfOrder + 1).join(" before ")}`);
    assert.equal(all.includes(email), true, "the new account is listed");
    assert.equal(all.includes(su.email), true, "the superuser is listed");
  });
});

describe("owner safeguards", () => {
  test("an admin cannot promote anyone to owner, an owner can", async () => {
    const { w, owner } = await world();
    const admin = await user();
    await joinByInvitation(t, t.as(owner), w.org, { email: admin.email, role: "admin" });
    assert.equal(await outcome(() => updateMemberRole(t.as(admin), w.org, w.targetMemberId, { role: "owner" })), "forbidden");
    assert.equal(await outcome(() => updateMemberRole(t.as(owner), w.org, w.targetMemberId, { role: "owner" })), "ok");
  });

  test("the last owner can neither leave nor be demoted", async () => {
    const { w, owner } = await world();
    const me = await t.store.getMembership((await t.store.getOrganizationBySlug(w.org))!.id, owner.id);
    assert.equal(await outcome(() => removeMember(t.as(owner), w.org, me!.id)), "conflict");
    assert.equal(await outcome(() => updateMemberRole(t.as(owner), w.org, me!.id, { role: "admin" })), "conflict");
  });

  test("any member may leave on their own", async () => {
    const { w, owner } = await world();
    const viewer = await user();
    const m = await joinByInvitation(t, t.as(owner), w.org, { email: viewer.email, role: "viewer" });
    assert.equal(await outcome(() => removeMember(t.as(viewer), w.org, m.id)), "ok");
  });
});
