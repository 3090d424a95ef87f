// Two-factor sign-in (issue 20) through better-auth's real HTTP handler on a real database, SQLite and PostgreSQL:
// enrolment with a TOTP computed here (RFC 6238, checked against the RFC's own test vectors), wrong and reused codes
// refused, recovery codes stored hashed and each accepted once, code attempts rate-limited; and an organization's
// "require two-factor" refusing members without it at the core (every page, action and API route goes through it).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { parseSetCookieHeader } from "better-auth/cookies";
import { authPath, CLIENT_IP_HEADER, createAuth } from "../../src/auth/create-auth";
import { betterAuthAccounts } from "../../src/auth/accounts";
import { listAuditLog } from "../../src/core/audit";
import { getOrganization, createOrganization } from "../../src/core/organizations";
import { getAccountNotifications } from "../../src/core/notification-settings";
import { createProject, listAllProjects, listProjects } from "../../src/core/projects";
import { isTwoFactorRequired, setRequireTwoFactor } from "../../src/core/two-factor";
import { type Db, openDb, type OpenDbOptions } from "../../src/storage/db";
import { createStore } from "../../src/storage/kysely";
import { migrateToLatest } from "../../src/storage/migrate";
import type { Store, User } from "../../src/storage/ports";
import { joinByInvitation, outcome, type TestCore, uniq } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";
import { hotp, secretOfUri, totp } from "../helpers/totp";
import { serializeOrganization } from "../../src/web/api/serializers";

const PUBLIC_URL = "http://localhost:9000";
const SECRET = "two-factor-test-secret-long-enough-0000";

describe("RFC 6238 Appendix B test vectors (SHA-1, 8 digits): the test's own TOTP is right", () => {
  const key = Buffer.from("12345678901234567890");
  for (const [time, code] of [
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ] as const) {
    test(`T=${time} → ${code}`, () => assert.equal(totp(key, time, { digits: 8 }), code));
  }
  test("RFC 4226 Appendix D: HOTP counter 0 and 9", () => {
    assert.equal(hotp(key, 0), "755224");
    assert.equal(hotp(key, 9), "520489");
  });
});

