// Two-factor sign-in's storage (issue 20, migration 0034), run by conformance.ts on each dialect: whether a person
// enrolled, an organization's "require two-factor" (also on the Organization the store reads), and the TOTP codes
// already used: a code is claimed once, even by racing claims, per person, until it expires.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createOrganization } from "../../src/core/organizations";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

export function twoFactorConformance(fixture: () => Fixture) {
  test("two-factor: enrolment flag, require two-factor, a TOTP code claimed once (racing claims too), per person, until it expires", async () => {
    const { t, alice } = fixture();
    const bob = await t.accounts.createUser({ email: `${uniq("bob")}@example.com`, password: "password123", name: "Bob" });
    assert.equal(await t.store.userHasTwoFactor(bob.id), false);
    assert.equal(await t.store.userHasTwoFactor("no-such-user"), false);

    const org = await createOrganization(t.as(alice), { name: uniq("Org") });
    const stored = (await t.store.getOrganizationBySlug(org.slug))!;
    assert.equal(stored.requireTwoFactor, false);
    await t.store.setRequireTwoFactor(stored.id, true);
    assert.equal(await t.store.getRequireTwoFactor(stored.id), true);
    assert.equal((await t.store.getOrganizationById(stored.id))!.requireTwoFactor, true);
    assert.equal(
      (await t.store.listOrganizations({ userId: alice.id, all: false, page: { limit: 100 } })).items.find((o) => o.id === stored.id)!.requireTwoFactor,
      true,
    );
    await t.store.setRequireTwoFactor(stored.id, false);
    assert.equal(await t.store.getRequireTwoFactor(stored.id), false);
    assert.equal(await t.store.getRequireTwoFactor(2_000_000_000), false);

    const now = new Date("2026-01-01T00:00:00.000Z");
    const iso = (ms: number) => new Date(now.getTime() + ms).toISOString();
    // Ten racing claims of one code: exactly one wins.
    const results = await Promise.all(Array.from({ length: 10 }, () => t.store.claimTotpCode(bob.id, "123456", iso(90_000), iso(0))));
    assert.equal(results.filter(Boolean).length, 1);
    assert.equal(await t.store.claimTotpCode(bob.id, "123456", iso(90_000), iso(30_000)), false, "still used within its time");
    assert.equal(await t.store.claimTotpCode(alice.id, "123456", iso(90_000), iso(30_000)), true, "another person's code is theirs");
    assert.equal(await t.store.claimTotpCode(bob.id, "654321", iso(90_000), iso(30_000)), true);
    // Once expired, the mark goes (and the same digits may come round again much later).
    assert.equal(await t.store.claimTotpCode(bob.id, "123456", iso(200_000), iso(100_000)), true);
  });
}
