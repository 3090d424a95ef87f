// Organization auth tokens against a production build: an owner creates one in the organization's settings (shown
// once) and the real, unmodified sentry-cli 2.58.6 works with nothing but SENTRY_AUTH_TOKEN and SENTRY_URL (the
// releases commands read the organization from the token): info, releases new and list. Over HTTP the token reads its organization
// and projects and writes releases, and gets 403 for issues, keys, members and new organizations, 404 for another
// organization. Revoked in the browser, the token is refused (401).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { api, OWNER_STATE, screenshot } from "./helpers";
import { createProject, expectJson, mainApi, run, type TestProject, unique } from "./ingest-helpers";
import { noHorizontalScroll } from "./screen-helpers";
import { SENTRY_CLI_2 } from "./sentry-cli";
import { SERVERS } from "./servers";

const CLI = SENTRY_CLI_2;

let project: TestProject;
let other: TestProject;
let home: string;

test.beforeAll(async ({ request }) => {
  project = await createProject(mainApi(request), { platform: "node" });
  other = await createProject(mainApi(request), { platform: "node" });
  home = mkdtempSync(path.join(os.tmpdir(), "faultline-org-token-"));
});
test.afterAll(() => rmSync(home, { recursive: true, force: true }));

/** sentry-cli with only the token and the server in its environment (an empty HOME: no .sentryclirc). */
const sentryCli = (token: string, args: string[]) =>
  run(CLI, args, {
    cwd: home,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      SENTRY_URL: SERVERS.main.url,
      SENTRY_AUTH_TOKEN: token,
      SENTRY_LOAD_DOTENV: "0",
      SENTRY_DISABLE_UPDATE_CHECK: "true",
    },
  });

test.describe("organization auth tokens", () => {
  test.use({ storageState: OWNER_STATE });

  test("created in settings, used by sentry-cli and the API within org:ci, revoked in settings", async ({ page, request }) => {
    await page.goto(`/en/orgs/${project.org}/settings/tokens`);
    await expect(page.getByRole("heading", { level: 1, name: "Auth tokens" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Auth tokens" })).toHaveAttribute("aria-current", "page");
    const name = unique("CI");
    const form = page.getByTestId("create-org-token-form");
    await form.getByLabel("Name").fill(name);
    await form.getByRole("button", { name: "Create token" }).click();
    await expect(form.getByRole("status")).toContainText("not shown again");
    const token = (await form.getByTestId("result-token").textContent())!.trim();
    expect(token).toMatch(/^sntrys_[A-Za-z0-9+/=]+_[A-Za-z0-9+/]{43}$/);
    const payload = JSON.parse(Buffer.from(token.split("_")[1]!, "base64").toString("utf8"));
    expect(payload).toMatchObject({ org: project.org, url: SERVERS.main.url, region_url: SERVERS.main.url });

    const row = page.getByTestId("org-token-table").getByRole("row").filter({ hasText: name });
    await expect(row).toContainText(`sntrys_…${token.slice(-4)}`);
    await expect(row).toContainText("Never");
    await expect(page.getByTestId("org-token-table")).not.toContainText(token.slice(7, 40));

    // sentry-cli: `info` authenticates and shows the token's scope (its "Default Organization" line reads only
    // SENTRY_ORG and .sentryclirc, so it stays "-"); the releases commands take the organization from the token.
    const info = await sentryCli(token, ["info"]);
    expect(info.stdout).toContain(`Sentry Server: ${SERVERS.main.url}`);
    expect(info.stdout).toMatch(/Method: Auth Token\s+Scopes:\s+- org:ci\s*$/);
    expect(info.stdout).not.toContain("failure on authentication");
    const version = unique("api@1.0.0");
    const created = await sentryCli(token, ["releases", "new", version, "--project", project.slug]);
    expect(created.code, created.stderr).toBe(0);
    const listed = await sentryCli(token, ["releases", "list"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(version);

    // The API within org:ci; everything else 403, another organization 404.
    const client = api(request, token);
    expect((await expectJson(await client.get(`/organizations/${project.org}/`), 200, "organization")).slug).toBe(project.org);
    expect((await expectJson<{ slug: string }[]>(await client.get(`/organizations/${project.org}/projects/`), 200, "projects")).map((p) => p.slug)).toContain(
      project.slug,
    );
    expect((await expectJson<{ slug: string }[]>(await client.get("/organizations/"), 200, "organizations")).map((o) => o.slug)).toEqual([project.org]);
    await expectJson(
      await client.put(`/organizations/${project.org}/releases/${encodeURIComponent(version)}/`, { dateReleased: new Date().toISOString() }),
      200,
      "finalize",
    );
    await expectJson(await client.get(`/projects/${project.org}/${project.slug}/issues/`), 403, "issues");
    await expectJson(await client.get(`/projects/${project.org}/${project.slug}/events/`), 403, "events");
    await expectJson(await client.get(`/projects/${project.org}/${project.slug}/keys/`), 403, "keys");
    await expectJson(await client.post("/organizations/", { name: unique("Mine") }), 403, "new organization");
    await expectJson(await client.delete(`/organizations/${project.org}/releases/${encodeURIComponent(version)}/`), 403, "delete release");
    await expectJson(await client.get(`/organizations/${other.org}/`), 404, "another organization");

    await page.reload();
    await expect(row).not.toContainText("Never");
    await screenshot(page, "org-tokens");
    await noHorizontalScroll(page);

    await row.getByRole("button", { name: `Revoke the token ${name}` }).click();
    await expect(page.getByTestId("org-token-table").getByRole("row").filter({ hasText: name })).toHaveCount(0);
    await expectJson(await client.get(`/organizations/${project.org}/`), 401, "revoked");
    const refused = await sentryCli(token, ["releases", "list"]);
    expect(refused.code).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).not.toContain(token);
  });

  test("German labels", async ({ page }) => {
    await page.goto(`/de/orgs/${project.org}/settings/tokens`);
    await expect(page.getByRole("heading", { level: 1, name: "Auth-Tokens" })).toBeVisible();
    await expect(page.getByTestId("create-org-token-form").getByRole("button", { name: "Token erstellen" })).toBeVisible();
  });
});
