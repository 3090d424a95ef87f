// A build with FAULTLINE_BASE_PATH=/monitor serves everything under that prefix: pages, assets, page data, API,
// redirects, the health probe, and DSNs (runtime-spec §2: base-path prefix).
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { cli, freshClientAddress, watchCsp } from "./helpers";
import { OWNER, SERVERS } from "./servers";

const s = SERVERS.monitor;

test.describe.serial("runtime-spec §2: base path /monitor", () => {
  test("§2 base path: setup, pages and assets live under /monitor", async ({ page }) => {
    const assets: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/_next/")) assets.push(new URL(r.url()).pathname);
    });
    await page.goto(`${s.url}`);
    await expect(page).toHaveURL(`${s.url}/en/setup`);
    await page.getByLabel("E-mail").fill(OWNER.email);
    await page.getByLabel(/^Password/).fill(OWNER.password);
    await page.getByLabel("Organization name").fill("Acme");
    await page.getByRole("button", { name: "Create owner and sign in" }).click();
    await expect(page).toHaveURL(`${s.url}/en/orgs/acme`);
    expect(assets.length).toBeGreaterThan(0);
    expect(assets.every((p) => p.startsWith("/monitor/_next/"))).toBe(true);
    // Issue 7: under the prefix too, the browser chunks are served and their source maps are not.
    const chunk = assets.find((p) => /^\/monitor\/_next\/static\/chunks\/.+\.js$/.test(p));
    expect(chunk, assets.join("\n")).toBeTruthy();
    expect((await page.request.get(`${s.origin}${chunk}`)).status()).toBe(200);
    expect((await page.request.get(`${s.origin}${chunk}.map`)).status()).toBe(404);

    await page.getByLabel("Project name").fill("Web");
    await page.getByRole("button", { name: "Create project" }).click();
    await expect(page).toHaveURL(`${s.url}/en/orgs/acme/projects/web`);
    await expect(page.getByRole("textbox", { name: "DSN" })).toHaveValue(new RegExp(`^http://[0-9a-f]{32}@localhost:${SERVERS.monitor.port}/monitor/\\d+$`));
  });

  test("§2 base path: nothing is served outside the prefix", async ({ request }) => {
    for (const path of ["/en", "/en/orgs", "/api/0/", "/_health"]) {
      expect((await request.get(`${s.origin}${path}`, { maxRedirects: 0 })).status(), path).toBe(404);
    }
  });

  test("§2 base path: API, redirects and the health probe under /monitor", async ({ request }) => {
    const token = cli("monitor", "createtoken", "--email", OWNER.email);
    const keys = await (await request.get(`${s.url}/api/0/projects/acme/web/keys/`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(keys[0].dsn.public).toMatch(new RegExp(`^http://[0-9a-f]{32}@localhost:${SERVERS.monitor.port}/monitor/\\d+$`));
    const redirect = await request.get(`${s.url}/organizations/acme/`, { maxRedirects: 0 });
    expect(redirect.status()).toBe(308);
    expect(redirect.headers()["location"]).toBe("/monitor/orgs/acme");
    expect(await (await request.get(`${s.url}/_health`)).json()).toEqual({ status: "ok", storage: "ok" });
  });

  test("§2 base path: self-monitoring's tunnel is /monitor/monitoring and takes this install's DSNs, which carry the prefix", async ({ page, request }) => {
    await page.goto(`${s.url}/en/sign-in`);
    const config = JSON.parse((await page.locator('meta[name="faultline-self-monitoring"]').getAttribute("content")) ?? "{}");
    expect(config.tunnel).toBe("/monitor/monitoring");
    expect(config.dsn).toMatch(new RegExp(`^http://[0-9a-f]{32}@localhost:${SERVERS.monitor.port}/monitor/\\d+$`));
    await page.waitForFunction(() => (window as { faultlineSelfMonitoring?: string }).faultlineSelfMonitoring === "on");
    const eventId = crypto.randomUUID().replace(/-/g, "");
    const post = (url: string, dsn: string) =>
      request.post(url, { data: `${JSON.stringify({ event_id: eventId, dsn })}\n{"type":"event"}\n{"message":"base path"}\n` });
    const accepted = await post(`${s.url}/monitoring`, config.dsn);
    expect(accepted.status()).toBe(200);
    expect(await accepted.json()).toEqual({ id: eventId });
    // The same key without the prefix is not a DSN of this install.
    expect((await post(`${s.url}/monitoring`, config.dsn.replace("/monitor/", "/"))).status()).toBe(403);
    expect((await post(`${s.origin}/monitoring`, config.dsn)).status()).toBe(404);
  });

  test("§2 base path: docs and their page data under /monitor", async ({ page }) => {
    const buildId = readFileSync(".next-monitor/BUILD_ID", "utf8").trim();
    const data: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/_next/data/")) data.push(new URL(r.url()).pathname);
    });
    await page.goto(`${s.url}/de/docs/python`);
    await expect(page.getByRole("heading", { level: 1, name: "Python" })).toBeVisible();
    await page.getByRole("navigation", { name: "Anleitungen" }).last().getByRole("link", { name: "Go", exact: true }).click();
    await expect(page).toHaveURL(`${s.url}/de/docs/go`);
    expect(data).toContain(`/monitor/_next/data/${buildId}/de/docs/go.json`);
  });

  test("hostile input #14 under /monitor: pages carry their policies and run with no violation; the tunnel still delivers", async ({ page }) => {
    const violations = await watchCsp(page);
    const tunnelled = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/monitor/monitoring");
    const dashboard = await page.goto(`${s.url}/en/sign-in`);
    expect(dashboard?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+';/);
    expect(dashboard?.headers()["x-frame-options"]).toBe("DENY");
    await page.waitForFunction(() => (window as { faultlineSelfMonitoring?: string }).faultlineSelfMonitoring === "on");
    expect((await tunnelled).status()).toBe(200);
    const docs = await page.goto(`${s.url}/en/docs/python`);
    expect(docs?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+';/);
    await expect(page.getByRole("heading", { level: 1, name: "Python" })).toBeVisible();
    await page.waitForFunction(() => (window as { faultlineSelfMonitoring?: string }).faultlineSelfMonitoring === "on");
    expect(violations()).toEqual([]);
  });

  test("issue 17 mail: without outgoing mail, forgot-password says so and the instance settings say it is not set up", async ({ page }) => {
    await page.goto(`${s.url}/en/sign-in`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(`${s.url}/en/forgot-password`);
    await expect(page.getByTestId("mail-unavailable")).toContainText("Ask an administrator");
    await expect(page.getByTestId("forgot-password-form")).toHaveCount(0);
    await page.setExtraHTTPHeaders({ "x-forwarded-for": freshClientAddress() });
    await page.goto(`${s.url}/en/sign-in`);
    await page.getByLabel("E-mail").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/monitor\/en\/orgs/);
    await page.goto(`${s.url}/en/instance/mail`);
    await expect(page.getByTestId("mail-unconfigured")).toBeVisible();
    await expect(page.getByTestId("test-mail-form")).toHaveCount(0);
  });
});
