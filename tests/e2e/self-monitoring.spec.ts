// Faultline watches itself: its pages report their errors and page loads with @sentry/nextjs through the same-origin
// tunnel into the install's internal project, and its server reports errors with the digest users see. Every check
// reads what the intake stored or counted (the internal project's issues, events and Stats), never the browser's
// requests alone. The test servers send every page load (FAULTLINE_SELF_MONITORING_TRACES_SAMPLE_RATE=1, serve.mjs).
import { expect, type Page, test } from "@playwright/test";
import { OWNER_STATE, screenshot } from "./helpers";
import { expectJson, listAllEvents, mainApi, type StoredEvent } from "./ingest-helpers";
import { SERVERS } from "./servers";

const INTERNAL = { org: "faultline-internal", slug: "faultline" };
const tunnel = `${SERVERS.main.url}/monitoring`;

test.use({ storageState: OWNER_STATE });

/** Waits until the page's SDK (loaded after hydration) has started. */
async function sdkStarted(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as { faultlineSelfMonitoring?: string }).faultlineSelfMonitoring === "on");
}

async function monitored(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await sdkStarted(page);
}

type Issue = { id: string; title: string; count: string };
async function internalIssues(request: Parameters<typeof mainApi>[0]): Promise<Issue[]> {
  return expectJson<Issue[]>(await mainApi(request).get(`/projects/${INTERNAL.org}/${INTERNAL.slug}/issues/?query=&per_page=100`), 200, "internal issues");
}

async function waitForIssue(request: Parameters<typeof mainApi>[0], text: string): Promise<Issue> {
  let found: Issue | undefined;
  await expect(async () => {
    found = (await internalIssues(request)).find((i) => i.title.includes(text));
    expect(found, `an internal issue titled "${text}"`).toBeTruthy();
  }).toPass({ timeout: 20_000 });
  return found!;
}

