// Session cookies and password storage, through better-auth's real HTTP handler on a real database.
import assert from "node:assert/strict";
import { test } from "node:test";
import { betterAuthAccounts } from "../../src/auth/accounts";
import { authPath, CLIENT_IP_HEADER, createAuth } from "../../src/auth/create-auth";
import { openDb } from "../../src/storage/db";
import { createStore } from "../../src/storage/kysely";
import { migrateToLatest } from "../../src/storage/migrate";

async function signInCookie(publicUrl: string, basePath = ""): Promise<{ setCookie: string; passwordHash: string }> {
  const db = openDb({ dialect: "sqlite", file: ":memory:" });
  try {
    await migrateToLatest(db);
    const store = createStore(db);
    const auth = createAuth({ db, secret: "a-test-secret-that-is-long-enough-000", publicUrl, basePath });
    await betterAuthAccounts(auth, store).createUser({ email: "cookie@example.com", password: "password123", name: "C" });
    const res = await auth.handler(
      new Request(`${publicUrl}${authPath(basePath)}/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: new URL(publicUrl).origin, [CLIENT_IP_HEADER]: "192.0.2.1" },
        body: JSON.stringify({ email: "cookie@example.com", password: "password123" }),
      }),
    );
    assert.equal(res.status, 200);
    const row = await db.kysely.selectFrom("accounts").select("password").executeTakeFirstOrThrow();
    return { setCookie: res.headers.get("set-cookie") ?? "", passwordHash: row.password ?? "" };
  } finally {
    await db.close();
  }
}

test("session cookie is HttpOnly and SameSite=Lax, and Secure under https", async () => {
  const https = await signInCookie("https://faultline.example.com");
  assert.match(https.setCookie, /session_token=/);
  assert.match(https.setCookie, /HttpOnly/i);
  assert.match(https.setCookie, /SameSite=Lax/i);
  assert.match(https.setCookie, /;\s*Secure/i);
});

test("under a base path the auth endpoints live below it", async () => {
  const { setCookie } = await signInCookie("https://faultline.example.com", "/monitor");
  assert.match(setCookie, /session_token=/);
});

test("under plain http the cookie is not marked Secure (browsers would drop it)", async () => {
  const http = await signInCookie("http://localhost:9000");
  assert.match(http.setCookie, /HttpOnly/i);
  assert.doesNotMatch(http.setCookie, /;\s*Secure/i);
});

test("passwords are stored as salted scrypt hashes, never in clear", async () => {
  const { passwordHash } = await signInCookie("http://localhost:9000");
  assert.doesNotMatch(passwordHash, /password123/);
  // better-auth's scrypt format: hex salt and hex key separated by a colon.
  assert.match(passwordHash, /^[0-9a-f]{32}:[0-9a-f]{128}$/);
});
