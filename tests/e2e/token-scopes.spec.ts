// Issue 20, scoped personal tokens, against a production build: a person creates a token on the account page with
// Sentry's scopes and an expiry (shown once, listed with its scopes), and the real, unmodified sentry-cli (2.58.6 and
// 3.x) works with a token holding exactly the scopes Sentry's docs list per command: `project:releases` and `org:read`
// for releases and `sourcemaps upload`; `send-event` and `monitors run` need only the DSN (a token with those scopes
// set beside it changes nothing). Over HTTP, every route outside a token's scopes answers 403 with Sentry's message;
// a token made before scopes keeps full access and is listed as such; an expired token is refused with 401.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./axe";
import { api, cli, OWNER_STATE, screenshot } from "./helpers";
import { createProject, expectJson, mainApi, run, sleep, type TestProject, unique } from "./ingest-helpers";
import { runSentryCli, SENTRY_CLIS, sentryCliEnv } from "./sentry-cli";
import { OWNER, SERVERS } from "./servers";

const DENIED = "You do not have permission to perform this action.";
/** Sentry's docs: sentry-cli's release and source map commands need project:releases, and org:read beside it. */
const CLI_SCOPES = ["project:releases", "org:read"];

let project: TestProject;
let home: string;
test.beforeAll(async ({ request }) => {
  project = await createProject(mainApi(request), { platform: "javascript" });
  home = mkdtempSync(path.join(os.tmpdir(), "faultline-token-scopes-"));
});
test.afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A token of the owner with exactly these scopes, made by `faultline createtoken --scope …`. */
const scopedToken = (scopes: string[]) =>
  cli("main", "createtoken", "--email", OWNER.email, "--name", unique("scoped"), ...scopes.flatMap((s) => ["--scope", s]));

/** A minified script and its source map in dir/dist, as a build leaves them. */
function buildDist(dir: string): string {
  const dist = path.join(dir, "dist");
  mkdirSync(dist, { recursive: true });
  writeFileSync(path.join(dist, "app.min.js"), 'function a(n){throw new Error("boom "+n)}a(1);\n//# sourceMappingURL=app.min.js.map\n');
  writeFileSync(
    path.join(dist, "app.min.js.map"),
    JSON.stringify({
      version: 3,
      file: "app.min.js",
      sources: ["app.js"],
      sourcesContent: ["function fail(n) {\n  throw new Error('boom ' + n);\n}\nfail(1);\n"],
      names: ["fail", "n"],
      mappings: "AAAA,SAASA,EAAKC",
    }),
  );
  return dist;
}

