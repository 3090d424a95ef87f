// Organization auth tokens, run by conformance.ts on each dialect: found by hash until revoked, within their
// organization only, with their creator; a use is recorded at most once a minute.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

export function orgTokenConformance(get: () => Fixture) {
  test("org tokens: created, listed with their creator, used by hash, revoked once, only in their organization", async () => {
    const { t, alice } = get();
    const o = await t.store.createOrganization({ slug: uniq("tok"), name: "Tok", ownerUserId: alice.id });
    const other = await t.store.createOrganization({ slug: uniq("tok"), name: "Other", ownerUserId: alice.id });
    const at = "2026-01-02T03:04:05.000Z";
    const hash = uniq("hash");
    const ci = await t.store.createOrgToken({ organizationId: o.id, name: "CI", tokenHash: hash, tokenSuffix: "abcd", createdBy: alice.id, createdAt: at });
    assert.deepEqual(ci, {
      id: ci.id,
      organizationId: o.id,
      name: "CI",
      tokenSuffix: "abcd",
      createdBy: { id: alice.id, name: alice.name, email: alice.email },
      createdAt: at,
      lastUsedAt: null,
      revokedAt: null,
    });
    const second = await t.store.createOrgToken({
      organizationId: o.id,
      name: "Deploy",
      tokenHash: uniq("hash"),
      tokenSuffix: "wxyz",
      createdBy: alice.id,
      createdAt: at,
    });
    assert.deepEqual(
      (await t.store.listOrgTokens(o.id)).map((x) => x.name),
      ["CI", "Deploy"],
    );
    assert.deepEqual(await t.store.listOrgTokens(other.id), []);

    const first = "2026-01-02T04:00:00.000Z";
    assert.equal((await t.store.useOrgToken(hash, first))?.lastUsedAt, first);
    assert.equal((await t.store.useOrgToken(hash, "2026-01-02T04:00:30.000Z"))?.lastUsedAt, first, "within a minute the first use stands");
    assert.equal((await t.store.useOrgToken(hash, "2026-01-02T04:02:00.000Z"))?.lastUsedAt, "2026-01-02T04:02:00.000Z");
    assert.equal(await t.store.useOrgToken("no-such-hash", first), null);

    assert.equal(await t.store.revokeOrgToken(other.id, ci.id, first), false, "only within its organization");
    assert.equal(await t.store.revokeOrgToken(o.id, ci.id, first), true);
    assert.equal(await t.store.revokeOrgToken(o.id, ci.id, first), false, "revoked once");
    assert.equal(await t.store.useOrgToken(hash, first), null, "a revoked token authenticates nothing");
    assert.deepEqual(
      (await t.store.listOrgTokens(o.id)).map((x) => x.id),
      [second.id],
    );

    await assert.rejects(
      t.store.createOrgToken({ organizationId: o.id, name: "Again", tokenHash: hash, tokenSuffix: "abcd", createdBy: alice.id, createdAt: at }),
      "a hash is unique",
    );
  });
}
