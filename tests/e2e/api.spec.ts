// Sentry's web API for setup (/api/0/…): Bearer tokens from `faultline createtoken`, Sentry's paths and field
// names, {"detail"} errors, Link cursor pagination, and authorization on every route.
import { expect, test } from "@playwright/test";
import { api, cli, OWNER_STATE, ownerApiToken } from "./helpers";
import { OWNER, SERVERS } from "./servers";

test.describe("web API /api/0 with a browser session", () => {
  test.use({ storageState: OWNER_STATE });

  test("a session cookie reads, and writes only with same-origin JSON (no cross-site form posts)", async ({ page }) => {
    const url = `${SERVERS.main.url}/api/0/organizations/`;
    expect((await page.request.get(url)).status()).toBe(200);
    const form = await page.request.post(url, { headers: { "content-type": "text/plain" }, data: JSON.stringify({ name: "Via form" }) });
    expect(form.status()).toBe(403);
    const foreign = await page.request.post(url, {
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      data: { name: "Foreign" },
    });
    expect(foreign.status()).toBe(403);
    // An Origin that is no URL ("null" from a sandboxed frame, or garbage) is no origin of this host: 403, never 500.
    for (const origin of ["null", "http://a b", "http://[::1"]) {
      const odd = await page.request.post(url, { headers: { "content-type": "application/json", origin }, data: { name: "Odd origin" } });
      expect(odd.status(), origin).toBe(403);
    }
    const json = await page.request.post(url, { headers: { "content-type": "application/json", origin: SERVERS.main.origin }, data: { name: "Via session" } });
    expect(json.status()).toBe(201);
  });
});

