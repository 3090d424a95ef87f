// Shared steps of the browser tests.
import { execFileSync } from "node:child_process";
import { type APIRequestContext, expect, type Locator, type Page } from "@playwright/test";
import { OWNER, SERVERS } from "./servers";

export const OWNER_STATE = "test-results/owner-state.json";

export async function signIn(page: Page, email: string, password: string, locale = "en", address = freshClientAddress()) {
  await page.goto(`./${locale}/sign-in`);
  await submitSignIn(page, email, password, locale, address);
}

let nextAddress = 0;
/**
 * Each lane of Playwright's workers (TEST_PARALLEL_INDEX, two: playwright.config.ts) takes its own half of TEST-NET-3
 * (RFC 5737), so no two lanes sign in from one address; the specs that pick an address pick it from the other networks.
 */
const laneFirst = (Number(process.env.TEST_PARALLEL_INDEX ?? 0) % 2) * 125 + 1;
/** A client address of its own for each sign-in; the servers trust X-Forwarded-For. */
export const freshClientAddress = () => `203.0.113.${laneFirst + (++nextAddress % 125)}`;

/** Fills and submits the sign-in form the page shows, from `address` (a fresh one by default). */
export async function submitSignIn(page: Page, email: string, password: string, locale = "en", address = freshClientAddress()) {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": address });
  await page.getByLabel(locale === "de" ? "E-Mail" : "E-mail").fill(email);
  await page.getByLabel(locale === "de" ? "Passwort" : "Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: locale === "de" ? "Anmelden" : "Sign in", exact: true }).click();
}

/** Runs the real `faultline` CLI against a test server's data directory. */
export function cli(server: keyof typeof SERVERS, ...args: string[]): string {
  const s = SERVERS[server];
  return execFileSync(process.execPath, ["bin/faultline.mjs", ...args], {
    env: { ...process.env, FAULTLINE_DATA_DIR: s.dataDir, FAULTLINE_URL: s.origin, DATABASE_URL: "" },
    encoding: "utf8",
  }).trim();
}

let ownerToken: string | undefined;
export function ownerApiToken(): string {
  ownerToken ??= cli("main", "createtoken", "--email", OWNER.email, "--name", "e2e");
  return ownerToken;
}

export function api(request: APIRequestContext, token = ownerApiToken()) {
  const headers = { authorization: `Bearer ${token}` };
  const url = (p: string) => `${SERVERS.main.url}/api/0${p}`;
  return {
    get: (p: string) => request.get(url(p), { headers }),
    post: (p: string, data: unknown) => request.post(url(p), { headers, data }),
    put: (p: string, data: unknown) => request.put(url(p), { headers, data }),
    delete: (p: string) => request.delete(url(p), { headers }),
  };
}

/** Where every spec writes its screenshots, for review after a run. */
export const SCREENS_DIR = "test-results/screens";

/** A full-page screenshot of what the page shows now, as test-results/screens/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENS_DIR}/${name}.png`, fullPage: true });
}

/**
 * Watches `page` for hydration mismatches from now on. The returned check waits until React has hydrated `root` (it
 * marks the nodes it owns) and the page's main thread has gone idle, since React hydrates in time slices and reports
 * a mismatch after its commit; then it fails on any mismatch React logged. A production build of React 18 reports
 * text and structure mismatches (errors #418, #423, #425), not attribute ones. For client components fed text the
 * server formatted, whose HTML must be taken as it is.
 */
export function watchHydration(page: Page): (root: Locator) => Promise<void> {
  const errors: string[] = [];
  page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
  page.on("pageerror", (e) => errors.push(e.message));
  return async (root) => {
    await expect.poll(() => root.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactFiber")))).toBe(true);
    for (let i = 0; i < 2; i++) await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => resolve(null), { timeout: 2000 })));
    expect(errors.filter((e) => /hydrat|#418|#423|#425/i.test(e))).toEqual([]);
  };
}

/**
 * Collects the Content-Security-Policy violations `page` reports from now on, across its navigations: each
 * `securitypolicyviolation` event (listened to before any script of the page runs) and each refusal Chromium logs.
 * Returns a function giving what was seen so far, one line each.
 */
export async function watchCsp(page: Page): Promise<() => string[]> {
  const seen: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener(
      "securitypolicyviolation",
      (e) =>
        console.error(
          `[csp-violation] ${e.effectiveDirective} blocked ${e.blockedURI || "inline"} in ${e.documentURI} (${e.sourceFile}:${e.lineNumber}) ${e.sample}`,
        ),
      true,
    );
  });
  page.on("console", (m) => {
    const text = m.text();
    if (text.startsWith("[csp-violation]") || /Content Security Policy/i.test(text)) seen.push(text);
  });
  return () => [...seen];
}
