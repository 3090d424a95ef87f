// Scoped personal tokens (issue 20): Sentry's scopes chosen at creation, an optional expiry, and which scopes satisfy
// what a /api/0 route declares (core/token-scopes.ts). Every route's declaration is read from its source and checked
// against the matrix below, so a new route cannot go without one and a changed scope is a deliberate change here.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { authenticateBearer } from "../../src/core/org-tokens";
import { createOrganization } from "../../src/core/organizations";
import { type RouteScope, scopeSatisfied, TOKEN_SCOPES } from "../../src/core/token-scopes";
import { createToken, deleteToken, listTokens } from "../../src/core/tokens";
import type { User } from "../../src/storage/ports";
import { outcome, type TestCore, testCore, uniq } from "../helpers/core";

/** Every /api/0 handler (file under src/app/api/0, or the shared release files routes) and the scopes it accepts. */
const ROUTE_SCOPES: Record<string, Record<string, string>> = {
  "organizations/route.ts": { GET: "org:read", POST: "org:write" },
  "organizations/[org]/route.ts": { GET: "org:read", PUT: "org:write", DELETE: "org:admin" },
  "organizations/[org]/projects/route.ts": { GET: "org:read" },
  "organizations/[org]/repos/route.ts": { GET: "org:read" },
  "organizations/[org]/teams/route.ts": { GET: "team:read", POST: "org:write" },
  "organizations/[org]/releases/route.ts": { GET: "project:releases|project:read", POST: "project:releases" },
  "organizations/[org]/releases/[version]/route.ts": { GET: "project:releases|project:read", PUT: "project:releases", DELETE: "project:releases" },
  "organizations/[org]/releases/[version]/previous-with-commits/route.ts": { GET: "project:releases|project:read" },
  "organizations/[org]/releases/[version]/assemble/route.ts": { POST: "project:releases" },
  "organizations/[org]/chunk-upload/route.ts": { GET: "project:releases", POST: "project:releases" },
  "organizations/[org]/artifactbundle/assemble/route.ts": { POST: "project:releases" },
  "organizations/[org]/alert-rules/route.ts": { GET: "alerts:read|org:read", POST: "alerts:write|org:write" },
  "organizations/[org]/alert-rules/[ruleId]/route.ts": { GET: "alerts:read|org:read", PUT: "alerts:write|org:write", DELETE: "alerts:write|org:write" },
  "organizations/[org]/personal-data/export/route.ts": { GET: "event:admin" },
  "organizations/[org]/audit-logs/route.ts": { GET: "org:write" },
  "organizations/[org]/events/route.ts": { GET: "event:read" },
  "organizations/[org]/monitors/route.ts": { GET: "project:read|org:read", POST: "project:write" },
  "organizations/[org]/monitors/[monitor]/route.ts": { GET: "project:read|org:read", PUT: "project:write", DELETE: "project:write" },
  "organizations/[org]/monitors/[monitor]/checkins/route.ts": { GET: "project:read|org:read", POST: "project:write" },
  "organizations/[org]/monitors/[monitor]/checkins/[checkin]/route.ts": { PUT: "project:write" },
  "projects/route.ts": { GET: "project:read" },
  "projects/[org]/[project]/route.ts": { GET: "project:read", PUT: "project:write", DELETE: "project:admin" },
  "projects/[org]/[project]/stats/route.ts": { GET: "project:read" },
  "projects/[org]/[project]/keys/route.ts": { GET: "project:read", POST: "project:write" },
  "projects/[org]/[project]/keys/[keyId]/route.ts": { PUT: "project:write", DELETE: "project:admin" },
  "projects/[org]/[project]/issues/route.ts": { GET: "event:read", PUT: "event:write", DELETE: "event:admin" },
  "projects/[org]/[project]/events/route.ts": { GET: "event:read" },
  "projects/[org]/[project]/events/[eventId]/route.ts": { GET: "event:read" },
  "projects/[org]/[project]/events/[eventId]/attachments/route.ts": { GET: "event:read" },
  "projects/[org]/[project]/events/[eventId]/attachments/[attachmentId]/route.ts": { GET: "event:read" },
  "projects/[org]/[project]/logs/route.ts": { GET: "event:read" },
  "projects/[org]/[project]/releases/route.ts": { GET: "project:releases|project:read", POST: "project:releases" },
  "projects/[org]/[project]/releases/[version]/route.ts": { GET: "project:releases|project:read", PUT: "project:releases" },
  "projects/[org]/[project]/rules/route.ts": { GET: "alerts:read|project:read", POST: "alerts:write|project:write" },
  "projects/[org]/[project]/rules/[ruleId]/route.ts": {
    GET: "alerts:read|project:read",
    PUT: "alerts:write|project:write",
    DELETE: "alerts:write|project:write",
  },
  "projects/[org]/[project]/user-feedback/route.ts": { GET: "event:read", withToken: "event:write" },
  "teams/[org]/[team]/projects/route.ts": { POST: "project:write" },
  "issues/[issueId]/route.ts": { GET: "event:read", PUT: "event:write", DELETE: "event:admin" },
  "issues/[issueId]/events/route.ts": { GET: "event:read" },
  "issues/[issueId]/events/[which]/route.ts": { GET: "event:read" },
  "issues/[issueId]/comments/route.ts": { GET: "event:read", POST: "event:write" },
  "issues/[issueId]/comments/[commentId]/route.ts": { PUT: "event:write", DELETE: "event:write" },
  "issues/[issueId]/tags/route.ts": { GET: "event:read" },
  "issues/[issueId]/tags/[key]/route.ts": { GET: "event:read" },
  "issues/[issueId]/tags/[key]/values/route.ts": { GET: "event:read" },
  // Shared by the organization and project release files routes (which re-export them).
  "../../../web/api/release-file-routes.ts": { GET: "project:releases|project:read", POST: "project:releases", DELETE: "project:releases" },
};
/** Routes that are no apiRoute: the API root (answers without credentials) and the JSON 404 for unknown paths. */
const NOT_API_ROUTES = new Set(["route.ts", "[...path]/route.ts"]);
/** Routes that only re-export the shared release files handlers. */
const REEXPORTS = /releases\/\[version\]\/files\//;