/** A browser's cookie jar against better-auth's handler, from one client address. */
class Client {
  jar = new Map<string, string>();
  constructor(
    readonly auth: ReturnType<typeof createAuth>,
    public ip: string,
  ) {}
  async post(path: string, body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await this.auth.handler(
      new Request(`${PUBLIC_URL}${authPath("")}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: PUBLIC_URL,
          [CLIENT_IP_HEADER]: this.ip,
          cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "),
        },
        body: JSON.stringify(body),
      }),
    );
    for (const [name, attrs] of parseSetCookieHeader(res.headers.get("set-cookie") ?? "")) {
      if (!attrs.value || attrs["max-age"] === 0) this.jar.delete(name);
      else this.jar.set(name, attrs.value);
    }
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }
  hasSession = () => [...this.jar.keys()].some((k) => k.endsWith("session_token"));
}

type Env = { db: Db; store: Store; auth: ReturnType<typeof createAuth>; t: TestCore; close: () => Promise<void> };

async function env(options: OpenDbOptions, drop?: () => Promise<void>): Promise<Env> {
  const db = openDb(options);
  await migrateToLatest(db);
  const store = createStore(db);
  const auth = createAuth({ db, secret: SECRET, publicUrl: PUBLIC_URL, basePath: "" });
  const accounts = betterAuthAccounts(auth, store);
  const t: TestCore = { db, store, accounts, as: (user) => ({ store, actor: { user } }), close: () => db.close() };
  return {
    db,
    store,
    auth,
    t,
    close: async () => {
      await db.close();
      await drop?.();
    },
  };
}

/** A six-digit code valid at no step the server accepts now (one step of drift either side, and one more for a step boundary). */
function wrongCode(key: Buffer): string {
  const valid = new Set([-2, -1, 0, 1, 2].map((step) => totp(key, undefined, { step })));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, "0");
    if (!valid.has(code)) return code;
  }
}

let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter % 250}`;

async function signedIn(e: Env, email: string): Promise<Client> {
  const c = new Client(e.auth, freshIp());
  const res = await c.post("/sign-in/email", { email, password: "password123" });
  assert.equal(res.status, 200);
  return c;
}

/** Enrols `email`: returns the TOTP key, the recovery codes and the code that confirmed the enrolment. */
async function enrol(e: Env, email: string): Promise<{ key: Buffer; recovery: string[]; used: string }> {
  const c = await signedIn(e, email);
  const enabled = await c.post("/two-factor/enable", { password: "password123" });
  assert.equal(enabled.status, 200);
  const key = secretOfUri(enabled.json.totpURI as string);
  const used = totp(key);
  assert.equal((await c.post("/two-factor/verify-totp", { code: used })).status, 200);
  return { key, recovery: enabled.json.backupCodes as string[], used };
}

function suite(name: string, open: () => Promise<Env>) {
  describe(`two-factor sign-in on ${name}`, () => {
    let e: Env;
    before(async () => {
      e = await open();
    });
    after(async () => {
      await e.close();
    });
    const user = async (): Promise<User> => e.t.accounts.createUser({ email: `${uniq("tf")}@example.com`, password: "password123", name: "T" });

    test("enrolment: the wrong password and a wrong code are refused; the right code turns it on; the secret and recovery codes are never stored in clear", async () => {
      const u = await user();
      const c = await signedIn(e, u.email);
      assert.equal((await c.post("/two-factor/enable", { password: "wrong-password" })).status, 400);
      const enabled = await c.post("/two-factor/enable", { password: "password123" });
      assert.equal(enabled.status, 200);
      const uri = enabled.json.totpURI as string;
      assert.match(uri, /^otpauth:\/\/totp\/Faultline:/);
      const codes = enabled.json.backupCodes as string[];
      assert.equal(codes.length, 10);
      const key = secretOfUri(uri);
      assert.equal((await c.post("/two-factor/verify-totp", { code: wrongCode(key) })).status, 401);
      assert.equal(await e.store.userHasTwoFactor(u.id), false, "a wrong code enables nothing");
      assert.equal((await c.post("/two-factor/verify-totp", { code: totp(key) })).status, 200);
      assert.equal(await e.store.userHasTwoFactor(u.id), true);
      const row = await e.db.kysely.selectFrom("two_factors").selectAll().where("user_id", "=", u.id).executeTakeFirstOrThrow();
      const stored = new URL(uri).searchParams.get("secret")!;
      assert.ok(!row.secret.includes(stored), "the TOTP secret is encrypted");
      for (const code of codes) assert.ok(!row.backup_codes.includes(code), "recovery codes are stored hashed");
      assert.equal(
        (JSON.parse(row.backup_codes) as string[]).every((h) => /^hmac-sha256:[0-9a-f]{64}$/.test(h)),
        true,
      );
    });

    test("sign-in asks for the code after the password; wrong and reused codes are refused; a fresh code signs in", async () => {
      const u = await user();
      const { key, used } = await enrol(e, u.email);
      const c = new Client(e.auth, freshIp());
      const first = await c.post("/sign-in/email", { email: u.email, password: "password123" });
      assert.equal(first.status, 200);
      assert.equal(first.json.twoFactorRedirect, true);
      assert.equal(c.hasSession(), false, "the password alone gives no session");
      const reused = await c.post("/two-factor/verify-totp", { code: used });
      assert.equal(reused.status, 401);
      assert.equal(reused.json.code, "CODE_ALREADY_USED");
      const wrong = await c.post("/two-factor/verify-totp", { code: wrongCode(key) });
      assert.equal(wrong.status, 401);
      assert.equal(c.hasSession(), false);
      // The next time step's code: valid (one step of drift is accepted) and never used.
      const next = totp(key, undefined, { step: 1 });
      const ok = await c.post("/two-factor/verify-totp", { code: next });
      assert.equal(ok.status, 200, JSON.stringify(ok.json));
      assert.equal(c.hasSession(), true);
      // The same code again, in another sign-in: refused.
      const again = new Client(e.auth, freshIp());
      assert.equal((await again.post("/sign-in/email", { email: u.email, password: "password123" })).json.twoFactorRedirect, true);
      assert.equal((await again.post("/two-factor/verify-totp", { code: next })).status, 401);
      assert.equal(again.hasSession(), false);
      // Hostile input: not six digits, NUL bytes, a megabyte: refused, never a crash.
      for (const code of ["12345", "1234567", "12\u000034", "x".repeat(1_000_000), 123456]) {
        const res = await again.post("/two-factor/verify-totp", { code });
        assert.ok(res.status === 400 || res.status === 401 || res.status === 413 || res.status === 429, `${res.status}`);
      }
    });

    test("a recovery code signs in once; a used one is refused; each of the others still works", async () => {
      const u = await user();
      const { recovery } = await enrol(e, u.email);
      const signInWith = async (code: string) => {
        const c = new Client(e.auth, freshIp());
        assert.equal((await c.post("/sign-in/email", { email: u.email, password: "password123" })).json.twoFactorRedirect, true);
        const res = await c.post("/two-factor/verify-backup-code", { code });
        return { status: res.status, session: c.hasSession() };
      };
      assert.deepEqual(await signInWith(recovery[0]!), { status: 200, session: true });
      assert.deepEqual(await signInWith(recovery[0]!), { status: 401, session: false });
      assert.deepEqual(await signInWith("abcde-fghij"), { status: 401, session: false });
      assert.deepEqual(await signInWith(recovery[1]!), { status: 200, session: true });
      const left = JSON.parse(
        (await e.db.kysely.selectFrom("two_factors").select("backup_codes").where("user_id", "=", u.id).executeTakeFirstOrThrow()).backup_codes,
      ) as string[];
      assert.equal(left.length, 8);
    });

    test("code attempts are rate-limited per client address", async () => {
      const u = await user();
      await enrol(e, u.email);
      const c = new Client(e.auth, freshIp());
      await c.post("/sign-in/email", { email: u.email, password: "password123" });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await c.post("/two-factor/verify-backup-code", { code: `wrong-${i}` })).status);
      assert.equal(statuses.at(-1), 429, statuses.join(","));
    });

    test("disabling needs the password; then the password alone signs in again", async () => {
      const u = await user();
      const { recovery } = await enrol(e, u.email);
      const c = new Client(e.auth, freshIp());
      await c.post("/sign-in/email", { email: u.email, password: "password123" });
      assert.equal((await c.post("/two-factor/verify-backup-code", { code: recovery[0]! })).status, 200);
      assert.equal((await c.post("/two-factor/disable", {})).status, 400);
      assert.equal((await c.post("/two-factor/disable", { password: "wrong-password" })).status, 400);
      assert.equal(await e.store.userHasTwoFactor(u.id), true);
      assert.equal((await c.post("/two-factor/disable", { password: "password123" })).status, 200);
      assert.equal(await e.store.userHasTwoFactor(u.id), false);
      // Both changes, made over better-auth's HTTP API, are in the instance's security log, once each, with the address.
      const log = (await e.store.listAudit({ organizationId: null, limit: 100 })).filter(
        (x) => x.targetUserId === u.id && x.event.startsWith("user.two-factor"),
      );
      assert.deepEqual(
        log.map((x) => x.event),
        ["user.two-factor-disable", "user.two-factor-enable"],
      );
      assert.equal(log[0]!.ipAddress, c.ip);
      const again = new Client(e.auth, freshIp());
      const res = await again.post("/sign-in/email", { email: u.email, password: "password123" });
      assert.equal(res.json.twoFactorRedirect, undefined);
      assert.equal(again.hasSession(), true);
    });

    test("an organization requiring two-factor: owners only, needs the owner's own two-factor, recorded; members without it are refused at the core", async () => {
      const owner = await user();
      const member = await user();
      const org = await createOrganization(e.t.as(owner), { name: uniq("Org") });
      await joinByInvitation(e.t, e.t.as(owner), org.slug, { email: member.email, role: "admin" });
      assert.equal(await outcome(() => setRequireTwoFactor(e.t.as(member), org.slug, { requireTwoFactor: true })), "forbidden", "an admin may not");
      assert.equal(
        await outcome(() => setRequireTwoFactor(e.t.as(owner), org.slug, { requireTwoFactor: true })),
        "bad_request",
        "not before the owner has two-factor",
      );
      assert.equal(await outcome(() => setRequireTwoFactor(e.t.as(owner), org.slug, { requireTwoFactor: "yes" })), "bad_request");
      await enrol(e, owner.email);
      assert.deepEqual(await setRequireTwoFactor(e.t.as(owner), org.slug, { requireTwoFactor: true }), { requireTwoFactor: true });
      // The member: refused everywhere in the organization, with the reason; the owner reads on.
      for (const read of [() => getOrganization(e.t.as(member), org.slug), () => listProjects(e.t.as(member), org.slug, { limit: 10 })]) {
        const err = await read().then(
          () => null,
          (x: unknown) => x,
        );
        assert.ok(isTwoFactorRequired(err), String(err));
        assert.equal((err as { code: string }).code, "forbidden");
        assert.match((err as Error).message, /requires two-factor/);
      }
      assert.equal(await outcome(() => getOrganization(e.t.as(owner), org.slug)), "ok");
      // The web API says so in Sentry's field (it said false whatever the setting).
      assert.equal(serializeOrganization((await getOrganization(e.t.as(owner), org.slug)).org).require2FA, true);
      // The lists across organizations leave it out, and keep the member's other organizations (all projects was a 403
      // for everything; the notification settings showed its projects' names).
      const own = await createOrganization(e.t.as(member), { name: uniq("Own") });
      const mine = await createProject(e.t.as(member), own.slug, { name: uniq("Mine") });
      const theirs = await createProject(e.t.as(owner), org.slug, { name: uniq("Theirs") });
      const seen = async () => ({
        projects: (await listAllProjects(e.t.as(member), { limit: 100 })).items.map((p) => p.id).sort(),
        settings: (await getAccountNotifications(e.t.as(member))).organizations.map((o) => [o.org.id, o.projects.map((p) => p.project.id)]),
      });
      assert.deepEqual(await seen(), { projects: [mine.id], settings: [[own.id, [mine.id]]] });
      // Once the member enrols, they are in.
      await enrol(e, member.email);
      assert.equal(await outcome(() => getOrganization(e.t.as(member), org.slug)), "ok");
      const all = await seen();
      assert.deepEqual(all.projects, [mine.id, theirs.id].sort());
      assert.deepEqual(all.settings.map(([id]) => id).sort(), [org.id, own.id].sort());
      const trail = await listAuditLog(e.t.as(owner), org.slug, { event: "org.edit" });
      const entry = trail.entries.find((x) => x.data.settings === "requireTwoFactor");
      assert.ok(entry, "recorded in the organization's audit trail");
      assert.deepEqual([entry.actorUserId, entry.data.old, entry.data.new], [owner.id, { requireTwoFactor: false }, { requireTwoFactor: true }]);
      const instance = await e.store.listAudit({ organizationId: null, events: ["user.two-factor-enable"], limit: 10 });
      assert.ok(instance.some((x) => x.targetUserId === member.id));
    });
  });
}

suite("SQLite", () => env({ dialect: "sqlite", file: ":memory:" }));
suite("PostgreSQL", async () => {
  const pg = await freshPgDatabase(`faultline_2fa_${process.pid}_${Date.now()}`);
  return env({ dialect: "postgres", url: pg.url }, pg.drop);
});
