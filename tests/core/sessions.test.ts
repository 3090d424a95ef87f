// Sign-in sessions on the account page (issue 20), through better-auth's real HTTP handler on a real database, SQLite
// and PostgreSQL: a person's sessions listed with device, address and "this session"; revoking one (only one's own:
// another person's session id is not found), bad ids refused with a clear error, "all others"; a revoked session is
// refused at its very next request; a password change and a two-factor change sign out the other sessions and say so
// (onSessionsEnded, which closes live streams); revocations in the instance's security log; "last seen" throttled; the
// live-stream registry ends exactly the streams of ended sessions.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { parseSetCookieHeader } from "better-auth/cookies";
import { betterAuthAccounts } from "../../src/auth/accounts";
import { authPath, CLIENT_IP_HEADER, createAuth } from "../../src/auth/create-auth";
import { SESSION_LIMITS } from "../../src/config/limits";
import { describeDevice, listSessions, noteSessionSeen, revokeOtherSessions, revokeSession } from "../../src/core/sessions";
import { type Db, openDb, type OpenDbOptions } from "../../src/storage/db";
import { createStore } from "../../src/storage/kysely";
import { migrateToLatest } from "../../src/storage/migrate";
import type { Store, User } from "../../src/storage/ports";
import { endStreamsOfEndedSessions, endStreamsOfSessions, holdLiveStream, type StreamEnd } from "../../src/web/live-streams";
import { outcome, uniq } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";
import { secretOfUri, totp } from "../helpers/totp";

const PUBLIC_URL = "http://localhost:9000";
const SECRET = "sessions-test-secret-long-enough-000000";
const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

type Auth = ReturnType<typeof createAuth>;

/** A browser: a cookie jar against better-auth's handler, from one address with one user agent. */
class Browser {
  jar = new Map<string, string>();
  constructor(
    readonly auth: Auth,
    readonly ip: string,
    readonly userAgent: string,
  ) {}
  headers(): Headers {
    return new Headers({
      origin: PUBLIC_URL,
      "user-agent": this.userAgent,
      [CLIENT_IP_HEADER]: this.ip,
      cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "),
    });
  }
  async post(path: string, body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
    const headers = this.headers();
    headers.set("content-type", "application/json");
    const res = await this.auth.handler(new Request(`${PUBLIC_URL}${authPath("")}${path}`, { method: "POST", headers, body: JSON.stringify(body) }));
    for (const [name, attrs] of parseSetCookieHeader(res.headers.get("set-cookie") ?? "")) {
      if (!attrs.value || attrs["max-age"] === 0) this.jar.delete(name);
      else this.jar.set(name, attrs.value);
    }
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }
  /** The session this browser is signed in with, read as every page and action reads it (null: signed out). */
  async session(): Promise<string | null> {
    return (await this.auth.api.getSession({ headers: this.headers(), query: { disableCookieCache: true } }))?.session.id ?? null;
  }
}

type Env = { db: Db; store: Store; auth: Auth; ended: string[]; resetTokens: string[]; user: () => Promise<User>; close: () => Promise<void> };

async function env(options: OpenDbOptions, drop?: () => Promise<void>): Promise<Env> {
  const db = openDb(options);
  await migrateToLatest(db);
  const store = createStore(db);
  const ended: string[] = [];
  const resetTokens: string[] = [];
  const sendPasswordReset = ({ token }: { token: string }) => void resetTokens.push(token);
  const auth = createAuth({
    db,
    secret: SECRET,
    publicUrl: PUBLIC_URL,
    basePath: "",
    sendPasswordReset,
    onSessionsEnded: async (userId) => void ended.push(userId),
  });
  const accounts = betterAuthAccounts(auth, store);
  const user = () => accounts.createUser({ email: `${uniq("s")}@example.com`, password: "password123", name: "S" });
  return {
    db,
    store,
    auth,
    ended,
    resetTokens,
    user,
    close: async () => {
      await db.close();
      await drop?.();
    },
  };
}

let ipCounter = 0;
async function signIn(e: Env, email: string, userAgent = CHROME_LINUX): Promise<Browser> {
  const b = new Browser(e.auth, `203.0.113.${++ipCounter % 250}`, userAgent);
  assert.equal((await b.post("/sign-in/email", { email, password: "password123" })).status, 200);
  return b;
}

const as = (e: Env, user: User) => ({ store: e.store, actor: { user }, ip: "192.0.2.9" });

