// Settings screens in Chromium against the production build: the project's outcome charts (drawn from an event sent
// to the real intake), a DSN key's rate limit edited in the form and read back from the API, an invitation to an
// address made by the owner and accepted in a second browser (a new account for that address), the theme switch kept
// across a reload with no flash, and no horizontal scroll at 768 px.
import { expect, test } from "@playwright/test";
import { api, freshClientAddress, OWNER_STATE, screenshot } from "./helpers";
import { createProject, expectJson, mainApi, sleep, type TestProject, unique } from "./ingest-helpers";
import { noHorizontalScroll, paintedPixels } from "./screen-helpers";
import { SERVERS } from "./servers";

let project: TestProject;

test.describe("settings screens", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    project = await createProject(mainApi(request), { platform: "node" });
    const id = crypto.randomUUID().replace(/-/g, "");
    const url = `${SERVERS.main.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`;
    expect((await fetch(url, { method: "POST", body: `{"event_id":"${id}"}\n{"type":"event"}\n{"message":"stats","platform":"node"}\n` })).status).toBe(200);
    for (let i = 0; i < 80; i++) {
      const points = await expectJson<[number, number][]>(
        await api(request).get(`/projects/${project.org}/${project.slug}/stats/?stat=received`),
        200,
        "stats",
      );
      if (points.reduce((n, [, c]) => n + c, 0) === 1) return;
      await sleep(250);
    }
    throw new Error("the event was not counted in time");
  });

  test("stats: the outcome charts draw (light and dark) and the tables stay", async ({ page }) => {
    await page.goto(`/en/orgs/${project.org}/projects/${project.slug}/settings/stats`);
    for (const id of ["stats-chart-24h", "stats-chart-30d"]) {
      const chart = page.getByTestId(id);
      expect(await paintedPixels(chart, "--ok"), `${id}: the accepted bar is drawn`).toBeGreaterThan(20);
      await expect(chart).toContainText("Accepted: 1");
      await expect(chart).toContainText("Rate-limited: 0");
    }
    await expect(page.getByTestId("stats-24h").getByRole("table")).toContainText("Accepted");
    await page.screenshot({ path: "test-results/screens/project-stats.png", fullPage: true });
    await noHorizontalScroll(page);
  });

  test("keys: the rate limit is edited in the form, shown, and read back; an empty count removes it", async ({ page, request }) => {
    await page.goto(`/en/orgs/${project.org}/projects/${project.slug}/settings/keys`);
    await expect(page.getByTestId(`rate-limit-${project.publicKey}`)).toContainText("No rate limit");
    const form = page.getByTestId(`rate-limit-form-${project.publicKey}`);
    await form.getByLabel("Events").fill("120");
    await form.getByLabel("per").selectOption({ label: "hour" });
    await form.getByRole("button", { name: "Set limit" }).click();
    await expect(page.getByTestId(`rate-limit-${project.publicKey}`)).toHaveText("Rate limit: 120 events per hour.");
    const keys = await expectJson<{ public: string; rateLimit: unknown }[]>(
      await api(request).get(`/projects/${project.org}/${project.slug}/keys/`),
      200,
      "keys",
    );
    expect(keys.find((k) => k.public === project.publicKey)?.rateLimit).toEqual({ window: 3600, count: 120 });
    await form.getByLabel("Events").fill("-5");
    await form.getByRole("button", { name: "Set limit" }).click();
    await expect(form.getByRole("alert")).toBeVisible();
    await form.getByLabel("Events").fill("");
    await form.getByRole("button", { name: "Set limit" }).click();
    await expect(page.getByTestId(`rate-limit-${project.publicKey}`)).toContainText("No rate limit");
    await expect(page.getByTestId("sdk-setup-link")).toHaveAttribute("href", `/en/orgs/${project.org}/projects/${project.slug}`);
    await noHorizontalScroll(page);
  });

  test("source maps: fetching from public URLs is off by default, turned on in the form, read back from the API", async ({ page, request }) => {
    const read = async () =>
      (await expectJson<{ scrapeJavaScript: boolean }>(await api(request).get(`/projects/${project.org}/${project.slug}/`), 200, "project")).scrapeJavaScript;
    expect(await read()).toBe(false);
    await page.goto(`/en/orgs/${project.org}/projects/${project.slug}/settings`);
    const form = page.getByTestId("project-source-fetching-form");
    const box = form.getByLabel("Fetch missing sources and source maps from public URLs");
    await expect(box).not.toBeChecked();
    await box.check();
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status")).toContainText("Saved.");
    expect(await read()).toBe(true);
    await page.reload();
    await expect(page.getByTestId("scrape-javascript")).toBeChecked();
    await screenshot(page, "project-settings-source-maps");
    await page.getByTestId("scrape-javascript").uncheck();
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status")).toContainText("Saved.");
    expect(await read()).toBe(false);
  });

  test("members: an invitation to an address is accepted in a second browser, once, by a new account for that address", async ({ page, browser }) => {
    await page.goto(`/en/orgs/${project.org}/settings/members`);
    const email = `${unique("invited")}@example.com`;
    const form = page.getByTestId("create-invite-form");
    await form.getByLabel("E-mail").fill(email);
    await form.getByLabel("Role").selectOption("member");
    await form.getByRole("button", { name: "Invite" }).click();
    const link = (await page.getByTestId("result-link").innerText()).trim();
    expect(link).toMatch(new RegExp(`^${SERVERS.main.url}/en/invite/[A-Za-z0-9_-]{43}$`));
    await page.reload();
    await expect(page.getByTestId("invitation-table")).toContainText(email);
    await expect(page.getByTestId("invitation-table")).toContainText("Member");

    const guest = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": freshClientAddress() } });
    const other = await guest.newPage();
    await other.goto(link);
    await expect(other.getByRole("heading", { level: 1 })).toContainText("Join");
    const join = other.getByTestId("invite-join-form");
    await join.getByLabel("Password").fill("short");
    await join.getByRole("button", { name: "Join" }).click();
    await expect(join.locator('[data-field-error="password"]')).toHaveText("At least 8 characters");
    await join.getByLabel("Name (for a new account)").fill("Invited Person");
    await join.getByLabel("Password").fill("invited-password");
    await join.getByRole("button", { name: "Join" }).click();
    await expect(other).toHaveURL(new RegExp(`/en/orgs/${project.org}$`));
    await other.goto(link);
    await expect(other.getByTestId("invite-closed")).toBeVisible();
    await guest.close();

    await page.reload();
    await expect(page.getByTestId("member-table")).toContainText(email);
    await expect(page.getByTestId("invitation-table")).toHaveCount(0);
    await page.screenshot({ path: "test-results/screens/org-members.png", fullPage: true });
    await noHorizontalScroll(page);
  });

  test("theme: dark is kept across a reload and painted first; system follows the browser", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto(`/en/orgs/${project.org}/projects/${project.slug}/settings/stats`);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe("rgb(247, 247, 249)");
    await page.getByRole("group", { name: "Colour theme" }).getByRole("button", { name: "Dark" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(page.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
    // The first response already says dark: no script, no flash.
    const html = await (await page.request.get(page.url())).text();
    expect(html).toMatch(/<html[^>]*data-theme="dark"/);
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    expect(await background()).toBe("rgb(21, 19, 28)");
    expect(await paintedPixels(page.getByTestId("stats-chart-24h"), "--ok"), "the chart draws in the dark palette").toBeGreaterThan(20);
    await page.screenshot({ path: "test-results/screens/theme-dark.png", fullPage: true });
    await page.getByRole("button", { name: "System" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
    expect(await background()).toBe("rgb(247, 247, 249)");
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await background()).toBe("rgb(21, 19, 28)");
  });
});
