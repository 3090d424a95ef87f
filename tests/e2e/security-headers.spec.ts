// Security headers against the production build (hostile input #14): each kind of answer carries its headers (a
// dashboard page with a Content-Security-Policy whose nonce is new each time and on every script Next writes, a
// prerendered docs page that needs no nonce, an API route, a static asset, an intake answer and a refusal), and in
// Chromium the policy blocks what it should and nothing Faultline needs: scripts injected without the nonce are
// refused, while the self-monitoring tunnel, uPlot's charts and the theme switch work with no violation. Every
// dashboard screen is also checked for violations in a11y.spec.ts, and the base-path build in base-path.spec.ts.
import { type APIResponse, expect, test } from "@playwright/test";
import { OWNER_STATE, screenshot, watchCsp } from "./helpers";
import { createProject, expectJson, mainApi, sleep, type TestProject } from "./ingest-helpers";
import { paintedPixels } from "./screen-helpers";
import { SERVERS } from "./servers";

const s = SERVERS.main;

function expectBase(res: APIResponse, what: string): void {
  const h = res.headers();
  expect(h["x-content-type-options"], what).toBe("nosniff");
  expect(h["x-frame-options"], what).toBe("DENY");
  expect(h["referrer-policy"], what).toBe("same-origin");
  // FAULTLINE_URL is http here: HSTS is only sent for an https public URL (tests/ingest/security-headers.test.ts).
  expect(h["strict-transport-security"], what).toBeUndefined();
}