test.describe("web API /api/0", () => {
  test("GET /api/0/ tells who the token belongs to, and answers without credentials too", async ({ request }) => {
    const token = ownerApiToken();
    expect(token).toMatch(/^sntryu_[0-9a-f]{64}$/);
    const me = await (await api(request).get("/")).json();
    expect(me.user.email).toBe(OWNER.email);
    expect(me.auth.scopes).toContain("project:write");
    const anon = await request.get(`${SERVERS.main.url}/api/0/`);
    expect(await anon.json()).toEqual({ version: "0", user: null, auth: null });
  });

  test("authentication errors are 401 with {detail}", async ({ request }) => {
    const none = await request.get(`${SERVERS.main.url}/api/0/organizations/`);
    expect(none.status()).toBe(401);
    expect((await none.json()).detail).toBeTruthy();
    const bad = await api(request, "sntryu_" + "0".repeat(64)).get("/organizations/");
    expect(bad.status()).toBe(401);
    expect(await bad.json()).toEqual({ detail: "Invalid token" });
  });

  test("organizations, teams, projects and keys: create and read in Sentry's shapes, with and without trailing slash", async ({ request }) => {
    const a = api(request);
    const org = await (await a.post("/organizations/", { name: "API Org" })).json();
    expect(org).toMatchObject({ slug: "api-org", name: "API Org", requireEmailVerification: false, isEarlyAdopter: false });
    expect(typeof org.id).toBe("string");
    const team = await a.post(`/organizations/${org.slug}/teams/`, { slug: "backend" });
    expect(team.status()).toBe(201);
    expect(await team.json()).toMatchObject({ slug: "backend", isMember: true });
    const created = await a.post(`/teams/${org.slug}/backend/projects/`, { name: "Billing API", platform: "python" });
    expect(created.status()).toBe(201);
    const project = await created.json();
    expect(project).toMatchObject({ slug: "billing-api", platform: "python", team: { slug: "backend" }, organization: { slug: "api-org" } });
    expect(project.id).toMatch(/^\d+$/);

    for (const path of [`/projects/${org.slug}/billing-api/`, `/projects/${org.slug}/billing-api`]) {
      expect((await (await a.get(path)).json()).slug).toBe("billing-api");
    }
    const keys = await (await a.get(`/projects/${org.slug}/billing-api/keys/`)).json();
    expect(keys).toHaveLength(1);
    expect(keys[0].dsn.public).toBe(`http://${keys[0].public}@localhost:${SERVERS.main.port}/${project.id}`);
    expect(keys[0].isActive).toBe(true);

    const orgProjects = await (await a.get(`/organizations/${org.slug}/projects/`)).json();
    expect(orgProjects.map((p: { slug: string }) => p.slug)).toEqual(["billing-api"]);
    const all = await (await a.get("/projects/")).json();
    expect(all.map((p: { slug: string }) => p.slug)).toContain("billing-api");
  });

  test("keys: create, rename, disable and revoke through the API", async ({ request }) => {
    const a = api(request);
    await a.post("/organizations/", { name: "Keys Org" });
    await a.post("/organizations/keys-org/teams/", { slug: "web" });
    await a.post("/teams/keys-org/web/projects/", { name: "Site", platform: "javascript" });
    const key = await (await a.post("/projects/keys-org/site/keys/", { name: "CI" })).json();
    expect(key.name).toBe("CI");
    const disabled = await (await a.put(`/projects/keys-org/site/keys/${key.id}/`, { name: "CI runner", isActive: false })).json();
    expect(disabled).toMatchObject({ name: "CI runner", isActive: false });
    expect((await a.delete(`/projects/keys-org/site/keys/${key.id}/`)).status()).toBe(204);
    expect((await a.delete(`/projects/keys-org/site/keys/${key.id}/`)).status()).toBe(404);
  });

  test("Link header pagination with cursors", async ({ request }) => {
    const a = api(request);
    for (const n of ["p1", "p2", "p3"]) await a.post("/organizations/", { name: `Page ${n}`, slug: `page-${n}` });
    const first = await a.get("/organizations/?per_page=2");
    const link = first.headers()["link"] ?? "";
    expect(link).toContain('rel="next"; results="true"');
    const cursor = /rel="next"; results="true"; cursor="([^"]+)"/.exec(link)?.[1];
    if (!cursor) throw new Error(`no next cursor in ${link}`);
    const second = await a.get(`/organizations/?per_page=2&cursor=${cursor}`);
    const names = [...(await first.json()), ...(await second.json())].map((o: { slug: string }) => o.slug);
    expect(new Set(names).size).toBe(names.length);
    // The links carry the parameters the route read, not whatever else the request had: a parameter near the request
    // line's bound, echoed twice, made a header Node's fetch refuses (over 16 KB).
    const junk = await a.get(`/organizations/?per_page=2&junk=${"x".repeat(12_000)}`);
    expect(junk.status()).toBe(200);
    const junkLink = junk.headers()["link"] ?? "";
    expect(junkLink).toContain("per_page=2");
    expect(junkLink).not.toContain("junk=");
    expect(junkLink.length).toBeLessThan(1000);
    // Parameters the route does read, too long to carry twice in a header a client can read: 414, with a detail.
    const environments = Array.from({ length: 600 }, (_, i) => `environment=env-${i}`).join("&");
    const long = await a.get(`/organizations/acme/releases/?${environments}`);
    expect(long.status()).toBe(414);
    expect((await long.json()).detail).toMatch(/^The list's parameters are too long to page through: \d+ bytes percent-encoded, at most 6144$/);
  });

  test("bad input answers 4xx with a clear {detail}, never 500", async ({ request }) => {
    const a = api(request);
    const cases = [
      await a.post("/organizations/", { name: "" }),
      await a.post("/organizations/", { name: "x", slug: "Not A Slug!" }),
      await request.post(`${SERVERS.main.url}/api/0/organizations/`, {
        headers: { authorization: `Bearer ${ownerApiToken()}`, "content-type": "application/json" },
        data: "{not json",
      }),
      await request.post(`${SERVERS.main.url}/api/0/organizations/`, {
        headers: { authorization: `Bearer ${ownerApiToken()}`, "content-type": "application/json" },
        data: "[1,2]",
      }),
      await a.post("/teams/acme/nope/projects/", { name: "x" }),
      await a.put("/projects/acme/nope/", { name: "x" }),
      await a.post("/organizations/acme/teams/", {}),
      await a.get("/organizations/?cursor=AA"),
      await a.get("/projects/?cursor=YQB4"),
      await a.get("/organizations/?cursor=%00%01"),
      await a.get("/organizations/?per_page=0"),
      await a.put("/projects/acme/nope/", {}),
    ];
    for (const r of cases) {
      expect(r.status(), await r.text()).toBeGreaterThanOrEqual(400);
      expect(r.status()).toBeLessThan(500);
      expect(typeof (await r.json()).detail).toBe("string");
    }
    const dup = await a.post("/organizations/", { name: "Acme", slug: "acme" });
    expect(dup.status()).toBe(409);
    const unknown = await a.get("/no/such/route/");
    expect(unknown.status()).toBe(404);
    expect(unknown.headers()["content-type"]).toContain("application/json");
    // A method the route does not have: Next.js's own 405 had no body (server/bare-answers.ts gives it one).
    for (const [method, r] of [
      ["DELETE", await a.delete("/organizations/")],
      ["PATCH", await request.patch(`${SERVERS.main.url}/api/health`)],
    ] as const) {
      expect(r.status(), method).toBe(405);
      expect(r.headers()["content-type"], method).toContain("application/json");
      expect(await r.json()).toEqual({ detail: `${method} is not supported on this path` });
    }
  });

  test("another organization's objects answer 404, for reads and mutations alike", async ({ request }) => {
    const a = api(request);
    await a.post("/organizations/", { name: "Private" });
    await a.post("/organizations/private/teams/", { slug: "core" });
    await a.post("/teams/private/core/projects/", { name: "Secret", platform: "go" });
    cli("main", "createuser", "--email", "outsider@example.com", "--password", "outsider-pass", "--no-input");
    const outsider = api(request, cli("main", "createtoken", "--email", "outsider@example.com"));
    for (const r of [
      await outsider.get("/organizations/private/"),
      await outsider.get("/projects/private/secret/"),
      await outsider.get("/projects/private/secret/keys/"),
      await outsider.post("/projects/private/secret/keys/", {}),
      await outsider.put("/projects/private/secret/", { name: "x" }),
      await outsider.delete("/projects/private/secret/"),
      await outsider.post("/teams/private/core/projects/", { name: "x" }),
    ]) {
      expect(r.status()).toBe(404);
    }
    expect((await (await outsider.get("/projects/")).json()).map((p: { slug: string }) => p.slug)).not.toContain("secret");
  });
});
