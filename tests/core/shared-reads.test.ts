// A page's render reads who the person is, and where, once (web/shared-reads.ts through web/render-store.ts): the
// shared reads are asked of the database once per arguments, the same answers come back, and other arguments, other
// methods and another render's store still reach it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { getOrgAccess } from "../../src/core/access";
import { createOrganization } from "../../src/core/organizations";
import type { Store } from "../../src/storage/ports";
import { SHARED_READS, withSharedReads } from "../../src/web/shared-reads";
import { testCore, uniq } from "../helpers/core";

/** The real store, counting the calls that reach it by method. */
function counted(store: Store): { store: Store; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.set(String(key), (calls.get(String(key)) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

test("shared reads: asked once per arguments within one store, answers the same; other arguments, methods and stores reach the database", async () => {
  const t = await testCore();
  try {
    const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "Owner" });
    const org = await createOrganization(t.as(owner), { name: uniq("Org") });
    const { store, calls } = counted(t.store);
    const shared = withSharedReads(store);
    const ctx = { store: shared, actor: { user: owner } };
    // A page's layout, the page, and two of its components each check access.
    const accesses = await Promise.all([1, 2, 3, 4].map(() => getOrgAccess(ctx, org.slug)));
    assert.deepEqual(new Set(accesses.map((a) => a.role)), new Set(["owner"]));
    assert.equal(calls.get("getOrganizationBySlug"), 1);
    assert.equal(calls.get("getMembership"), 1);
    assert.equal(await shared.getOrganizationBySlug("no-such-org"), null);
    assert.equal(calls.get("getOrganizationBySlug"), 2, "other arguments are asked");
    assert.equal((await shared.getUserById(owner.id))?.email, owner.email);
    assert.equal((await shared.getUserById(owner.id))?.email, owner.email);
    assert.equal(calls.get("getUserById"), 1);
    // Reads outside the list reach the database every time.
    await shared.listMembers(org.id);
    await shared.listMembers(org.id);
    assert.equal(calls.get("listMembers"), 2);
    // Another store (the next render, or a server action's) asks again.
    await getOrgAccess({ store: withSharedReads(store), actor: { user: owner } }, org.slug);
    assert.equal(calls.get("getOrganizationBySlug"), 3);
    for (const name of SHARED_READS) assert.equal(typeof t.store[name], "function", `${name} is a method of the store`);
  } finally {
    await t.close();
  }
});
