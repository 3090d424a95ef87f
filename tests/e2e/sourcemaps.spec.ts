// Issue 7 end to end, once with each real sentry-cli (2.58.6 and 3.x): a small shop page built by esbuild (minified,
// source maps with sourcesContent) with @sentry/browser 11.5.0 reporting to a fresh project under a release;
// `sourcemaps inject`, then `sourcemaps upload` to the running Faultline; the page served from an origin of its own
// on loopback (its maps are not served: only the upload can resolve the frames); a real error thrown in Chromium on a
// click; and the issue page showing the original file, function and source line, with the frames as sent kept in the
// raw view "as sent".
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { expect, test } from "@playwright/test";
import { OWNER_STATE, ownerApiToken, screenshot } from "./helpers";
import { createProject, expectJson, mainApi, unique, waitForEvent } from "./ingest-helpers";
import { injectedDebugId, runSentryCli, SENTRY_CLIS } from "./sentry-cli";
import { SERVERS } from "./servers";

/** The line the error is thrown from, as in src/checkout.ts. */
const THROW_LINE = 'throw new PaymentDeclinedError("card declined for " + cart.total + " EUR");';

const SOURCES: Record<string, string> = {
  "src/checkout.ts": `export class PaymentDeclinedError extends Error {
  name = "PaymentDeclinedError";
}

export function submitOrder(cart: { total: number; card: string }): string {
  if (cart.card === "declined") {
    ${THROW_LINE}
  }
  return "order placed";
}
`,
  "src/main.ts": `import * as Sentry from "@sentry/browser";
import { submitOrder } from "./checkout";

declare const FAULTLINE_DSN: string;
declare const SHOP_RELEASE: string;

Sentry.init({
  dsn: FAULTLINE_DSN,
  release: SHOP_RELEASE,
  beforeSend(event) {
    (window as unknown as { sentEventIds: string[] }).sentEventIds.push(event.event_id ?? "");
    return event;
  },
});

document.getElementById("pay")!.addEventListener("click", () => {
  document.getElementById("status")!.textContent = submitOrder({ total: 42, card: "declined" });
});
`,
};

