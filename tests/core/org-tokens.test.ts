// Organization auth tokens through the core: Sentry's `sntrys_` shape as sentry-cli parses it, shown once and kept
// as a hash, listed and revoked by owners and admins; a token acts for its organization alone with org:ci (read the
// organization and its projects, write releases) and is never taken for a person.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { CoreContext } from "../../src/core/context";
import { listKeys } from "../../src/core/keys";
import { listMembers } from "../../src/core/members";
import { authenticateBearer, createOrgToken, listOrgTokens, revokeOrgToken } from "../../src/core/org-tokens";
import { createOrganization, getOrganization, listOrganizations } from "../../src/core/organizations";
import { createProject, getProject, listAllProjects, listProjects } from "../../src/core/projects";
import { createRelease, listReleases } from "../../src/core/releases";
import { listProjectIssues } from "../../src/core/issues";
import { listOrgIssues } from "../../src/core/issue-stream";
import { listProjectEvents } from "../../src/core/events";
import { projectStatSeries } from "../../src/core/stats";
import { createToken } from "../../src/core/tokens";
import type { User } from "../../src/storage/ports";
import { joinByInvitation, outcome, type TestCore, testCore, uniq } from "../helpers/core";

const SERVER = "https://faultline.example/monitor";
let t: TestCore;
let owner: User;
let org: string;
let project: string;

before(async () => {
  t = await testCore();
  owner = await t.accounts.createUser({ email: `${uniq("owner")}@example.com`, password: "password123", name: "Olive Owner" });
  org = (await createOrganization(t.as(owner), { name: uniq("Acme") })).slug;
  project = (await createProject(t.as(owner), org, { name: uniq("Shop"), platform: "node" })).slug;
});
after(() => t.close());

async function tokenActor(orgSlug = org): Promise<{ ctx: CoreContext; plaintext: string; id: number }> {
  const { token, plaintext } = await createOrgToken(t.as(owner), orgSlug, { name: "CI" }, SERVER);
  const actor = await authenticateBearer(t.store, plaintext);
  assert.ok(actor && "orgToken" in actor);
  return { ctx: { store: t.store, actor }, plaintext, id: token.id };
}

