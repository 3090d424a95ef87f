// Performance monitoring in Chromium against the production build, with the real SDKs: @sentry/node 11.5.0 sends a
// traced request both ways it can (span v2 items, its default, and a transaction event with traceLifecycle
// "static"), each with an error captured inside; @sentry/browser 11.5.0 in Chromium sends a page load with its web
// vitals as span v2 items. Then the transaction table, its chart and newest traces, the trace view with its error,
// the error's event page linking back to the trace, and the web vitals page, in English and German.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import { expect, test, type Page } from "@playwright/test";
import { OWNER_STATE, screenshot } from "./helpers";
import { createProject, mainApi, run, sleep, type TestProject, unique, waitForEvent } from "./ingest-helpers";
import { noHorizontalScroll, paintedPixels } from "./screen-helpers";

let project: TestProject;
let browserProject: TestProject;
const routes = { stream: `/${unique("stream")}`, static: `/${unique("static")}` };
const sent: Record<"stream" | "static", { traceId: string; eventId: string }> = { stream: { traceId: "", eventId: "" }, static: { traceId: "", eventId: "" } };

/** Reloads `path` until `ready` holds on the page (the digest works behind the intake). */
async function openWhen(page: Page, path: string, ready: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 60; i++) {
    await page.goto(path);
    if (await ready()) return;
    await sleep(500);
  }
  throw new Error(`${what} did not show in time`);
}

