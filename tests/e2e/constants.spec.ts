// runtime-spec §9: the runtime's constants, observed in the browser: a prefetch queue of 5 concurrent tasks,
// prefetch cache lifetimes of 30 s (fresh) and 300 s (stale or reusable), and the 3800 ms route-load timeout.
import { expect, type Request, test } from "@playwright/test";
import { api, OWNER_STATE } from "./helpers";

const PROJECTS = Array.from({ length: 12 }, (_, i) => `p${String(i + 1).padStart(2, "0")}`);
const isPrefetch = (r: Request) => r.headers()["rsc"] === "1" && r.headers()["next-router-prefetch"] === "1";
const isNavigation = (r: Request) => r.headers()["rsc"] === "1" && r.headers()["next-router-prefetch"] === undefined;

test.describe("runtime-spec §9: constants", () => {
  test.use({ storageState: OWNER_STATE, viewport: { width: 1280, height: 1600 } });

  test.beforeAll(async ({ request }) => {
    const a = api(request);
    await a.post("/organizations/", { name: "Fleet" });
    await a.post("/organizations/fleet/teams/", { slug: "ops" });
    // Idempotent (409 on a rerun): Playwright runs beforeAll again in a new worker after a failure.
    for (const name of PROJECTS) await a.post("/teams/fleet/ops/projects/", { name, platform: "node" });
  });

  test("§9 prefetch queue: at most 5 prefetches in flight", async ({ page }) => {
    let inFlight = 0;
    let maxInFlight = 0;
    let total = 0;
    await page.route(/\/en\/orgs\/fleet\/projects\/p\d+\?_rsc=/, async (route) => {
      if (!isPrefetch(route.request())) return route.continue();
      total++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 1000));
      await route.continue().catch(() => undefined);
      inFlight--;
    });
    await page.goto("./en/orgs/fleet");
    await expect(page.getByTestId("project-list").getByRole("link")).toHaveCount(12);
    await expect.poll(() => total, { timeout: 15_000 }).toBe(12);
    await expect.poll(() => inFlight, { timeout: 15_000 }).toBe(0);
    expect(maxInFlight).toBe(5);
  });

  test("§9 prefetch cache lifetimes: reused within 30 s, refetched after 30 s, the prefetch kept (stale) past 60 s", async ({ page }) => {
    await page.clock.install();
    const prefetches: string[] = [];
    const navigations: string[] = [];
    page.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path !== "/en/orgs/fleet/projects/p01") return;
      if (isPrefetch(r)) prefetches.push(path);
      else if (isNavigation(r)) navigations.push(path);
    });
    const openP01 = async () => {
      await page.getByTestId("project-list").getByRole("link", { name: /^p01/ }).click();
      await expect(page.getByRole("heading", { level: 1, name: "p01" })).toBeVisible();
    };
    // From a project, the breadcrumb leads back; from the organization's settings, the Projects tab.
    const backToFleet = async (via: "crumb" | "tab" = "crumb") => {
      await page.getByRole("link", { name: via === "crumb" ? "Fleet" : "Projects", exact: true }).click();
      await expect(page.getByTestId("project-list")).toBeVisible();
    };

    await page.goto("./en/orgs/fleet");
    await expect.poll(() => prefetches.length).toBe(1);
    await openP01();
    expect(navigations).toHaveLength(1);

    // Within 30 s of its last use the page is served from the router cache: no request.
    await backToFleet();
    await page.clock.fastForward(10_000);
    await openP01();
    expect(navigations).toHaveLength(1);

    // More than 30 s after the last use, the dynamic data is fetched again.
    await backToFleet();
    await page.clock.fastForward(35_000);
    await openP01();
    expect(navigations).toHaveLength(2);

    // Without a click on p01, any request for it is a prefetch (the refetch at +45 s may have made the entry a full
    // one, whose requests carry no Next-Router-Prefetch header). The entry stays cached, stale but not expired,
    // until 300 s after it was made...
    const requestsForP01 = () => prefetches.length + navigations.length;
    await backToFleet();
    const before = requestsForP01();
    await page.clock.fastForward(60_000);
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    // The organization's page has the same tabs: clicked before the settings are shown, "Projects" would be the tab
    // of the page being left, a click on the page already shown, and the settings would then replace it.
    await expect(page.getByRole("heading", { level: 1, name: "Organization settings" })).toBeVisible();
    await backToFleet("tab");
    await page.waitForTimeout(500);
    expect(requestsForP01()).toBe(before);
  });

  test("§9 route-load timeout: a page chunk slower than 3800 ms turns the navigation into a full page load", async ({ page }) => {
    const delay = { ms: 2500 };
    await page.route(/\/_next\/static\/chunks\/pages\/%5Blocale%5D\/docs\/api-[^/]+\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, delay.ms));
      await route.continue().catch(() => undefined);
    });
    const documents: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "document") documents.push(new URL(r.url()).pathname);
    });
    const push = () =>
      page.evaluate(() => {
        void (window as unknown as { next: { router: { push: (u: string) => Promise<boolean> } } }).next.router.push("/en/docs/api");
      });

    // 2.5 s is within the limit: a client-side navigation.
    await page.goto("./en/docs/python");
    documents.length = 0;
    await push();
    await expect(page.getByTestId("api-reference")).toBeVisible({ timeout: 10_000 });
    expect(documents).toEqual([]);

    // 5 s is beyond it: after 3.8 s the router gives up and loads the page as a document.
    await page.context().clearCookies();
    const fresh = await page.context().newPage();
    delay.ms = 5000;
    await fresh.route(/\/_next\/static\/chunks\/pages\/%5Blocale%5D\/docs\/api-[^/]+\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, delay.ms));
      await route.continue().catch(() => undefined);
    });
    await fresh.goto("./en/docs/python");
    const started = Date.now();
    const [document] = await Promise.all([
      fresh.waitForRequest((r) => r.resourceType() === "document" && new URL(r.url()).pathname === "/en/docs/api", { timeout: 10_000 }),
      fresh.evaluate(() => {
        void (window as unknown as { next: { router: { push: (u: string) => Promise<boolean> } } }).next.router.push("/en/docs/api");
      }),
    ]);
    const elapsed = Date.now() - started;
    test.info().annotations.push({ type: "hard navigation after", description: `${elapsed} ms` });
    expect(document.url()).toContain("/en/docs/api");
    expect(elapsed).toBeGreaterThanOrEqual(3800);
    expect(elapsed).toBeLessThan(5000);
  });
});

test("§9 the shipped client carries the constants: prefetch queue 5, lifetimes 30 s and 300 s, route-load timeout 3800 ms", async ({ request }) => {
  // The scripts the browser actually loads, read from the running server (not from the source).
  const html = await (await request.get("./en/sign-in")).text();
  const docs = await (await request.get("./en/docs")).text();
  const scripts = [...`${html}${docs}`.matchAll(/src="([^"]+\.js)"/g)].map((m) => m[1]!);
  const code = (await Promise.all([...new Set(scripts)].map(async (src) => (await request.get(src)).text()))).join("\n");
  expect(code).toMatch(/new [\w.]*PromiseQueue\(5\)/);
  expect(code).toMatch(/=1e3\*Number\("30"\),\w+=1e3\*Number\("300"\)/);
  expect(code).toContain('3800,s(Error("Route did not complete loading: "');
});