test.describe("issue 20 scoped personal tokens", () => {
  test.use({ storageState: OWNER_STATE });

  test("created on the account page with scopes and an expiry, shown once, listed with them; en and de axe-clean", async ({ page }) => {
    await page.goto("/en/account/tokens");
    const form = page.getByTestId("create-token-form");
    const name = unique("release-bot");
    await form.getByLabel("Name").fill(name);
    // No scope: refused inline, nothing created.
    await form.getByRole("button", { name: "Create token" }).click();
    await expect(form.getByRole("alert")).toBeVisible();
    await expect(form.locator('[data-field-error="scopes"]')).toContainText("Choose at least one scope");
    for (const s of CLI_SCOPES) await form.getByRole("checkbox", { name: s }).check();
    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await form.getByLabel("Expires after (optional)").fill(expiry);
    await form.getByRole("button", { name: "Create token" }).click();
    await expect(form.getByRole("status")).toContainText("not be shown again");
    const token = (await form.getByTestId("result-token").textContent())!.trim();
    expect(token).toMatch(/^sntryu_[0-9a-f]{64}$/);
    const row = page.getByTestId("token-table").getByRole("row").filter({ hasText: name });
    await expect(row.getByTestId("token-scopes")).toHaveText("org:read project:releases");
    await expect(row).toContainText(
      new Date(`${expiry}T12:00:00Z`).toLocaleDateString("en", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }),
    );
    await expect(page.getByTestId("token-table")).not.toContainText(token.slice(7, 40));
    await screenshot(page, "token-scopes-created");

    // The token says what it may do (GET /api/0/, what `sentry-cli info` prints).
    const who = await (await page.request.get(`${SERVERS.main.url}/api/0/`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(who.auth.scopes).toEqual(["org:read", "project:releases"]);

    const found = await seriousViolations(page, "a11y-account-tokens-en");
    await page.goto("/de/account/tokens");
    await expect(page.getByRole("group", { name: /Berechtigungen/ })).toBeVisible();
    found.push(...(await seriousViolations(page, "a11y-account-tokens-de")));
    expect(found, `axe-core found serious or critical violations:\n\n${found.join("\n\n")}`).toEqual([]);
  });

  test("the account page's form works without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ storageState: OWNER_STATE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${SERVERS.main.url}/en/account/tokens`);
    const form = page.getByTestId("create-token-form");
    const name = unique("no-js");
    await form.getByLabel("Name").fill(name);
    await form.getByRole("checkbox", { name: "event:read" }).check();
    await form.getByRole("button", { name: "Create token" }).click();
    await expect(page.getByTestId("result-token")).toContainText("sntryu_");
    await expect(page.getByTestId("token-table").getByRole("row").filter({ hasText: name }).getByTestId("token-scopes")).toHaveText("event:read");
    await context.close();
  });

  for (const sentryCli of SENTRY_CLIS) {
    test(`sentry-cli ${sentryCli.name} with exactly project:releases and org:read: info, releases, sourcemaps upload; send-event and monitors run with the DSN`, async ({
      request,
    }) => {
      test.setTimeout(180_000);
      const token = scopedToken(CLI_SCOPES);
      const target = { url: SERVERS.main.url, token, org: project.org, project: project.slug };
      const dir = mkdtempSync(path.join(home, "cli-"));

      const info = await runSentryCli(sentryCli.bin, ["info"], target, dir);
      expect(info).toMatch(/Scopes:\s+- org:read\s+- project:releases/);
      const release = unique("web@2.0.0");
      await runSentryCli(sentryCli.bin, ["releases", "new", release], target, dir);
      const dist = buildDist(dir);
      await runSentryCli(sentryCli.bin, ["sourcemaps", "inject", dist], target, dir);
      expect(await runSentryCli(sentryCli.bin, ["sourcemaps", "upload", "--release", release, "--wait", dist], target, dir)).not.toContain("Nothing to upload");
      await runSentryCli(sentryCli.bin, ["releases", "finalize", release], target, dir);
      expect(await runSentryCli(sentryCli.bin, ["releases", "list"], target, dir)).toContain(release);
      const owner = mainApi(request);
      const stored = await expectJson(await owner.get(`/organizations/${project.org}/releases/${encodeURIComponent(release)}/`), 200, "release");
      expect(stored.dateReleased).not.toBeNull();

      // send-event and monitors run go to the DSN; the scoped token beside it is not asked for more.
      const env = { ...sentryCliEnv(target, dir), SENTRY_DSN: project.dsn };
      const message = unique("scoped token send-event");
      const sent = await run(sentryCli.bin, ["send-event", "-m", message], { env, cwd: dir, timeoutMs: 60_000 });
      expect(sent.code, `${sent.stdout}\n${sent.stderr}`).toBe(0);
      const monitor = unique("scoped-cron").toLowerCase();
      const checkIn = await run(sentryCli.bin, ["monitors", "run", monitor, "--schedule", "0 * * * *", "--", "true"], { env, cwd: dir, timeoutMs: 60_000 });
      expect(checkIn.code, `${checkIn.stdout}\n${checkIn.stderr}`).toBe(0);
      let titles: string[] = [];
      for (let i = 0; i < 150 && !titles.includes(message); i++) {
        titles = ((await (await owner.get(`/projects/${project.org}/${project.slug}/issues/?query=`)).json()) as { title: string }[]).map((x) => x.title);
        if (!titles.includes(message)) await sleep(100);
      }
      expect(titles).toContain(message);
      // `monitors run` sends an in-progress check-in, then its ok under the same id: both must have been digested.
      let checkIns: { status: string }[] = [];
      const settled = () => checkIns.length > 0 && checkIns.every((c) => c.status !== "in_progress");
      for (let i = 0; i < 150 && !settled(); i++) {
        const r = await owner.get(`/organizations/${project.org}/monitors/${monitor}/checkins/`);
        checkIns = r.status() === 200 ? await r.json() : [];
        if (!settled()) await sleep(100);
      }
      expect(checkIns.map((c) => c.status)).toEqual(["ok"]);

      // What the scopes do not cover answers 403 with Sentry's message.
      const client = api(request, token);
      for (const [what, r] of [
        ["issues", await client.get(`/projects/${project.org}/${project.slug}/issues/`)],
        ["keys", await client.get(`/projects/${project.org}/${project.slug}/keys/`)],
        ["teams", await client.get(`/organizations/${project.org}/teams/`)],
        ["delete project", await client.delete(`/projects/${project.org}/${project.slug}/`)],
        ["rename organization", await client.put(`/organizations/${project.org}/`, { name: "Renamed" })],
      ] as const) {
        expect(await expectJson(r, 403, what)).toEqual({ detail: DENIED });
      }
    });
  }

  test("each scope opens its routes and no others", async ({ request }) => {
    const base = `/projects/${project.org}/${project.slug}`;
    const eventRead = api(request, scopedToken(["event:read"]));
    await expectJson(await eventRead.get(`${base}/issues/`), 200, "event:read lists issues");
    expect(await expectJson(await eventRead.put(`${base}/issues/?status=unresolved`, { status: "resolved" }), 403, "event:read cannot triage")).toEqual({
      detail: DENIED,
    });
    expect(await expectJson(await eventRead.get(`/organizations/${project.org}/`), 403, "event:read cannot read the organization")).toEqual({ detail: DENIED });

    const projectRead = api(request, scopedToken(["project:read"]));
    expect((await expectJson(await projectRead.get(`${base}/`), 200, "project:read reads the project")).slug).toBe(project.slug);
    await expectJson(await projectRead.get(`${base}/keys/`), 200, "project:read lists keys");
    await expectJson(await projectRead.get(`${base}/rules/`), 200, "project:read reads alert rules (Sentry's scope map)");
    expect(await expectJson(await projectRead.post(`${base}/keys/`, { name: "x" }), 403, "project:read cannot make keys")).toEqual({ detail: DENIED });
    expect(await expectJson(await projectRead.get(`${base}/events/`), 403, "project:read cannot read events")).toEqual({ detail: DENIED });

    const alerts = api(request, scopedToken(["alerts:read"]));
    await expectJson(await alerts.get(`${base}/rules/`), 200, "alerts:read reads issue alert rules");
    await expectJson(await alerts.get(`/organizations/${project.org}/alert-rules/`), 200, "alerts:read reads metric alert rules");
    expect(await expectJson(await alerts.post(`${base}/rules/`, { name: "x" }), 403, "alerts:read cannot write rules")).toEqual({ detail: DENIED });

    const teamRead = api(request, scopedToken(["team:read"]));
    await expectJson(await teamRead.get(`/organizations/${project.org}/teams/`), 200, "team:read lists teams");

    // Every scope there is still cannot delete an organization (org:admin, which no personal token is given).
    const all = api(request, scopedToken(["org:read", "org:write", "project:admin", "event:admin", "alerts:write"]));
    expect(await expectJson(await all.delete(`/organizations/${project.org}/`), 403, "no token scope deletes organizations")).toEqual({ detail: DENIED });
    await expectJson(await all.get(`/organizations/${project.org}/`), 200, "the organization is still there");
  });

  test("a token made before scopes keeps full access and is listed as such; an expired token gets 401 'Token expired'", async ({ page, request }) => {
    const legacy = scopedToken(["org:read"]);
    const expired = scopedToken(["org:read"]);
    const db = new Database(path.join(SERVERS.main.dataDir, "faultline.sqlite3"));
    try {
      // As migration 0032 leaves the tokens it finds: no scopes, no expiry.
      db.prepare("update api_tokens set scopes = null where token_suffix = ?").run(legacy.slice(-4));
      db.prepare("update api_tokens set expires_at = ? where token_suffix = ?").run(new Date(Date.now() - 1000).toISOString(), expired.slice(-4));
    } finally {
      db.close();
    }
    const client = api(request, legacy);
    await expectJson(await client.get(`/projects/${project.org}/${project.slug}/issues/`), 200, "full access: issues");
    await expectJson(await client.get(`/projects/${project.org}/${project.slug}/keys/`), 200, "full access: keys");
    const who = await (await request.get(`${SERVERS.main.url}/api/0/`, { headers: { authorization: `Bearer ${legacy}` } })).json();
    expect(who.auth.scopes).toContain("event:admin");
    expect(await expectJson(await api(request, expired).get(`/organizations/${project.org}/`), 401, "expired")).toEqual({ detail: "Token expired" });

    await page.goto("/en/account/tokens");
    await expect(
      page
        .getByTestId("token-table")
        .getByRole("row")
        .filter({ hasText: `…${legacy.slice(-4)}` })
        .getByTestId("token-scopes"),
    ).toHaveText("Full access");
    await expect(
      page
        .getByTestId("token-table")
        .getByRole("row")
        .filter({ hasText: `…${expired.slice(-4)}` }),
    ).toContainText("expired");
  });
});