const API_DIR = path.resolve("src/app/api/0");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? routeFiles(full) : name === "route.ts" ? [path.relative(API_DIR, full)] : [];
  });
}

/** Each `NAME = apiRoute<…>(SCOPE, …)` or `NAME: apiRoute<…>(SCOPE, …)` in a file: its declared scopes, "|"-joined. */
function declarations(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of source.matchAll(/(\w+)\s*[=:]\s*apiRoute(?:<[^>]*>)?\(\s*(\[[^\]]*\]|"[^"]*")/g)) {
    const list = JSON.parse(m[2]!) as string | string[];
    out[m[1]!] = (typeof list === "string" ? [list] : list).join("|");
  }
  return out;
}

describe("every /api/0 route declares the token scope it needs", () => {
  const files = routeFiles(API_DIR);

  test("the matrix names every route file, and every route file is in the matrix", () => {
    const apiFiles = files.filter((f) => !NOT_API_ROUTES.has(f) && !REEXPORTS.test(f));
    assert.deepEqual(
      apiFiles.sort(),
      Object.keys(ROUTE_SCOPES)
        .filter((f) => !f.startsWith(".."))
        .sort(),
    );
    for (const f of files.filter((f) => REEXPORTS.test(f))) assert.match(readFileSync(path.join(API_DIR, f), "utf8"), /releaseFiles?Routes/, f);
  });

  for (const [file, expected] of Object.entries(ROUTE_SCOPES)) {
    test(`${file}: ${Object.entries(expected)
      .map(([m, s]) => `${m} ${s}`)
      .join(", ")}`, () => {
      const source = readFileSync(path.join(API_DIR, file), "utf8");
      const declared = declarations(source);
      assert.deepEqual(declared, expected);
      const handlers = [...source.matchAll(/apiRoute(?:<[^>]*>)?\(/g)].length - (/import[^;]*apiRoute/.test(source) ? 0 : 0);
      assert.equal(handlers, Object.keys(expected).length, "every apiRoute call declares a scope");
      for (const scope of Object.values(declared).flatMap((s) => s.split("|")))
        assert.ok(scope === "org:admin" || (TOKEN_SCOPES as readonly string[]).includes(scope), scope);
    });
  }
});

describe("which token scopes satisfy a route's scope (Sentry's scope maps)", () => {
  const cases: [RouteScope | RouteScope[], string[], boolean][] = [
    ["org:read", ["org:read"], true],
    ["org:read", ["org:write"], true],
    ["org:read", ["org:ci"], true],
    ["org:read", ["project:read", "event:read"], false],
    ["org:write", ["org:read"], false],
    ["org:admin", [...TOKEN_SCOPES], false],
    ["project:read", ["project:admin"], true],
    ["project:write", ["project:read"], false],
    ["project:admin", ["project:write"], false],
    ["project:releases", ["project:releases"], true],
    ["project:releases", ["project:write"], true],
    ["project:releases", ["project:read"], false],
    ["project:releases", ["org:ci"], true],
    [["project:releases", "project:read"], ["project:read"], true],
    ["event:read", ["event:admin"], true],
    ["event:write", ["event:read"], false],
    ["event:admin", ["event:write"], false],
    ["alerts:read", ["alerts:write"], true],
    ["alerts:write", ["alerts:read"], false],
    [["alerts:write", "project:write"], ["project:write"], true],
    ["team:read", ["member:read"], false],
    ["member:read", [], false],
    ["event:read", ["org:ci"], false],
  ];
  for (const [required, scopes, expected] of cases) {
    test(`[${scopes.join(", ")}] ${expected ? "satisfies" : "does not satisfy"} ${[required].flat().join(" or ")}`, () =>
      assert.equal(scopeSatisfied(scopes, required), expected));
  }
  test("no scopes to check (a session, or a token made before scopes) satisfies every route, org:admin too", () => {
    for (const s of [...TOKEN_SCOPES, "org:admin" as const]) assert.equal(scopeSatisfied(null, s), true);
  });
});

describe("creating and using scoped personal tokens", () => {
  let t: TestCore;
  let owner: User;
  before(async () => {
    t = await testCore();
    owner = await t.accounts.createUser({ email: `${uniq("owner")}@example.com`, password: "correct horse battery", name: "Owner", isSuperuser: false });
    await createOrganization(t.as(owner), { name: uniq("Org") });
  });
  after(() => t.close());

  test("scopes are chosen at creation, stored in Sentry's order without duplicates, and come with the token's user", async () => {
    const { token, plaintext } = await createToken(t.as(owner), { name: "cli", scopes: ["org:read", "project:releases", "org:read"] });
    assert.deepEqual(token.scopes, ["org:read", "project:releases"]);
    assert.equal(token.expiresAt, null);
    const actor = await authenticateBearer(t.store, plaintext);
    assert.ok(actor && "user" in actor);
    assert.equal(actor.user.id, owner.id);
    assert.deepEqual(actor.token?.scopes, ["org:read", "project:releases"]);
    assert.ok((await listTokens(t.as(owner))).find((x) => x.id === token.id)?.lastUsedAt, "last use recorded");
    await deleteToken(t.as(owner), token.id);
    assert.equal(await authenticateBearer(t.store, plaintext), null);
  });

  test("no scope, an unknown scope, org:ci or org:admin, a non-list, a bad or past expiry are refused with 400", async () => {
    for (const input of [
      { name: "x" },
      { name: "x", scopes: [] },
      { name: "x", scopes: ["org:read", "root"] },
      { name: "x", scopes: ["org:ci"] },
      { name: "x", scopes: ["org:admin"] },
      { name: "x", scopes: "org:read" },
      { name: "x", scopes: ["org:read\u0000"] },
      { name: "x", scopes: Array.from({ length: 100_000 }, () => "org:read") },
      { name: "x", scopes: ["org:read"], expiresAt: "yesterday" },
      { name: "x", scopes: ["org:read"], expiresAt: "2001-01-01" },
      { name: "x", scopes: ["org:read"], expiresAt: "9999-12-31" },
      { name: "x", scopes: ["org:read"], expiresAt: "2030-02-31" },
      { name: "x", scopes: ["org:read"], expiresAt: "x".repeat(1_000_000) },
    ]) {
      assert.equal(await outcome(() => createToken(t.as(owner), input)), "bad_request", JSON.stringify(input).slice(0, 80));
    }
  });

  test("an expiry date means valid through that day (UTC); once past, the token is refused with Sentry's 401 'Token expired'", async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const { token, plaintext } = await createToken(t.as(owner), { name: "short", scopes: ["event:read"], expiresAt: tomorrow });
    assert.equal(token.expiresAt, `${tomorrow}T23:59:59.999Z`);
    assert.ok(await authenticateBearer(t.store, plaintext));
    await t.db.kysely
      .updateTable("api_tokens")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", token.id)
      .execute();
    await assert.rejects(
      authenticateBearer(t.store, plaintext),
      (err: Error & { code?: string }) => err.code === "unauthorized" && err.message === "Token expired",
    );
  });

  test("a token made before scopes (scopes null) keeps full access and is listed as such", async () => {
    await t.db.kysely
      .insertInto("api_tokens")
      .values({
        user_id: owner.id,
        name: "old",
        token_hash: "0".repeat(64),
        token_suffix: "beef",
        created_at: new Date().toISOString(),
        last_used_at: null,
        scopes: null,
        expires_at: null,
      })
      .execute();
    assert.equal((await listTokens(t.as(owner))).find((x) => x.name === "old")?.scopes, null);
  });
});