function suite(name: string, open: () => Promise<Env>) {
  describe(`sign-in sessions on ${name}`, () => {
    let e: Env;
    before(async () => {
      e = await open();
    });
    after(async () => {
      await e.close();
    });

    test("the list: the person's own sessions with device, address and this session marked", async () => {
      const bob = await e.user();
      const carol = await e.user();
      const laptop = await signIn(e, bob.email);
      const phone = await signIn(e, bob.email, IPHONE);
      await signIn(e, carol.email);
      const current = (await laptop.session())!;
      const list = await listSessions(as(e, bob), current);
      assert.equal(list.length, 2, "Carol's session is not listed");
      const mine = list.find((s) => s.current)!;
      assert.equal(mine.id, current);
      assert.equal(mine.ipAddress, laptop.ip);
      assert.deepEqual(mine.device, { browser: "Chrome 131", os: "Linux", platform: "desktop" });
      const other = list.find((s) => !s.current)!;
      assert.equal(other.id, await phone.session());
      assert.equal(other.device.platform, "mobile");
      assert.equal(other.device.browser, "Safari 17");
      assert.match(other.device.os, /^iOS/);
      assert.equal(list.filter((s) => s.current).length, 1);
    });

    test("revoking: another person's session is not found, bad ids get a clear error, the session in use is refused", async () => {
      const bob = await e.user();
      const carol = await e.user();
      const laptop = await signIn(e, bob.email);
      const carols = await signIn(e, carol.email);
      const current = (await laptop.session())!;
      const carolSession = (await carols.session())!;
      const refusal = async (input: unknown) => {
        try {
          await revokeSession(as(e, bob), current, input);
          return "ok";
        } catch (err) {
          return `${(err as { code: string }).code}: ${(err as Error).message}`;
        }
      };
      assert.equal(await refusal({ sessionId: carolSession }), "not_found: Session not found");
      assert.equal(await carols.session(), carolSession, "Carol is still signed in");
      assert.equal(await refusal({ sessionId: "doesNotExist0000000000000000000000" }), "not_found: Session not found");
      assert.equal(await refusal({}), "bad_request: Choose a session");
      assert.equal(await refusal({ sessionId: "" }), "bad_request: Choose a session");
      assert.equal(await refusal({ sessionId: 12345 }), "bad_request: Choose a session");
      assert.equal(await refusal({ sessionId: `${carolSession}\u0000` }), "bad_request: Not a session id");
      assert.equal(await refusal({ sessionId: "\u0000" }), "bad_request: Not a session id");
      assert.equal(await refusal({ sessionId: "x".repeat(1024 * 1024) }), "bad_request: Not a session id");
      assert.equal(await refusal({ sessionId: "' or 1=1 --" }), "bad_request: Not a session id");
      assert.equal(await refusal(null), "bad_request: Choose a session");
      assert.equal(await refusal({ sessionId: current }), "bad_request: This is the session you are using; sign out to end it");
      assert.equal(await laptop.session(), current);
      // A token actor cannot list or revoke anyone's sessions.
      const tokenActor = { store: e.store, actor: { orgToken: { id: 1, organizationId: 1, scopes: ["org:admin"] } } };
      assert.equal(await outcome(() => listSessions(tokenActor, current)), "forbidden");
      assert.equal(await outcome(() => revokeSession(tokenActor, current, { sessionId: carolSession })), "forbidden");
    });

    test("revoking one: its very next request is refused, the revocation is in the security log", async () => {
      const bob = await e.user();
      const laptop = await signIn(e, bob.email);
      const phone = await signIn(e, bob.email, IPHONE);
      const current = (await laptop.session())!;
      const phoneSession = (await phone.session())!;
      assert.deepEqual(await revokeSession(as(e, bob), current, { sessionId: phoneSession }), [phoneSession]);
      assert.equal(await phone.session(), null, "the revoked session is signed out at once");
      assert.equal(await laptop.session(), current, "this session stays");
      assert.equal(await outcome(() => revokeSession(as(e, bob), current, { sessionId: phoneSession })), "not_found", "revoked once");
      const log = await e.store.listAudit({ organizationId: null, events: ["user.session-revoke"], limit: 100 });
      const entry = log.find((x) => x.targetUserId === bob.id)!;
      assert.ok(entry);
      assert.equal(entry.actorUserId, bob.id);
      assert.equal(entry.ipAddress, "192.0.2.9");
      assert.equal(entry.targetObject, phoneSession);
      assert.match(entry.note, /signed out their session on Safari 17 on iOS/);
      assert.equal(JSON.parse(entry.data).ipAddress, phone.ip);
    });

    test("revoking all others: every other session ends, this one stays; none left records nothing", async () => {
      const bob = await e.user();
      const laptop = await signIn(e, bob.email);
      const others = [await signIn(e, bob.email), await signIn(e, bob.email, IPHONE), await signIn(e, bob.email)];
      const current = (await laptop.session())!;
      const otherIds = await Promise.all(others.map((b) => b.session()));
      const revoked = await revokeOtherSessions(as(e, bob), current);
      assert.deepEqual([...revoked].sort(), [...otherIds].sort());
      for (const b of others) assert.equal(await b.session(), null);
      assert.equal(await laptop.session(), current);
      assert.deepEqual(
        (await listSessions(as(e, bob), current)).map((s) => s.id),
        [current],
      );
      assert.deepEqual(await revokeOtherSessions(as(e, bob), current), []);
      const log = (await e.store.listAudit({ organizationId: null, events: ["user.session-revoke"], limit: 100 })).filter((x) => x.targetUserId === bob.id);
      assert.equal(log.length, 1, "one entry for the three, none for nothing revoked");
      assert.equal(JSON.parse(log[0]!.data).sessions, 3);
    });

    test("a password change signs out the other sessions and tells onSessionsEnded whose; a wrong password changes nothing", async () => {
      const bob = await e.user();
      const laptop = await signIn(e, bob.email);
      const phone = await signIn(e, bob.email, IPHONE);
      e.ended.length = 0;
      assert.equal(
        (await laptop.post("/change-password", { currentPassword: "wrong-password", newPassword: "new-password-456", revokeOtherSessions: true })).status,
        400,
      );
      assert.deepEqual(e.ended, [], "nothing ended");
      assert.ok(await phone.session());
      assert.equal(
        (await laptop.post("/change-password", { currentPassword: "password123", newPassword: "new-password-456", revokeOtherSessions: true })).status,
        200,
      );
      assert.deepEqual(e.ended, [bob.id]);
      assert.equal(await phone.session(), null, "the other session is signed out");
      const renewed = await laptop.session();
      assert.ok(renewed, "the session that changed it continues (renewed)");
      assert.deepEqual(
        (await e.store.listUserSessions(bob.id, new Date().toISOString())).map((s) => s.id),
        [renewed],
      );
    });

    test("a password reset (the mailed link) signs out every session and tells onSessionsEnded", async () => {
      const bob = await e.user();
      const laptop = await signIn(e, bob.email);
      const phone = await signIn(e, bob.email, IPHONE);
      const stranger = new Browser(e.auth, "203.0.113.252", CHROME_LINUX);
      assert.equal((await stranger.post("/request-password-reset", { email: bob.email, redirectTo: "/en/reset-password" })).status, 200);
      const token = e.resetTokens.at(-1)!;
      assert.ok(token);
      e.ended.length = 0;
      assert.equal((await stranger.post("/reset-password", { token, newPassword: "reset-password-789" })).status, 200);
      assert.deepEqual(e.ended, [bob.id]);
      assert.equal(await laptop.session(), null);
      assert.equal(await phone.session(), null);
    });

    test("turning two-factor on, and off, signs out the other sessions, says so in the security log, and tells onSessionsEnded", async () => {
      const bob = await e.user();
      const laptop = await signIn(e, bob.email);
      const phone = await signIn(e, bob.email, IPHONE);
      const enabled = await laptop.post("/two-factor/enable", { password: "password123" });
      assert.equal(enabled.status, 200);
      assert.ok(await phone.session(), "starting the enrolment changes nothing yet");
      e.ended.length = 0;
      const key = secretOfUri(enabled.json.totpURI as string);
      assert.equal((await laptop.post("/two-factor/verify-totp", { code: totp(key) })).status, 200);
      assert.deepEqual(e.ended, [bob.id]);
      assert.equal(await phone.session(), null, "the other session is signed out");
      const renewed = (await laptop.session())!;
      assert.ok(renewed);
      assert.deepEqual(
        (await e.store.listUserSessions(bob.id, new Date().toISOString())).map((s) => s.id),
        [renewed],
      );
      const on = (await e.store.listAudit({ organizationId: null, events: ["user.two-factor-enable"], limit: 100 })).find((x) => x.targetUserId === bob.id)!;
      assert.match(on.note, /turned on two-factor authentication; 1 other session was signed out/);

      // A second browser signs in again (with its code), then two-factor goes off from the first.
      const tablet = new Browser(e.auth, "203.0.113.251", IPHONE);
      const first = await tablet.post("/sign-in/email", { email: bob.email, password: "password123" });
      assert.equal(first.json.twoFactorRedirect, true);
      const code = totp(key, undefined, { step: 1 });
      assert.equal((await tablet.post("/two-factor/verify-totp", { code })).status, 200);
      assert.ok(await tablet.session());
      e.ended.length = 0;
      assert.equal((await laptop.post("/two-factor/disable", { password: "password123" })).status, 200);
      assert.deepEqual(e.ended, [bob.id]);
      assert.equal(await tablet.session(), null);
      assert.ok(await laptop.session());
      const off = (await e.store.listAudit({ organizationId: null, events: ["user.two-factor-disable"], limit: 100 })).find((x) => x.targetUserId === bob.id)!;
      assert.match(off.note, /1 other session was signed out/);
    });

    test("better-auth's own revoke endpoints: another person's token revokes nothing and records nothing; its own are recorded and end streams", async () => {
      const bob = await e.user();
      const carol = await e.user();
      const laptop = await signIn(e, bob.email);
      const phone = await signIn(e, bob.email, IPHONE);
      const carols = await signIn(e, carol.email);
      const carolToken = (await e.db.kysely.selectFrom("sessions").select("token").where("user_id", "=", carol.id).executeTakeFirstOrThrow()).token;
      e.ended.length = 0;
      const refused = await laptop.post("/revoke-session", { token: carolToken });
      assert.ok(refused.status === 200 || (refused.status >= 400 && refused.status < 500), `a 4xx or better-auth's quiet success, not ${refused.status}`);
      assert.ok(await carols.session(), "Carol is still signed in");
      const logged = async () =>
        (await e.store.listAudit({ organizationId: null, events: ["user.session-revoke"], limit: 100 })).filter((x) => x.targetUserId === bob.id);
      assert.equal((await logged()).length, 0, "nothing revoked, nothing recorded");
      assert.equal((await laptop.post("/revoke-other-sessions", {})).status, 200);
      assert.equal(await phone.session(), null);
      assert.ok(await laptop.session());
      assert.deepEqual(e.ended, [bob.id, bob.id]);
      const entries = await logged();
      assert.equal(entries.length, 1);
      assert.match(entries[0]!.note, /signed out 1 session through the auth API \(\/revoke-other-sessions\)/);
    });

    test(`"last seen" is written at most once per ${SESSION_LIMITS.lastSeenWriteSeconds} s per session`, async () => {
      const bob = await e.user();
      const laptop = await signIn(e, bob.email);
      const id = (await laptop.session())!;
      const seen = async () => (await e.store.listUserSessions(bob.id, new Date().toISOString())).find((s) => s.id === id)!.lastSeenAt;
      assert.equal(await seen(), null);
      const t0 = Date.now() + 1000;
      await noteSessionSeen(e.store, id, t0);
      assert.equal(await seen(), new Date(t0).toISOString());
      for (let i = 1; i <= 20; i++) await noteSessionSeen(e.store, id, t0 + i * 1000);
      assert.equal(await seen(), new Date(t0).toISOString(), "requests within the interval write nothing");
      const later = t0 + SESSION_LIMITS.lastSeenWriteSeconds * 1000 + 1;
      await noteSessionSeen(e.store, id, later);
      assert.equal(await seen(), new Date(later).toISOString());
    });
  });
}

