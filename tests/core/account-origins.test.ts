// Where accounts come to be and how people come into organizations, kept to a known few places. An account is made by
// the first-run setup, by a superuser (`faultline createuser`, the instance settings) or by someone accepting an
// invitation to their own address, or (issue 20) by a first single sign-on with an address the provider verified
// (better-auth's callback, gated by auth/sso-hooks.ts); a person comes into an organization by accepting an
// invitation, by creating it, or by a single sign-on at one of its auto-join domains (core/sso.ts).
// The scan below finds every call that makes an account or a membership in src/: a new one fails here until it is
// added on purpose, after the same thought. Better-auth's own sign-up endpoint stays closed.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { createAuth } from "../../src/auth/create-auth";
import { openDb } from "../../src/storage/db";
import { migrateToLatest } from "../../src/storage/migrate";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|tsx|mts|mjs)$/.test(name) ? [p] : [];
  });
}

/** file (relative to src/) → how many times it makes the thing: every other file, zero. */
const ORIGINS: Record<string, { pattern: RegExp; allowed: Record<string, number> }> = {
  "an account (Accounts.createUser, better-auth's adapter)": {
    pattern: /\.createUser\(/g,
    allowed: {
      "auth/accounts.ts": 1, // the adapter itself, over better-auth
      "core/accounts.ts": 2, // registerUser (superusers: CLI, instance settings) and setupFirstUser (no user yet)
      "core/invitations.ts": 1, // joinWithNewAccount: the invited address, through its open link
    },
  },
  "an account through registerUser": {
    pattern: /\bregisterUser\(/g,
    allowed: { "core/accounts.ts": 2, "cli/account-commands.ts": 1 }, // its definition and createAccount (superusers); `createuser`
  },
  "a membership (a row of members)": {
    pattern: /insertInto\(\s*["'`]members["'`]\s*\)/g,
    allowed: {
      "storage/kysely/organizations.ts": 1, // the creator of an organization becomes its owner
      "storage/kysely/invitations.ts": 1, // an accepted invitation
      "storage/kysely/sso.ts": 1, // joinOrganization: a single sign-on at an auto-join domain, provider-verified (core/sso.ts)
    },
  },
  "a membership through a store method": {
    pattern: /\.addMember\(/g,
    allowed: {},
  },
};

test("hostile input #12: accounts and memberships are made only by setup, superusers, invitations and creating an organization", () => {
  const root = path.resolve("src");
  const files = sources(root);
  assert.ok(files.length > 100, "the scan found the sources");
  for (const [what, { pattern, allowed }] of Object.entries(ORIGINS)) {
    const found: Record<string, number> = {};
    for (const file of files) {
      const n = readFileSync(file, "utf8").match(pattern)?.length ?? 0;
      if (n > 0) found[path.relative(root, file)] = n;
    }
    assert.deepEqual(found, allowed, `what makes ${what}`);
  }
});

test("hostile input #12: better-auth's sign-up endpoint makes no account", async () => {
  const db = openDb({ dialect: "sqlite", file: ":memory:" });
  try {
    await migrateToLatest(db);
    const auth = createAuth({ db, secret: "test-secret-test-secret-test-secret-00", publicUrl: "http://localhost:9000", basePath: "" });
    const res = await auth.handler(
      new Request("http://localhost:9000/api/auth/sign-up/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost:9000" },
        body: JSON.stringify({ email: "someone@example.com", password: "password123", name: "Someone" }),
      }),
    );
    assert.ok(res.status >= 400 && res.status < 500, `sign-up answered ${res.status}`);
    const rows = await db.kysely.selectFrom("users").select("id").execute();
    assert.equal(rows.length, 0);
  } finally {
    await db.close();
  }
});