test.describe("self-monitoring", () => {
  test("the tunnel takes envelopes for this install's DSNs only: 403 for any other DSN, 400 for a malformed envelope", async ({ request }) => {
    const internal = await expectJson<{ public: string; dsn: { public: string } }[]>(
      await mainApi(request).get(`/projects/${INTERNAL.org}/${INTERNAL.slug}/keys/`),
      200,
      "internal keys",
    );
    const dsn = internal[0]!.dsn.public;
    expect(dsn).toMatch(new RegExp(`^http://[0-9a-f]{32}@localhost:${SERVERS.main.port}/\\d+$`));
    const eventId = crypto.randomUUID().replace(/-/g, "");
    const message = `tunnelled ${eventId}`;
    const post = (body: string) => request.post(tunnel, { headers: { "content-type": "text/plain;charset=UTF-8" }, data: body });
    const accepted = await post(`${JSON.stringify({ event_id: eventId, dsn })}\n{"type":"event"}\n${JSON.stringify({ message, level: "error" })}\n`);
    expect(accepted.status()).toBe(200);
    expect(await accepted.json()).toEqual({ id: eventId });
    await waitForIssue(request, message);
    // Sentry's hosted ingest, a look-alike host: refused and never forwarded (the tunnel is not an open proxy).
    for (const other of [`https://${"a".repeat(32)}@o1.ingest.sentry.io/1`, dsn.replace("localhost", "evil.example")]) {
      const refused = await post(`${JSON.stringify({ dsn: other })}\n{"type":"event"}\n{"message":"x"}\n`);
      expect(refused.status(), other).toBe(403);
      expect((await refused.json()).detail).toMatch(/DSN/);
    }
    expect(
      (await post(`${JSON.stringify({ dsn: dsn.replace(/\/\/[0-9a-f]+@/, `//${"0".repeat(32)}@`) })}\n{"type":"event"}\n{"message":"x"}\n`)).status(),
    ).toBe(403);
    for (const bad of ["", "not an envelope", `{"event_id":"${eventId}"}\n{"type":"event"}\n{}\n`, `{"dsn":"not a dsn"}\n`]) {
      const answer = await post(bad);
      expect(answer.status(), JSON.stringify(bad)).toBe(400);
      expect(typeof (await answer.json()).detail).toBe("string");
    }
    expect((await request.put(tunnel, { data: "x" })).status()).toBe(405);
  });

  test("runtime-spec §8: an error on Faultline's own page appears in the internal project's issue stream", async ({ page, request }) => {
    await monitored(page, "./en/diagnostics/client-error");
    await page.getByTestId("throw-client-error").click();
    await expect(page.locator("h2")).toHaveText("Application error: a client-side exception has occurred (see the browser console for more information).");
    await waitForIssue(request, "Faultline diagnostics: deliberate client-side error");
    await page.goto(`./en/orgs/${INTERNAL.org}/issues`);
    await expect(page.getByTestId("issue-row").filter({ hasText: "Faultline diagnostics: deliberate client-side error" })).toBeVisible();
    await screenshot(page, "self-monitoring-issue-stream");
  });

  test("runtime-spec §8: an error on a prerendered docs page (Pages Router) reaches the internal project; the page asks GET /monitoring for the DSN it cannot carry", async ({
    page,
    request,
  }) => {
    const config = await page.request.get(tunnel);
    expect(config.status()).toBe(200);
    const { dsn, tunnel: path } = (await config.json()) as { dsn: string; tunnel: string };
    expect(path).toBe("/monitoring");
    expect(new URL(dsn).pathname).toMatch(/^\/\d+$/);
    const asked = page.waitForRequest((r) => r.method() === "GET" && new URL(r.url()).pathname === "/monitoring");
    await monitored(page, "./en/docs/python");
    await asked;
    const sentinel = `docs page error ${Date.now()}`;
    await page.evaluate(
      (message) =>
        setTimeout(() => {
          throw new Error(message);
        }, 0),
      sentinel,
    );
    const issue = await waitForIssue(request, sentinel);
    const events: StoredEvent[] = await listAllEvents(mainApi(request), INTERNAL);
    const event = events.find((e) => e.groupID === issue.id);
    expect(event, "the docs page's error event").toBeTruthy();
  });

  test("issue 7 / runtime-spec §8: Faultline's own browser error reads in original source on the internal project's issue page, from maps the build never serves", async ({
    page,
    request,
  }) => {
    await monitored(page, "./en/diagnostics/client-error");
    // The chunk that throws is served; its map, moved out of the static folder by the build, is not.
    const chunks = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => e.name)
        .filter((n) => /\/_next\/static\/chunks\/.+\.js$/.test(n)),
    );
    const pageChunk = chunks.find((c) => c.includes("/diagnostics/client-error/page-"));
    expect(pageChunk, chunks.join("\n")).toBeTruthy();
    const served = await request.get(pageChunk!);
    expect(served.status()).toBe(200);
    const body = await served.text();
    expect(body).toMatch(/\/\/# debugId=[0-9a-f-]{36}\s*$/);
    expect(body).not.toContain("sourceMappingURL");
    for (const chunk of chunks) expect((await request.get(`${chunk}.map`)).status(), `${chunk}.map`).toBe(404);

    await page.getByTestId("throw-client-error").click();
    await expect(page.locator("h2")).toContainText("Application error");
    const issue = await waitForIssue(request, "Faultline diagnostics: deliberate client-side error");
    // The browser SDK sent the debug id the build injected into the chunk that threw (@sentry/nextjs names the
    // chunk app:///_next/…).
    const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(body)![1];
    const latest = await expectJson<{ entries: { type: string; data: { images?: { debug_id: string; code_file: string }[] } }[] }>(
      await mainApi(request).get(`/issues/${issue.id}/events/latest/`),
      200,
      "latest event",
    );
    expect(latest.entries.find((e) => e.type === "debugmeta")?.data.images).toContainEqual(
      expect.objectContaining({ debug_id: debugId, code_file: `app://${decodeURIComponent(new URL(pageChunk!).pathname)}` }),
    );

    await page.goto(`./en/orgs/${INTERNAL.org}/issues/${issue.id}`);
    const exception = page.getByTestId("exception");
    await expect(exception.getByRole("heading", { name: "Error" })).toBeVisible();
    // The most recent frame, opened on its source: the original file, the function and its line, from the stored map.
    const file = "./src/app/[locale]/(bare)/diagnostics/client-error/trigger.tsx";
    const top = exception.getByTestId("frame").first();
    await expect(top.locator(".frame-file")).toHaveText(file);
    await expect(top.locator(".frame-fn")).toHaveText("throwDiagnostic");
    await expect(top.locator("summary")).toContainText("line 9:");
    await expect(top.locator('.context-line[aria-current="true"] code')).toHaveText("throw new Error(`Faultline diagnostics: ${what}`);");
    // Its caller, the component that rendered, in the same file at the line that failed the render.
    const caller = exception.getByTestId("frame").nth(1);
    await expect(caller.locator(".frame-file")).toHaveText(file);
    await expect(caller.locator("summary")).toContainText("line 18:");
    await screenshot(page, "self-monitoring-original-source");
    // As sent, the frames name the minified chunk the browser ran.
    await exception.getByText("Raw stack trace, as sent (before source maps)").click();
    const asSent = (await exception.getByTestId("raw-stacktrace-as-sent").textContent()) ?? "";
    expect(asSent).toContain("/_next/static/chunks/app/");
    expect(asSent).not.toContain("trigger.tsx");
  });

  test('runtime-spec §8: the same error thrown twice in a row arrives once; cross-origin "Script error." noise is filtered, a real error arrives', async ({
    page,
    request,
  }) => {
    await monitored(page, "./en/diagnostics/client-error");
    await page.getByTestId("throw-twice").click();
    // Browser noise: what a cross-origin script's error looks like to the page (no error object, "Script error.").
    await page.evaluate(() => window.dispatchEvent(new ErrorEvent("error", { message: "Script error.", filename: "", lineno: 0, colno: 0 })));
    // A real error after both: the SDK sends in order and the digest keeps the intake's order, so once it is stored,
    // anything sent before it is stored too.
    const sentinel = `after the duplicates ${Date.now()}`;
    await page.evaluate(
      (message) =>
        setTimeout(() => {
          throw new Error(message);
        }, 0),
      sentinel,
    );
    const last = await waitForIssue(request, sentinel);
    const repeated = await waitForIssue(request, "the same client-side error twice in a row");
    expect(repeated.count).toBe("1");
    const events: StoredEvent[] = await listAllEvents(mainApi(request), INTERNAL);
    expect(events.filter((e) => e.title.includes("the same client-side error twice in a row"))).toHaveLength(1);
    // By its message, not its issue: errors thrown from the same code (this test's and the docs test's evaluated
    // function, through the SDK's wrapper) group together, as they should.
    expect(events.filter((e) => e.title.includes(sentinel))).toHaveLength(1);
    expect(events.find((e) => e.title.includes(sentinel))?.groupID).toBe(last.id);
    expect(events.filter((e) => /Script error/.test(e.title))).toEqual([]);
  });

  test("runtime-spec §2: the 404 page's page load is discarded, and the SDK's client report of it reaches the intake", async ({ page }) => {
    const res = await page.goto(`./en/no-such-page-${Date.now()}`);
    expect(res?.status()).toBe(404);
    await sdkStarted(page);
    await expect(page.getByTestId("not-found")).toBeVisible();
    // The page-load span ends after a second without activity; then the tab is hidden, which sends the client report.
    await page.waitForTimeout(3_000);
    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await expect(async () => {
      await page.goto(`./en/orgs/${INTERNAL.org}/projects/${INTERNAL.slug}/settings/stats`);
      await expect(page.getByTestId("stats-24h").getByRole("row", { name: /Dropped by the SDK span ignored/ })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    // The other pages' page loads are kept: their spans are accepted.
    await expect(page.getByTestId("stats-24h").getByRole("row", { name: /Accepted span/ })).toBeVisible();
    await screenshot(page, "self-monitoring-stats");
  });

  test("runtime-spec §8: a server error is reported with the digest its fallback page shows, and digest:<n> finds it", async ({ page }) => {
    const res = await page.goto("./en/diagnostics/server-error");
    expect(res?.status()).toBe(500);
    const digest = ((await page.locator("p").textContent()) ?? "").replace(/^Digest: /, "");
    expect(digest).toMatch(/^\d+$/);
    await expect(async () => {
      await page.goto(`./en/orgs/${INTERNAL.org}/issues?query=${encodeURIComponent(`digest:${digest}`)}`);
      await expect(page.getByTestId("issue-row").filter({ hasText: "Faultline diagnostics: deliberate server-side error" })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await screenshot(page, "self-monitoring-digest-search");
    // Inside the dashboard, the route's error boundary shows the digest, which finds the event the same way.
    await page.goto("./en/diagnostics/route-error");
    const routeDigest = (await page.getByTestId("route-error").locator("code").textContent()) ?? "";
    expect(routeDigest).toMatch(/^\d+$/);
    await expect(async () => {
      await page.goto(`./en/orgs/${INTERNAL.org}/issues?query=${encodeURIComponent(`digest:${routeDigest}`)}`);
      await expect(page.getByTestId("issue-row").filter({ hasText: "Faultline diagnostics: deliberate error inside the dashboard" })).toBeVisible({
        timeout: 1000,
      });
    }).toPass({ timeout: 20_000 });
  });
});
