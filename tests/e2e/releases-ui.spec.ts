// The releases screens in Chromium against the production build: sessions and events sent to the real intake as an
// SDK sends them (envelopes), then the list and the detail show the crash-free rates and events they make, the
// environment filter changes those numbers, the detail's chart draws and its new issues link to the issue pages.
import { expect, test, type Page } from "@playwright/test";
import { api, OWNER_STATE } from "./helpers";
import { createProject, expectJson, mainApi, sleep, type TestProject, unique } from "./ingest-helpers";
import { noHorizontalScroll, paintedPixels } from "./screen-helpers";
import { SERVERS } from "./servers";

let project: TestProject;
let version: string;
const titles = { prod: unique("checkout failed"), staging: unique("cart failed") };

async function envelope(type: string, payload: Record<string, unknown>, eventId?: string) {
  const endpoint = `${SERVERS.main.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`;
  const header = eventId ? `{"event_id":"${eventId}"}` : "{}";
  const r = await fetch(endpoint, { method: "POST", body: `${header}\n{"type":"${type}"}\n${JSON.stringify(payload)}\n` });
  expect(r.status).toBe(200);
}

/** Visible figures of the one release row of the list. */
async function rowFigures(page: Page) {
  const row = page.getByTestId("release-row").filter({ hasText: version });
  await expect(row).toHaveCount(1);
  // German puts a no-break space before "%".
  const text = async (id: string) => (await row.getByTestId(id).innerText()).replace(/\s/g, " ");
  return { events: await text("release-events"), sessions: await text("release-crash-free-sessions"), users: await text("release-crash-free-users") };
}

test.describe("releases screens", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    project = await createProject(mainApi(request), { platform: "node" });
    version = unique("shop@2.1.0+b");
    const started = new Date(Date.now() - 120_000).toISOString();
    // production: 4 sessions of 4 users, one crashed; staging: 2 sessions of 2 users, both crashed.
    const sessions = [
      ["production", "p1", "crashed"],
      ["production", "p2", "exited"],
      ["production", "p3", "exited"],
      ["production", "p4", "exited"],
      ["staging", "s1", "crashed"],
      ["staging", "s2", "crashed"],
    ];
    for (const [environment, did, status] of sessions) {
      await envelope("session", {
        sid: crypto.randomUUID(),
        did,
        init: true,
        started,
        status,
        errors: status === "crashed" ? 1 : 0,
        attrs: { release: version, environment },
      });
    }
    for (const [environment, message] of [
      ["production", titles.prod],
      ["staging", titles.staging],
    ] as const) {
      const id = crypto.randomUUID().replace(/-/g, "");
      await envelope("event", { event_id: id, platform: "node", level: "error", message, release: version, environment }, id);
    }
    const path = `/organizations/${project.org}/releases/${encodeURIComponent(version)}/?health=1`;
    for (let i = 0; i < 80; i++) {
      const r = await api(request).get(path);
      if (r.ok()) {
        const body = await r.json();
        if (body.projects[0]?.healthData?.totalSessions === 6 && body.newGroups === 2) return;
      }
      await sleep(250);
    }
    throw new Error("the digest did not count the release's sessions and issues in time");
  });

  test("the list shows crash-free rates and events; the environment filter changes them", async ({ page }) => {
    await page.goto(`/en/orgs/${project.org}/releases`);
    await expect(page.getByRole("heading", { level: 1, name: "Releases" })).toBeVisible();
    expect(await rowFigures(page)).toEqual({ events: "2", sessions: "50%", users: "50%" });

    const filter = page.getByTestId("environment-filter");
    await filter.getByLabel("Environment").selectOption("production");
    await filter.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/environment=production/);
    expect(await rowFigures(page)).toEqual({ events: "1", sessions: "75%", users: "75%" });

    await page.getByTestId("project-filter").getByLabel("Project").selectOption(project.slug);
    await page.getByTestId("project-filter").getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(new RegExp(`project=${project.slug}.*environment=production|environment=production.*project=${project.slug}`));
    expect(await rowFigures(page)).toEqual({ events: "1", sessions: "75%", users: "75%" });
    await page.screenshot({ path: "test-results/screens/releases.png", fullPage: true });
    await noHorizontalScroll(page);

    await page.goto(`/de/orgs/${project.org}/releases?environment=staging`);
    expect(await rowFigures(page)).toEqual({ events: "1", sessions: "0 %", users: "0 %" });
  });

  test("the detail: figures per environment, a drawn sessions chart, new issues linking to their pages", async ({ page }) => {
    await page.goto(`/en/orgs/${project.org}/releases`);
    await page.getByRole("link", { name: version }).click();
    await expect(page.getByRole("heading", { level: 1, name: version })).toBeVisible();
    await expect(page.getByTestId("detail-crash-free-sessions")).toHaveText("50%");
    await expect(page.getByTestId("detail-events")).toHaveText("2");
    const chart = page.getByTestId("release-sessions-chart");
    expect(await paintedPixels(chart, "--accent"), "the sessions' bar is drawn").toBeGreaterThan(20);
    expect(await paintedPixels(chart, "--danger"), "the crashed sessions' bar is drawn").toBeGreaterThan(20);
    await expect(chart).toContainText("6 sessions in 30 days, 3 crashed.");
    const issues = page.getByTestId("release-new-issues");
    await expect(issues.getByRole("link")).toHaveCount(2);
    const href = await issues.getByRole("link", { name: titles.prod }).getAttribute("href");
    expect(href).toMatch(new RegExp(`^/en/orgs/${project.org}/issues/\\d+$`));

    await page.getByTestId("environment-filter").getByLabel("Environment").selectOption("staging");
    await page.getByTestId("environment-filter").getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("detail-crash-free-sessions")).toHaveText("0%");
    await expect(page.getByTestId("detail-crash-free-users")).toHaveText("0%");
    await expect(page.getByTestId("detail-events")).toHaveText("1");
    await expect(page.getByTestId("release-sessions-chart")).toContainText("2 sessions in 30 days, 2 crashed.");
    expect(await paintedPixels(page.getByTestId("release-sessions-chart"), "--danger"), "every session crashed: the crashed bar covers it").toBeGreaterThan(20);
    await page.screenshot({ path: "test-results/screens/release-detail.png", fullPage: true });
    await noHorizontalScroll(page);
  });

  test("unknown releases, projects and cursors are 404 pages, not errors", async ({ page }) => {
    for (const path of [`releases/${encodeURIComponent("no-such@1")}`, "releases?project=no-such-project", "releases?cursor=%25%25"]) {
      const r = await page.goto(`/en/orgs/${project.org}/${path}`);
      expect(r?.status(), path).toBe(404);
    }
    const r = await expectJson(
      await api(page.request).get(`/organizations/${project.org}/releases/?query=${encodeURIComponent(version)}`),
      200,
      "release list",
    );
    expect(r).toHaveLength(1);
  });
});