describe("devices from user agents (Bowser)", () => {
  test("browsers, systems and kinds of device; nothing or garbage tells nothing and never throws", () => {
    assert.deepEqual(describeDevice(CHROME_LINUX), { browser: "Chrome 131", os: "Linux", platform: "desktop" });
    assert.equal(describeDevice("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0").browser, "Firefox 133");
    assert.equal(describeDevice(IPHONE).platform, "mobile");
    assert.deepEqual(describeDevice(null), { browser: "", os: "", platform: "" });
    assert.deepEqual(describeDevice(""), { browser: "", os: "", platform: "" });
    for (const garbage of ["\u0000\u0000", "x".repeat(1024 * 1024), "(((((((((((((((((((((", "Mozilla/5.0 (".repeat(10_000)]) {
      const d = describeDevice(garbage);
      assert.equal(typeof d.browser, "string");
    }
  });
});

describe("the live-stream registry ends the streams of ended sessions", () => {
  test("only the streams of sessions no longer signed in, or of the sessions named, end, as signed out", () => {
    const user = uniq("user");
    const ends: string[] = [];
    const stream = (sessionId: string, name: string) => {
      let release = () => {};
      release = holdLiveStream(user, {
        sessionId,
        end: (why: StreamEnd) => {
          ends.push(`${name}:${why}`);
          release();
        },
      });
      return release;
    };
    stream("s1", "a");
    stream("s1", "b");
    stream("s2", "c");
    assert.equal(endStreamsOfEndedSessions(user, ["s2"]), 2);
    assert.deepEqual(ends.sort(), ["a:signed_out", "b:signed_out"]);
    assert.equal(endStreamsOfEndedSessions(user, ["s2"]), 0, "already ended");
    assert.equal(endStreamsOfSessions(uniq("other"), ["s2"]), 0, "another user's streams are not this one's");
    assert.equal(endStreamsOfSessions(user, ["s2"]), 1);
    assert.deepEqual(ends.sort(), ["a:signed_out", "b:signed_out", "c:signed_out"]);
  });
});

suite("SQLite", () => env({ dialect: "sqlite", file: ":memory:" }));
suite("PostgreSQL", async () => {
  const pg = await freshPgDatabase(`faultline_sessions_${process.pid}_${Date.now()}`);
  return env({ dialect: "postgres", url: pg.url }, pg.drop);
});
