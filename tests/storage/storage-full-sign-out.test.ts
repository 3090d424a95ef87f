// Signing out on a full disk (hostile input #7): the session's row cannot be deleted (better-auth's sign-out writes
// its rate limit first and fails; called without the rate limit, its delete fails and it answers success all the
// same), yet the session is refused from that moment, by every lookup of a session: pages and actions
// (auth.api.getSession), better-auth's own endpoints (sessionMiddleware), sign-out again. Someone who copied the cookie
// gets nothing. The rows are deleted once writes succeed again, and the revocations forgotten. SQLite on a real tmpfs.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { parseSetCookieHeader } from "better-auth/cookies";
import { sql } from "kysely";
import { betterAuthAccounts } from "../../src/auth/accounts";
import { authPath, CLIENT_IP_HEADER, createAuth } from "../../src/auth/create-auth";
import { isSessionIdRevoked, pendingRevokedSessions, retryRevokedSessions } from "../../src/auth/revoked-sessions";
import { revokeSessionInMemory } from "../../src/auth/sign-out";
import { listSessions } from "../../src/core/sessions";
import { type Db, openDb } from "../../src/storage/db";
import { createStore } from "../../src/storage/kysely";
import { migrateToLatest } from "../../src/storage/migrate";
import type { Store } from "../../src/storage/ports";
import { isStorageFull, storageState } from "../../src/storage/storage-full";
import { uniq } from "../helpers/core";
import { fill, mountTmpfs, unmountTmpfs } from "../helpers/full-disk";

const PUBLIC_URL = "http://localhost:9000";
type Auth = ReturnType<typeof createAuth>;

/** A browser's cookie jar against better-auth's real handler. */
class Browser {
  jar = new Map<string, string>();
  constructor(readonly auth: Auth) {}
  headers(): Headers {
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
    return new Headers({ origin: PUBLIC_URL, [CLIENT_IP_HEADER]: "203.0.113.7", "content-type": "application/json", cookie });
  }
  async post(endpoint: string, body: Record<string, unknown>): Promise<number> {
    const res = await this.auth.handler(
      new Request(`${PUBLIC_URL}${authPath("")}${endpoint}`, { method: "POST", headers: this.headers(), body: JSON.stringify(body) }),
    );
    for (const [name, attrs] of parseSetCookieHeader(res.headers.get("set-cookie") ?? "")) {
      if (!attrs.value || attrs["max-age"] === 0) this.jar.delete(name);
      else this.jar.set(name, attrs.value);
    }
    await res.body?.cancel();
    return res.status;
  }
  /** better-auth's own endpoint behind its sessionMiddleware (auth.api: its HTTP handler writes its rate limit first). */
  async listSessions(): Promise<number> {
    return this.auth.api.listSessions({ headers: this.headers() }).then(
      () => 200,
      (err: unknown) => (err as { statusCode?: number }).statusCode ?? 500,
    );
  }
  /** The session this browser's cookie names, read as every page and action reads it (null: refused). */
  async session(): Promise<string | null> {
    return (await this.auth.api.getSession({ headers: this.headers(), query: { disableCookieCache: true } }))?.session.id ?? null;
  }
  /** Someone else holding a copy of this browser's cookies. */
  copy(): Browser {
    const other = new Browser(this.auth);
    other.jar = new Map(this.jar);
    return other;
  }
}

describe("hostile input #7: signing out on a full disk", () => {
  let mount: string;
  let db: Db;
  let store: Store;
  let auth: Auth;

  before(async () => {
    mount = mountTmpfs("faultline-signout-full-", "24m");
    db = openDb({ dialect: "sqlite", file: path.join(mount, "faultline.sqlite3") });
    await migrateToLatest(db);
    store = createStore(db);
    auth = createAuth({ db, secret: randomBytes(24).toString("hex"), publicUrl: PUBLIC_URL, basePath: "" });
  });
  after(async () => {
    await db.close();
    unmountTmpfs(mount);
  });

  test("a signed-out session is refused at once though its row stays, and its row is deleted once space is freed", async () => {
    const email = `${uniq("signout")}@example.com`;
    const user = await betterAuthAccounts(auth, store).createUser({ email, password: "password123", name: "Out" });
    const laptop = new Browser(auth);
    const phone = new Browser(auth);
    assert.equal(await laptop.post("/sign-in/email", { email, password: "password123" }), 200);
    assert.equal(await phone.post("/sign-in/email", { email, password: "password123" }), 200);
    const laptopSession = (await laptop.session())!;
    const phoneSession = (await phone.session())!;
    assert.ok(laptopSession && phoneSession);
    const copiedLaptop = laptop.copy();
    const copiedPhone = phone.copy();
    assert.equal(await copiedLaptop.session(), laptopSession, "a copied cookie is the session, as long as it lasts");
    const rows = async () => (await store.listUserSessions(user.id, new Date().toISOString())).map((s) => s.id).sort();
    const remaining = new Browser(auth);
    assert.equal(await remaining.post("/sign-in/email", { email, password: "password123" }), 200);
    const remainingSession = (await remaining.session())!;
    const listed = async () => (await listSessions({ store, actor: { user } }, remainingSession)).map((s) => s.id);
    assert.equal((await listed()).length, 3, "three sessions signed in");

    await sql`pragma wal_checkpoint(truncate)`.execute(db.kysely);
    const filler = fill(mount);
    try {
      // The sign-out form: better-auth's handler fails on its rate limit's write, before its endpoint runs; the
      // action (web/actions/auth.action.ts → dropSessionCookies) then revokes the session in memory.
      const thrown = await laptop.post("/sign-out", {}).then(
        () => null,
        (err: unknown) => err,
      );
      assert.ok(isStorageFull(thrown), `sign-out meets the full disk: ${String(thrown)}`);
      assert.equal(await revokeSessionInMemory(auth, store, laptop.headers()), laptopSession);
      // better-auth's sign-out endpoint without the rate limit (auth.api): its delete fails, it answers success.
      await auth.api.signOut({ headers: phone.headers() });

      assert.deepEqual(await rows(), [laptopSession, phoneSession, remainingSession].sort(), "the rows could not be deleted");
      for (const copied of [copiedLaptop, copiedPhone]) {
        assert.equal(await copied.session(), null, "a copied cookie of a signed-out session is refused by pages and actions");
        assert.equal(await copied.listSessions(), 401, "and by better-auth's own endpoints");
      }
      assert.equal(await remaining.session(), remainingSession, "a session not signed out goes on");
      assert.deepEqual(await listed(), [remainingSession], "the account page lists only the session not signed out");
      assert.ok(isSessionIdRevoked(laptopSession) && isSessionIdRevoked(phoneSession));
      assert.equal(pendingRevokedSessions(), 2);

      await retryRevokedSessions();
      assert.equal(pendingRevokedSessions(), 2, "still full: the rows stay, the revocations too");
      assert.equal(storageState().status, "full");
      assert.equal(await copiedLaptop.session(), null);
    } finally {
      rmSync(filler);
    }
    await retryRevokedSessions();
    assert.equal(pendingRevokedSessions(), 0, "space freed: the rows are deleted and the revocations forgotten");
    assert.deepEqual(await rows(), [remainingSession], "only the session not signed out is left");
    assert.equal(await copiedLaptop.session(), null, "refused by its row's absence now");
    assert.equal(await copiedPhone.session(), null);
    assert.equal(await remaining.session(), remainingSession);
    assert.deepEqual(await listed(), [remainingSession]);
    assert.equal(storageState().status, "ok", "a write succeeded: the disk is no longer reported full");
  });
});