test.describe("performance", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    const api = mainApi(request);
    project = await createProject(api, { platform: "node" });
    browserProject = await createProject(api, { platform: "javascript", org: project.org, team: project.team });
    for (const lifecycle of ["stream", "static"] as const) {
      const r = await run(process.execPath, ["tests/e2e/sdk/node-trace.mjs", project.dsn, routes[lifecycle], lifecycle]);
      expect(r.code, r.stderr).toBe(0);
      sent[lifecycle] = JSON.parse(r.stdout) as { traceId: string; eventId: string };
      expect(sent[lifecycle].traceId).toMatch(/^[0-9a-f]{32}$/);
      await waitForEvent(api, project, sent[lifecycle].eventId);
    }
  });

  test("runtime-spec: @sentry/node 11.5.0 span v2 items and transaction events are one transaction table; a trace links its error both ways", async ({
    page,
  }) => {
    const base = `/en/orgs/${project.org}/projects/${project.slug}/performance`;
    const table = page.getByTestId("transactions-table");
    await openWhen(page, base, async () => (await table.getByTestId("transaction-row").count()) === 2, "both transactions");
    for (const lifecycle of ["stream", "static"] as const) {
      const row = table.getByTestId("transaction-row").filter({ hasText: `GET ${routes[lifecycle]}` });
      await expect(row).toHaveCount(1);
      // One request each, failed (internal_error): failure rate 100%.
      await expect(row).toContainText("(1)");
      await expect(row).toContainText("100%");
    }
    await expect(page.getByTestId("transactions-total")).toContainText("100%");
    // Both requests failed: the failures' bar covers the transactions' bar of the same height.
    expect(await paintedPixels(page.getByTestId("throughput-chart"), "--danger"), "the failures' bar is drawn").toBeGreaterThan(10);
    await expect(page.getByTestId("throughput-chart")).toContainText("2 transactions in this period");
    await screenshot(page, "performance-transactions");
    await noHorizontalScroll(page);

    // One transaction: its chart and newest trace, then the trace view.
    await table.getByRole("link", { name: `GET ${routes.stream}` }).click();
    await expect(page.getByRole("heading", { level: 2, name: new RegExp(`GET ${routes.stream}`) })).toBeVisible();
    await expect(page.getByTestId("throughput-chart")).toContainText("1 transaction in this period");
    await page.getByTestId("recent-traces").getByRole("link").first().click();
    await expect(page).toHaveURL(new RegExp(`/en/orgs/${project.org}/traces/${sent.stream.traceId}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Trace: GET ${routes.stream}`);
    const rows = page.getByTestId("waterfall-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText("http.server");
    await expect(rows.nth(0)).toContainText("internal_error");
    await expect(rows.nth(1)).toContainText("SELECT * FROM orders");
    // The child is indented under its parent.
    const indent = (i: number) =>
      rows
        .nth(i)
        .locator("td")
        .first()
        .evaluate((td) => parseFloat(getComputedStyle(td).paddingLeft));
    expect(await indent(1)).toBeGreaterThan(await indent(0));
    await screenshot(page, "performance-trace");

    // The trace's error, and back from its event page.
    const errors = page.getByTestId("trace-errors");
    await expect(errors.getByRole("link")).toHaveText(`Error: checkout failed on ${routes.stream}`);
    await errors.getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/issues/\\d+/events/${sent.stream.eventId}$`));
    await page.getByTestId("event-trace-link").click();
    await expect(page).toHaveURL(new RegExp(`/traces/${sent.stream.traceId}$`));

    // The transaction event's trace: the same waterfall from the other model.
    await page.goto(`/en/orgs/${project.org}/traces/${sent.static.traceId}`);
    await expect(page.getByTestId("waterfall-row")).toHaveCount(2);
    await expect(page.getByTestId("trace-errors").getByRole("link")).toHaveText(`Error: checkout failed on ${routes.static}`);

    // German, another period; unknown traces, periods and projects are 404 pages.
    await page.goto(`/de/orgs/${project.org}/projects/${project.slug}/performance?period=7d`);
    await expect(page.getByRole("heading", { level: 1, name: "Performance" })).toBeVisible();
    await expect(page.getByTestId("period-7d")).toHaveAttribute("aria-current", "true");
    await expect(page.getByTestId("transactions-table").getByRole("columnheader", { name: "Fehlerquote" })).toBeVisible();
    for (const path of [
      `traces/${"0".repeat(32)}`,
      "traces/not-a-trace",
      `projects/${project.slug}/performance?period=1y`,
      "projects/no-such-project/performance",
    ]) {
      expect((await page.goto(`/en/orgs/${project.org}/${path}`))?.status(), path).toBe(404);
    }
  });

  test("runtime-spec: @sentry/browser 11.5.0 in Chromium sends a page load with web vitals (span v2): p75, split and score per page", async ({
    page,
    browser,
  }) => {
    const bundle = await build({
      stdin: { contents: 'import * as Sentry from "@sentry/browser"; window.Sentry = Sentry;', resolveDir: process.cwd(), loader: "js" },
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "es2020",
      logLevel: "silent",
    });
    const script = bundle.outputFiles[0]?.text ?? "";
    const html = `<!doctype html><meta charset="utf-8"><title>Shop</title><h1>Cart</h1><p>Three items.</p><script src="/sentry.js"></script><script>
      Sentry.init({ dsn: ${JSON.stringify(browserProject.dsn)}, release: "e2e@1.0.0", environment: "e2e", tracesSampleRate: 1,
        integrations: [Sentry.browserTracingIntegration({ idleTimeout: 300, finalTimeout: 5000 })] });
      setTimeout(async () => { window.__flushed = await Sentry.flush(5000); }, 2500);</script>`;
    const server = http.createServer((req, res) => {
      if (req.url === "/sentry.js") res.writeHead(200, { "content-type": "text/javascript" }).end(script);
      else res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    });
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
    const shop = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const spanItems: string[] = [];
    try {
      const p = await shop.newPage();
      p.on("request", (r) => {
        if (r.url().includes(`/api/${browserProject.id}/envelope/`) && (r.postData() ?? "").includes('"type":"span"')) spanItems.push(r.postData() ?? "");
      });
      await p.goto(`http://localhost:${(server.address() as AddressInfo).port}/shop/cart`);
      await p.waitForFunction(() => (window as unknown as { __flushed?: boolean }).__flushed === true, null, { timeout: 15_000 });
    } finally {
      await shop.close();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(spanItems.join("\n"), "the SDK streams spans (span v2) with the page load's vitals as attributes").toContain(
      "application/vnd.sentry.items.span.v2+json",
    );
    expect(spanItems.join("\n")).toContain("browser.web_vital.fcp.value");

    const vitals = page.getByTestId("vitals-table");
    await openWhen(
      page,
      `/en/orgs/${project.org}/projects/${browserProject.slug}/performance/web-vitals`,
      async () => (await vitals.getByTestId("vitals-row").count()) > 0,
      "the page's vitals",
    );
    const row = vitals.getByTestId("vitals-row").filter({ hasText: "/shop/cart" });
    await expect(row).toHaveCount(1);
    // FCP and TTFB come on the page load span; a local page paints and answers fast: good, and a high score.
    await expect(row.getByTestId("vital-fcp")).toContainText(/\d+(\.\d)? ms/);
    await expect(row.getByTestId("vital-fcp")).toContainText("good 100%");
    await expect(row.getByTestId("vital-ttfb")).toContainText("good 100%");
    const score = Number(await row.getByTestId("performance-score").innerText());
    expect(score).toBeGreaterThan(80);
    await expect(page.getByTestId("vitals-total").getByTestId("performance-score")).toHaveText(String(score));
    await screenshot(page, "performance-web-vitals");
    await noHorizontalScroll(page);

    // The page load is a transaction too.
    await page.getByTestId("view-transactions").click();
    await expect(page.getByTestId("transactions-table").getByTestId("transaction-row").filter({ hasText: "/shop/cart" })).toHaveCount(1);
    await page.goto(`/de/orgs/${project.org}/projects/${browserProject.slug}/performance/web-vitals`);
    await expect(page.getByRole("heading", { level: 1, name: "Web Vitals" })).toBeVisible();
    await expect(page.getByTestId("vitals-row").filter({ hasText: "/shop/cart" }).getByTestId("vital-fcp")).toContainText("gut 100");
  });
});