const INDEX_HTML = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Shop</title>
<button id="pay" type="button">Pay</button><p id="status"></p>
<script>window.sentEventIds = [];</script><script src="/app.js"></script></html>`;

let home: string;
test.beforeAll(() => {
  // An empty HOME for sentry-cli (no .sentryclirc) that also holds the apps' sources and builds.
  home = mkdtempSync(path.join(os.tmpdir(), "faultline-sourcemaps-"));
});
test.afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The shop built by esbuild into dir/dist/app.js and app.js.map, reporting to `dsn` as `release`. */
async function buildShop(dir: string, dsn: string, release: string): Promise<string> {
  for (const [file, text] of Object.entries(SOURCES)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const dist = path.join(dir, "dist");
  await build({
    entryPoints: [path.join(dir, "src/main.ts")],
    outfile: path.join(dist, "app.js"),
    bundle: true,
    minify: true,
    sourcemap: true,
    sourcesContent: true,
    format: "iife",
    platform: "browser",
    target: "es2020",
    logLevel: "silent",
    nodePaths: [path.join(process.cwd(), "node_modules")],
    define: { FAULTLINE_DSN: JSON.stringify(dsn), SHOP_RELEASE: JSON.stringify(release) },
  });
  return dist;
}

/** Serves the page and the built app.js (never its map) on loopback; returns its origin and a stop function. */
async function servePage(dist: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const app = readFileSync(path.join(dist, "app.js"));
  const server = http.createServer((req, res) => {
    if (req.url === "/") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(INDEX_HTML);
    else if (req.url === "/app.js") res.writeHead(200, { "content-type": "text/javascript" }).end(app);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { origin, close };
}

test.describe("source maps end to end", () => {
  test.use({ storageState: OWNER_STATE });

  for (const cli of SENTRY_CLIS) {
    test(`issue 7: sentry-cli ${cli.name} uploads an esbuild bundle; an error thrown in Chromium shows its original file, function and source line on the issue page, and as sent in the raw view`, async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
      const api = mainApi(request);
      const project = await createProject(api, { platform: "javascript" });
      const release = unique(`shop@${cli.name}`);
      const dist = await buildShop(mkdtempSync(path.join(home, "shop-")), project.dsn, release);
      const target = { url: SERVERS.main.url, token: ownerApiToken(), org: project.org, project: project.slug };
      await runSentryCli(cli.bin, ["sourcemaps", "inject", dist], target, home);
      const debugId = injectedDebugId(dist, "app.js");
      await runSentryCli(cli.bin, ["releases", "new", release], target, home);
      expect(await runSentryCli(cli.bin, ["sourcemaps", "upload", "--release", release, "--wait", dist], target, home)).not.toContain("Nothing to upload");

      const shop = await servePage(dist);
      try {
        const thrown: string[] = [];
        page.on("pageerror", (e) => thrown.push(e.message));
        await page.goto(`${shop.origin}/`);
        await page.getByRole("button", { name: "Pay" }).click();
        await page.waitForFunction(() => (window as unknown as { sentEventIds: string[] }).sentEventIds.length > 0, null, { timeout: 15_000 });
        // Uncaught in the page (the SDK reports it and lets it through).
        await expect.poll(() => thrown).toEqual(["card declined for 42 EUR"]);
        const [eventId] = await page.evaluate(() => (window as unknown as { sentEventIds: string[] }).sentEventIds);
        const event = await waitForEvent(api, project, eventId!, 30_000);
        expect(event.title).toBe("PaymentDeclinedError: card declined for 42 EUR");

        // The SDK found the debug id sentry-cli injected and sent it for the served file.
        const detail = await expectJson<{ entries: { type: string; data: { images?: { debug_id: string; code_file: string }[] } }[] }>(
          await api.get(`/projects/${project.org}/${project.slug}/events/${event.eventID}/`),
          200,
          "event detail",
        );
        expect(detail.entries.find((e) => e.type === "debugmeta")?.data.images).toContainEqual(
          expect.objectContaining({ debug_id: debugId, code_file: `${shop.origin}/app.js` }),
        );

        await page.goto(`/en/orgs/${project.org}/issues/${event.groupID}`);
        const exception = page.getByTestId("exception");
        await expect(exception.getByRole("heading", { name: "PaymentDeclinedError" })).toBeVisible();
        // The most recent frame, opened on its source: the original file, function and line, from the uploaded map.
        const top = exception.getByTestId("frame").first();
        await expect(top.locator(".frame-file")).toHaveText("/src/checkout.ts");
        await expect(top.locator(".frame-fn")).toHaveText("submitOrder");
        await expect(top.locator("summary")).toContainText("line 7:");
        await expect(top.locator('.context-line[aria-current="true"] code')).toHaveText(THROW_LINE);
        await expect(exception.getByTestId("frame").filter({ hasText: "/src/main.ts" })).toHaveCount(1);
        await expect(exception.getByTestId("raw-stacktrace")).toContainText("at submitOrder (/src/checkout.ts:7:");
        await screenshot(page, `sourcemaps-issue-${cli.name}`);

        // The frames as the browser sent them: the minified function at its line and column in the served /app.js.
        await exception.getByText("Raw stack trace, as sent (before source maps)").click();
        const asSent = (await exception.getByTestId("raw-stacktrace-as-sent").textContent()) ?? "";
        const lines = asSent.split("\n");
        expect(lines[0]).toBe("PaymentDeclinedError: card declined for 42 EUR");
        const minified = /^  at (\S+) \(\/app\.js:\d+:\d+\)$/;
        expect(lines[1], asSent).toMatch(minified);
        expect(minified.exec(lines[1]!)![1]).not.toBe("submitOrder");
        expect(asSent).not.toContain("/src/checkout.ts");
      } finally {
        await shop.close();
      }
    });
  }
});