describe("organization tokens", () => {
  test("have Sentry's shape: sntrys_, a base64 JSON payload naming the server and organization, a 32-byte secret", async () => {
    const { plaintext } = await createOrgToken(t.as(owner), org, { name: "CI" }, SERVER);
    const [prefix, payload, secret, ...rest] = plaintext.split("_");
    assert.equal(prefix, "sntrys");
    assert.deepEqual(rest, []);
    const decoded = JSON.parse(Buffer.from(payload!, "base64").toString("utf8"));
    assert.deepEqual({ ...decoded, iat: typeof decoded.iat }, { iat: "number", url: SERVER, region_url: SERVER, org });
    assert.ok(Math.abs(decoded.iat * 1000 - Date.now()) < 60_000, "iat is seconds since the epoch");
    assert.match(secret!, /^[A-Za-z0-9+/]{43}$/, "unpadded base64");
    assert.equal(Buffer.from(secret!, "base64").length, 32);
  });

  test("are kept as a SHA-256 hash with the last 4 characters; listed with their creator; the secret is not stored", async () => {
    const { token, plaintext } = await createOrgToken(t.as(owner), org, { name: "  Deploys  " }, SERVER);
    assert.equal(token.name, "Deploys");
    assert.equal(token.tokenSuffix, plaintext.slice(-4));
    assert.deepEqual(token.createdBy, { id: owner.id, name: owner.name, email: owner.email });
    const row = await t.db.kysely.selectFrom("org_auth_tokens").selectAll().where("id", "=", token.id).executeTakeFirstOrThrow();
    assert.equal(row.token_hash, createHash("sha256").update(plaintext).digest("hex"));
    assert.ok(!Object.values(row).some((v) => typeof v === "string" && v.length > 4 && plaintext.includes(v) && v !== org), "no column holds the token");
    assert.ok((await listOrgTokens(t.as(owner), org)).some((x) => x.id === token.id));
    assert.equal(await outcome(() => createOrgToken(t.as(owner), org, { name: " " }, SERVER)), "bad_request");
  });

  test("are managed by owners and admins; members and viewers may not even list them", async () => {
    for (const role of ["admin", "member", "viewer"] as const) {
      const u = await t.accounts.createUser({ email: `${uniq(role)}@example.com`, password: "password123", name: role });
      await joinByInvitation(t, t.as(owner), org, { email: u.email, role });
      assert.equal(await outcome(() => listOrgTokens(t.as(u), org)), role === "admin" ? "ok" : "forbidden", role);
    }
  });

  test("a revoked token authenticates nothing and leaves the list; revoking again or another organization's is not found", async () => {
    const { plaintext, id } = await tokenActor();
    await revokeOrgToken(t.as(owner), org, id);
    assert.equal(await authenticateBearer(t.store, plaintext), null);
    assert.ok(!(await listOrgTokens(t.as(owner), org)).some((x) => x.id === id));
    assert.equal(await outcome(() => revokeOrgToken(t.as(owner), org, id)), "not_found");
    const other = (await createOrganization(t.as(owner), { name: uniq("Other") })).slug;
    const live = await tokenActor();
    assert.equal(await outcome(() => revokeOrgToken(t.as(owner), other, live.id)), "not_found");
    assert.equal(await outcome(() => revokeOrgToken(t.as(owner), org, "1e3")), "not_found");
  });

  test("a bearer token is an organization's, a person's, or nobody's", async () => {
    const { token, plaintext: personal } = await createToken(t.as(owner), { name: "mine", scopes: ["org:read"] });
    assert.deepEqual(await authenticateBearer(t.store, personal), { user: owner, token: { id: token.id, scopes: ["org:read"] } });
    const { ctx } = await tokenActor();
    assert.ok("orgToken" in ctx.actor && ctx.actor.orgToken.scopes.includes("org:ci"));
    for (const junk of ["sntrys_", "sntrys_e30=_abc", "sntryu_" + "0".repeat(64), "nonsense"])
      assert.equal(await authenticateBearer(t.store, junk), null, junk);
  });

  test("org:ci reads the organization and its projects and writes releases; everything else is forbidden", async () => {
    const { ctx } = await tokenActor();
    assert.equal((await getOrganization(ctx, org)).org.slug, org);
    assert.deepEqual(
      (await listOrganizations(ctx, { limit: 100 })).items.map((o) => o.slug),
      [org],
    );
    assert.deepEqual(
      (await listProjects(ctx, org, { limit: 100 })).items.map((p) => p.slug),
      [project],
    );
    assert.equal((await getProject(ctx, org, project)).project.slug, project);
    assert.deepEqual(
      (await listAllProjects(ctx, { limit: 100 })).items.map((p) => p.slug),
      [project],
    );
    const version = uniq("web@1.0.0");
    assert.equal((await createRelease(ctx, org, null, { version, projects: [project] })).created, true);
    assert.ok(
      (await listReleases(ctx, org, null, { query: null, projectIds: [], health: false, environments: [], page: { limit: 100 } })).items.some(
        (r) => r.release.version === version,
      ),
    );

    const forbiddenCalls: Record<string, () => Promise<unknown>> = {
      "project issues": () => listProjectIssues(ctx, org, project, { query: null, sort: null, page: { limit: 10 } }),
      "issue stream": () => listOrgIssues(ctx, org, { project: null, query: null, sort: null, environment: null, period: "24h", page: { limit: 10 } }),
      events: () => listProjectEvents(ctx, org, project, { limit: 10 }),
      stats: () => projectStatSeries(ctx, org, project, {}),
      "DSN keys": () => listKeys(ctx, org, project),
      members: () => listMembers(ctx, org),
      "its organization's tokens": () => listOrgTokens(ctx, org),
      "make a token": () => createOrgToken(ctx, org, { name: "again" }, SERVER),
      "a new organization": () => createOrganization(ctx, { name: uniq("Mine") }),
      "a personal token": () => createToken(ctx, { name: "mine", scopes: ["org:read"] }),
    };
    for (const [what, call] of Object.entries(forbiddenCalls)) assert.equal(await outcome(call), "forbidden", what);
  });

  test("another organization is not found to a token, as to a non-member", async () => {
    const other = (await createOrganization(t.as(owner), { name: uniq("Other") })).slug;
    await createProject(t.as(owner), other, { name: "Elsewhere" });
    const { ctx } = await tokenActor();
    assert.equal(await outcome(() => getOrganization(ctx, other)), "not_found");
    assert.equal(await outcome(() => listProjects(ctx, other, { limit: 10 })), "not_found");
    assert.equal(await outcome(() => createRelease(ctx, other, null, { version: "x@1", projects: ["elsewhere"] })), "not_found");
  });
});