const NOTHING = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** The directives of a policy, by name. */
const directives = (policy: string | undefined) =>
  new Map(
    (policy ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );

let project: TestProject;

test.describe("security headers", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    project = await createProject(mainApi(request), { platform: "node" });
    const id = crypto.randomUUID().replace(/-/g, "");
    const sent = await request.post(`${s.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`, {
      data: `{"event_id":"${id}"}\n{"type":"event"}\n{"message":"csp","platform":"node"}\n`,
    });
    expect(sent.status()).toBe(200);
    for (let i = 0; i < 80; i++) {
      const points = await expectJson<[number, number][]>(
        await mainApi(request).get(`/projects/${project.org}/${project.slug}/stats/?stat=received`),
        200,
        "stats",
      );
      if (points.reduce((n, [, c]) => n + c, 0) === 1) return;
      await sleep(250);
    }
    throw new Error("the event was not counted in time");
  });

  test("hostile input #14: a dashboard page has a policy with a fresh nonce, on every script Next writes; the prerendered docs run only files", async ({
    request,
  }) => {
    const nonces = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const page = await request.get(`${s.url}/en/orgs/${project.org}`);
      expect(page.status()).toBe(200);
      expectBase(page, "dashboard page");
      const csp = directives(page.headers()["content-security-policy"]);
      const nonce = csp
        .get("script-src")
        ?.find((v) => v.startsWith("'nonce-"))
        ?.slice(7, -1);
      expect(nonce, "a nonce in script-src").toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(csp.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`]);
      expect(csp.get("connect-src")).toEqual(["'self'"]);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("base-uri")).toEqual(["'none'"]);
      const html = await page.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(3);
      for (const tag of scripts) expect(tag, "every script carries the nonce").toContain(`nonce="${nonce}"`);
      nonces.add(nonce!);
    }
    expect(nonces.size, "a new nonce for each response").toBe(2);

    const docs = await request.get(`${s.url}/en/docs/python`);
    expect(docs.status()).toBe(200);
    expectBase(docs, "docs page");
    const csp = directives(docs.headers()["content-security-policy"]);
    expect(csp.get("script-src")?.[0]).toBe("'self'");
    expect(csp.get("script-src")?.[1]).toMatch(/^'nonce-/);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    const tags = (await docs.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(
      tags.filter((t) => !/\bsrc=/.test(t) && !/type="application\/json"/.test(t)),
      "the prerendered docs run no inline script",
    ).toEqual([]);
    expect(
      tags.filter((t) => /nonce=/.test(t)),
      "and carry no nonce",
    ).toEqual([]);
  });

  test("hostile input #14: an API route, a static asset, an intake answer and the listener's refusal carry the headers, and the intake keeps its CORS headers", async ({
    request,
  }) => {
    const apiRoute = await request.get(`${s.url}/api/0/`, { headers: { authorization: "Bearer nope" } });
    expectBase(apiRoute, "API route");
    expect(apiRoute.headers()["content-security-policy"]).toBe(NOTHING);

    const page = await (await request.get(`${s.url}/en/sign-in`)).text();
    const asset = /src="([^"]*\/_next\/static\/chunks\/[^"]+\.js)"/.exec(page)?.[1];
    expect(asset).toBeTruthy();
    const js = await request.get(`${s.origin}${asset}`);
    expect(js.status()).toBe(200);
    expectBase(js, "static asset");
    expect(js.headers()["content-type"]).toMatch(/javascript/);

    const intake = await request.post(`${s.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`, {
      data: `{}\n{"type":"event"}\n{"message":"headers"}\n`,
    });
    expect(intake.status()).toBe(200);
    expectBase(intake, "intake answer");
    expect(intake.headers()["access-control-allow-origin"]).toBe("*");
    expect(intake.headers()["content-security-policy"]).toBe(NOTHING);

    const refusal = await request.post(`${s.url}/en/orgs`, { headers: { "next-action": "0".repeat(40), origin: "https://evil.example" }, data: "[]" });
    expect(refusal.status()).toBe(403);
    expectBase(refusal, "the listener's refusal");
  });

  test("hostile input #14: a policy the client sends names no nonce: pages the middleware does not see answer as ever, never 500", async ({ request }) => {
    const forged = { "content-security-policy": "script-src 'nonce-<script>'", "content-security-policy-report-only": "script-src 'nonce-\"x'" };
    const notFound = await request.get(`${s.url}/api/no-such-route`, { headers: forged });
    expect(notFound.status()).toBe(404);
    const page = await request.get(`${s.url}/en/orgs/${project.org}`, { headers: forged });
    expect(page.status()).toBe(200);
    expect(page.headers()["content-security-policy"]).not.toContain("<script>");
  });

  test("hostile input #14: scripts injected into a page without the nonce are blocked and reported, on a dashboard page and on a docs page", async ({
    page,
  }) => {
    // As a stored XSS would put them into the HTML (parser-inserted), with the answer's own headers kept; and as a
    // script on the page would add one (inserted through the DOM).
    const injected = `<script>window.injected = "inline"</script><script src="https://attacker.invalid/x.js"></script><script nonce="guessed">window.injected = "guessed"</script>`;
    await page.route(/\/(en\/orgs\/[^/]+|en\/docs\/python)$/, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace("</body>", `${injected}</body>`) });
    });
    const violations = await watchCsp(page);
    for (const path of [`/en/orgs/${project.org}`, "/en/docs/python"]) {
      const answer = await page.goto(`${s.url}${path}`);
      expect(answer?.headers()["content-security-policy"], "the page's own policy").toMatch(/script-src 'self'/);
      await page.waitForLoadState("load");
      await page.evaluate(() => {
        const script = document.createElement("script");
        script.textContent = "window.injected = 'dom'";
        document.body.append(script);
      });
      const blocked = (directive: RegExp) => violations().filter((v) => v.startsWith("[csp-violation]") && directive.test(v) && v.includes(path));
      await expect.poll(() => blocked(/script-src-elem blocked inline/).length, `the inline injections on ${path} are reported`).toBe(3);
      await expect
        .poll(() => blocked(/script-src-elem blocked https:\/\/attacker\.invalid\/x\.js/).length, `the foreign script on ${path} is reported`)
        .toBe(1);
      expect(await page.evaluate(() => (window as { injected?: string }).injected), `no injection ran on ${path}`).toBeUndefined();
      // The page's own scripts ran: React hydrated it.
      await expect
        .poll(() =>
          page.evaluate(() =>
            [document.body, document.getElementById("__next")].some((el) => el !== null && Object.keys(el).some((k) => k.startsWith("__react"))),
          ),
        )
        .toBe(true);
    }
    const csp = violations().filter((v) => v.startsWith("[csp-violation]"));
    expect(
      csp.filter((v) => !/blocked (inline|https:\/\/attacker\.invalid)/.test(v)),
      "nothing but the injections was blocked",
    ).toEqual([]);
  });

  test("hostile input #14: under the policy, the self-monitoring tunnel delivers, uPlot draws and the dark theme applies, with no violation", async ({
    page,
  }) => {
    const violations = await watchCsp(page);
    const tunnelled = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/monitoring");
    await page.goto(`${s.url}/en/orgs/${project.org}/projects/${project.slug}/settings/stats`);
    await page.waitForFunction(() => (window as { faultlineSelfMonitoring?: string }).faultlineSelfMonitoring === "on");
    expect((await tunnelled).status(), "the page load reached the intake through the tunnel").toBe(200);
    expect(await paintedPixels(page.getByTestId("stats-chart-24h"), "--ok"), "uPlot drew the accepted bar").toBeGreaterThan(20);
    await page.getByRole("group", { name: "Colour theme" }).getByRole("button", { name: "Dark" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe("rgb(247, 247, 249)");
    await page.getByRole("group", { name: "Colour theme" }).getByRole("button", { name: "System" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
    await screenshot(page, "csp-stats");
    expect(violations()).toEqual([]);
  });
});
