// Sign-in sessions' storage (issue 20, migration 0036), run by conformance.ts on each dialect: sessions made by
// better-auth itself (its own writes: Date objects on PostgreSQL, ISO strings on SQLite) are listed per person, unexpired
// only, the most recently seen first; a person deletes only their own; "all but this one"; and "last seen" is written
// only when the stored one is older than the throttle's bound.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createAuth } from "../../src/auth/create-auth";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

export function signInSessionConformance(fixture: () => Fixture) {
  test("sign-in sessions: listed per person (unexpired, last seen first), deleted only by their owner, all but one, last seen written conditionally", async () => {
    const { t } = fixture();
    const auth = createAuth({ db: t.db, secret: "conformance-secret-conformance-secret-0", publicUrl: "http://localhost:9000", basePath: "" });
    const adapter = (await auth.$context).internalAdapter;
    const bob = await t.accounts.createUser({ email: `${uniq("bob")}@example.com`, password: "password123", name: "Bob" });
    const carol = await t.accounts.createUser({ email: `${uniq("carol")}@example.com`, password: "password123", name: "Carol" });
    const ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const first = await adapter.createSession(bob.id, false, { ipAddress: "203.0.113.7", userAgent: ua });
    const second = await adapter.createSession(bob.id, false, { ipAddress: "2001:db8::1", userAgent: "" });
    const expired = await adapter.createSession(bob.id, false, { expiresAt: new Date(Date.now() - 60_000) }, true);
    const carols = await adapter.createSession(carol.id, false, { ipAddress: "198.51.100.1", userAgent: ua });
    const now = new Date().toISOString();

    const listed = await t.store.listUserSessions(bob.id, now);
    assert.deepEqual(listed.map((s) => s.id).sort(), [first.id, second.id].sort(), "unexpired, Bob's only");
    const one = listed.find((s) => s.id === first.id)!;
    assert.equal(one.ipAddress, "203.0.113.7");
    assert.equal(one.userAgent, ua);
    assert.equal(one.lastSeenAt, null, "not seen since signing in");
    assert.match(one.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(Date.parse(one.expiresAt) > Date.now());
    assert.ok(Math.abs(Date.parse(one.createdAt) - Date.now()) < 60_000);
    assert.equal(listed.find((s) => s.id === second.id)!.ipAddress, "2001:db8::1");

    // Last seen: written when none is stored or the stored one is older than the bound, never otherwise.
    const base = Date.now() + 60_000;
    const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    await t.store.touchSession(second.id, at(10), at(5));
    assert.equal((await t.store.listUserSessions(bob.id, now))[0]!.id, second.id, "the session seen most recently first");
    await t.store.touchSession(second.id, at(12), at(7));
    assert.equal((await t.store.listUserSessions(bob.id, now)).find((s) => s.id === second.id)!.lastSeenAt, at(10), "seen within the bound: no write");
    await t.store.touchSession(second.id, at(16), at(11));
    assert.equal((await t.store.listUserSessions(bob.id, now)).find((s) => s.id === second.id)!.lastSeenAt, at(16));
    await t.store.touchSession("no-such-session", at(16), at(11));

    // Deleting: only the owner's own session, by id.
    assert.equal(await t.store.deleteUserSession(bob.id, carols.id), false, "Carol's session is not Bob's to delete");
    assert.equal((await t.store.listUserSessions(carol.id, now)).length, 1);
    assert.equal(await t.store.deleteUserSession(bob.id, "no-such-session"), false);
    assert.equal(await t.store.deleteUserSession(bob.id, second.id), true);
    assert.equal(await t.store.deleteUserSession(bob.id, second.id), false, "already gone");
    assert.equal(await adapter.findSession(second.token), null, "better-auth no longer finds it");

    const third = await adapter.createSession(bob.id, false, {});
    const fourth = await adapter.createSession(bob.id, false, {});
    const deleted = await t.store.deleteOtherUserSessions(bob.id, third.id);
    assert.deepEqual(deleted.sort(), [first.id, fourth.id, expired.id].sort(), "every other session of Bob's, the expired one too");
    assert.deepEqual(
      (await t.store.listUserSessions(bob.id, new Date().toISOString())).map((s) => s.id),
      [third.id],
    );
    assert.equal((await t.store.listUserSessions(carol.id, now)).length, 1, "Carol's sessions untouched");
    assert.deepEqual(await t.store.deleteOtherUserSessions(bob.id, third.id), []);
  });
}
