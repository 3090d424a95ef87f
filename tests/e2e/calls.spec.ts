// runtime-spec §7: the calls the browser makes: page-data fetches for navigation and prefetching (App Router RSC
// and Pages Router /_next/data), and server action submissions.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, type Request, test } from "@playwright/test";
import { cli, OWNER_STATE, signIn } from "./helpers";
import { SERVERS } from "./servers";

const buildId = () => readFileSync(".next/BUILD_ID", "utf8").trim();

/** Creates a team through the dashboard form and returns the server-action request the browser sent. */
async function createTeamThroughForm(page: Page, slug: string): Promise<Request> {
  await page.goto("./en/orgs/acme/settings/teams");
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined),
    (async () => {
      await page.getByLabel("Team slug").fill(slug);
      await page.getByRole("button", { name: "Create team" }).click();
    })(),
  ]);
  return request;
}

test.describe("runtime-spec §7: calls", () => {
  test.use({ storageState: OWNER_STATE });

  test("§7 page-data fetch for prefetching and navigation (App Router): RSC headers, _rsc, text/x-component", async ({ page }) => {
    const rsc: Request[] = [];
    page.on("request", (r) => {
      if (r.headers()["rsc"] === "1") rsc.push(r);
    });
    await page.goto("./en/orgs");
    await expect.poll(() => rsc.filter((r) => r.headers()["next-router-prefetch"] === "1").length).toBeGreaterThan(0);
    const prefetch = rsc.find((r) => r.headers()["next-router-prefetch"] === "1")!;
    expect(new URL(prefetch.url()).searchParams.has("_rsc")).toBe(true);
    expect(prefetch.headers()["next-router-state-tree"]).toBeTruthy();

    await page.getByTestId("org-list").getByRole("link", { name: /Acme/ }).click();
    await expect(page).toHaveURL(/\/en\/orgs\/acme$/);
    const nav = rsc.filter((r) => new URL(r.url()).pathname === "/en/orgs/acme" && r.headers()["next-router-prefetch"] === undefined);
    expect(nav.length).toBeGreaterThan(0);
    const response = await nav[0]!.response();
    expect(response?.headers()["content-type"]).toContain("text/x-component");
    expect(response?.headers()["vary"]).toContain("RSC");
  });

  test("§7 server action submission: POST to the current page URL with the framework headers", async ({ page }) => {
    const request = await createTeamThroughForm(page, "platform");
    expect(new URL(request.url()).pathname).toBe("/en/orgs/acme/settings/teams");
    expect(request.headers()["accept"]).toBe("text/x-component");
    expect(request.headers()["next-router-state-tree"]).toBeTruthy();
    const response = await request.response();
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-type"]).toContain("text/x-component");
    await expect(page.getByTestId("team-table")).toContainText("#platform");
  });

  test("§7 a server action posted from another origin is refused with 403, not run", async ({ page, request }) => {
    const action = await createTeamThroughForm(page, "ignored-by-test");
    const forged = await request.post(`${SERVERS.main.url}/en/orgs/acme/settings/teams`, {
      headers: { "next-action": action.headers()["next-action"]!, origin: "https://evil.example", "content-type": "text/plain;charset=UTF-8" },
      data: action.postData() ?? "[]",
    });
    expect(forged.status()).toBe(403);
    expect(await forged.json()).toEqual({ detail: "Cross-origin server action refused" });
  });

  test("§7 a server action whose body cannot be decoded answers 400 (413 when too large), never 500", async ({ page, request }) => {
    const action = await createTeamThroughForm(page, "body-check");
    const url = `${SERVERS.main.url}/en/orgs/acme/settings/teams`;
    const post = (contentType: string, data: string | Buffer) =>
      request.post(url, { headers: { "next-action": action.headers()["next-action"]!, origin: SERVERS.main.origin, "content-type": contentType }, data });
    for (const [type, body] of [
      ["text/plain;charset=UTF-8", "not json {"],
      ["text/plain;charset=UTF-8", ""],
      ["multipart/form-data", "no boundary"],
      ["multipart/form-data; boundary=xyz", '--xyz\r\nContent-Disposition: form-data; name="1_slug"\r\n\r\nunterminated'],
    ] as const) {
      const res = await post(type, body);
      expect(res.status(), `${type}: ${body}`).toBe(400);
      expect(await res.json()).toEqual({ detail: "Malformed server action payload" });
    }
    const big = await post("text/plain;charset=UTF-8", Buffer.alloc(1024 * 1024 + 10, "a"));
    expect(big.status()).toBe(413);
    // The form's own body with a NUL in the slug: the action answers it (an inline error), never a 500.
    const own = action.postData() ?? "";
    expect(own).toContain("body-check");
    const nul = await post(action.headers()["content-type"]!, own.replace("body-check", "body\u0000check"));
    expect(nul.status()).toBe(200);
    expect(await nul.text()).toContain('"status":"error"');
    // The form itself still works after the guard has read and replayed its body.
    await expect(page.getByTestId("team-table")).toContainText("#body-check");
  });

  test("§7 a server action's arguments crafted by hand (a locale no header can carry, an object for its form) are refused, never 500, and change nothing", async ({
    page,
    request,
  }) => {
    const action = await createTeamThroughForm(page, "args-check");
    await expect(page.getByTestId("team-table")).toContainText("#args-check");
    const type = action.headers()["content-type"]!;
    const own = action.postData() ?? "";
    // The arguments go as JSON in the part named "0" (bound arguments first, the locale among them; "$K1" is the form).
    const argsPart = /(name="0"\r\n\r\n)(.*?)(\r\n--)/s.exec(own);
    expect(argsPart, own.slice(0, 300)).toBeTruthy();
    const args = JSON.parse(argsPart![2]!) as unknown[];
    expect(args[0]).toBe("en");
    expect(args).toContain("$K1");
    const post = (changed: unknown[], slug: string) =>
      request.post(`${SERVERS.main.url}/en/orgs/acme/settings/teams`, {
        headers: { "next-action": action.headers()["next-action"]!, origin: SERVERS.main.origin, "content-type": type },
        data: own.replace(argsPart![0], `${argsPart![1]}${JSON.stringify(changed)}${argsPart![3]}`).replace("args-check", slug),
      });
    // Each locale answered 500 once the action redirected (its header cannot carry them), after the action had run.
    for (const [i, locale] of ["\u0001", "\ud800", "en\u2028", "x".repeat(5000)].entries()) {
      const res = await post([locale, ...args.slice(1)], `args-locale-${i}`);
      expect(res.status(), JSON.stringify(locale).slice(0, 20)).toBeLessThan(500);
      // The refusal says why, not "correct the highlighted fields" with nothing highlighted.
      expect(await res.text()).toContain("This form was sent for a language Faultline does not have");
    }
    // Where the form goes, an object or a string: form.get() threw (500), for anyone.
    for (const form of [{}, "x", null]) {
      const res = await post(
        args.map((a) => (a === "$K1" ? form : a)),
        "args-form",
      );
      expect(res.status(), JSON.stringify(form)).toBeLessThan(500);
    }
    await page.reload();
    await expect(page.getByTestId("team-table")).toContainText("#args-check");
    await expect(page.getByTestId("team-table")).not.toContainText("#args-locale");
    await expect(page.getByTestId("team-table")).not.toContainText("#args-form");
  });

  test("§7 a form posted without JavaScript runs its action; one crafted by hand is a 4xx, never the framework's 500", async ({ browser, request }) => {
    const context = await browser.newContext({ storageState: OWNER_STATE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${SERVERS.main.url}/en/orgs/acme/settings/teams`);
    const [posted] = await Promise.all([
      page.waitForRequest((r) => r.method() === "POST"),
      (async () => {
        await page.getByLabel("Team slug").fill("no-script");
        await page.getByRole("button", { name: "Create team" }).click();
      })(),
    ]);
    expect(posted.headers()["next-action"], "the browser's own form post").toBeUndefined();
    await page.goto(`${SERVERS.main.url}/en/orgs/acme/settings/teams`);
    await expect(page.getByTestId("team-table")).toContainText("#no-script");
    await context.close();

    const type = posted.headers()["content-type"]!;
    const own = posted.postData() ?? "";
    const descriptor = /\{"id":"([0-9a-f]{40})"/.exec(own);
    expect(descriptor, own.slice(0, 400)).toBeTruthy();
    const send = (data: string, origin = SERVERS.main.origin) =>
      request.post(`${SERVERS.main.url}/en/orgs/acme/settings/teams`, { headers: { "content-type": type, origin }, data, maxRedirects: 0 });
    const unknown = await send(own.replace(descriptor![1]!, "0".repeat(40)).replace("no-script", "no-script-2"));
    expect(unknown.status()).toBe(404);
    expect((await unknown.json()).detail).toMatch(/^No such server action/);
    const evil = await send(own.replace("no-script", "no-script-3"), "https://evil.example");
    expect(evil.status()).toBe(403);
    const boundary = /boundary=(.+)$/.exec(type)![1]!;
    const unnamed = await send(`--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--${boundary}--\r\n`);
    expect(unnamed.status()).toBe(400);
    // Neither crafted post created its team.
    const teams = await (await request.get(`${SERVERS.main.url}/en/orgs/acme/settings/teams`)).text();
    expect(teams).toContain("no-script");
    expect(teams).not.toContain("no-script-2");
    expect(teams).not.toContain("no-script-3");
  });

  test("§7 page-data fetch (Pages Router docs): /_next/data/<buildId>/<locale>/docs/<slug>.json with x-nextjs-data", async ({ page }) => {
    const data: Request[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/_next/data/")) data.push(r);
    });
    await page.goto("./en/docs/python");
    await page.getByRole("navigation", { name: "Guides" }).last().getByRole("link", { name: "Go", exact: true }).click();
    await expect(page).toHaveURL(/\/en\/docs\/go$/);
    const go = data.find((r) => new URL(r.url()).pathname === `/_next/data/${buildId()}/en/docs/go.json`);
    expect(go, data.map((r) => r.url()).join("\n")).toBeTruthy();
    expect(go!.headers()["x-nextjs-data"]).toBe("1");
    const res = await go!.response();
    expect(res?.headers()["content-type"]).toContain("application/json");
  });

  test("§7 a superseded docs navigation is cancelled (Route Cancelled) and the newer one wins", async ({ page }) => {
    // Installed before the page loads, so that the viewport prefetch of the ruby guide is slow as well.
    await page.route("**/_next/data/**/en/docs/ruby.json*", async (route) => {
      await new Promise((r) => setTimeout(r, 2000));
      await route.continue().catch(() => undefined);
    });
    await page.goto("./en/docs/python");
    const result = await page.evaluate(async () => {
      const router = (
        window as unknown as {
          next: {
            router: {
              push: (u: string) => Promise<boolean>;
              events: { on: (e: string, f: (err: Error & { cancelled?: boolean }, url: string) => void) => void };
            };
          };
        }
      ).next.router;
      const errors: { message: string; cancelled?: boolean; url: string }[] = [];
      router.events.on("routeChangeError", (err, url) => errors.push({ message: err.message, cancelled: err.cancelled, url }));
      const slow = router.push("/en/docs/ruby");
      await new Promise((r) => setTimeout(r, 200));
      const fast = router.push("/en/docs/php");
      return { slow: await slow, fast: await fast, errors };
    });
    expect(result.slow).toBe(false);
    expect(result.fast).toBe(true);
    expect(result.errors).toContainEqual({ message: "Route Cancelled", cancelled: true, url: "/en/docs/ruby" });
    await expect(page).toHaveURL(/\/en\/docs\/php$/);
  });

  test("§7 a failing props load falls back to a full page load (Failed to load static props)", async ({ page }) => {
    // Installed before the page loads: the viewport prefetch fails too, so no cached props can be used.
    await page.route("**/_next/data/**/en/docs/java.json*", (route) => route.fulfill({ status: 500, body: "boom" }));
    await page.goto("./en/docs/python");
    const consoleErrors: string[] = [];
    page.on("console", (m) => consoleErrors.push(m.text()));
    await page.evaluate(() => {
      (window as unknown as { __marker: boolean }).__marker = true;
    });
    const [document] = await Promise.all([
      page.waitForRequest((r) => r.resourceType() === "document" && r.url().endsWith("/en/docs/java")),
      page.getByRole("navigation", { name: "Guides" }).last().getByRole("link", { name: "Java", exact: true }).click(),
    ]);
    expect(document.method()).toBe("GET");
    await expect(page).toHaveURL(/\/en\/docs\/java$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Java");
    expect(await page.evaluate(() => (window as unknown as { __marker?: boolean }).__marker)).toBeUndefined();
    expect(consoleErrors.some((t) => t.includes("Failed to load static props"))).toBe(true);
  });
});

test("§7 a redirecting server action never fetches from the host a request claims (no SSRF through Host)", async ({ browser }) => {
  cli("main", "createuser", "--email", "ssrf@example.com", "--password", "ssrf-password", "--no-input");
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, "ssrf@example.com", "ssrf-password");
  await expect(page).toHaveURL(/\/en\/orgs$/);
  const [signOut] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined),
    page.getByRole("button", { name: "Sign out" }).click(),
  ]);
  await expect(page).toHaveURL(/\/en\/sign-in$/);

  // A listener on loopback standing in for an address the server must never be made to fetch.
  let hits = 0;
  const bait = http.createServer((_req, res) => {
    hits++;
    res.end();
  });
  await new Promise<void>((resolve) => bait.listen(0, "127.0.0.1", resolve));
  const baitHost = `localhost:${(bait.address() as AddressInfo).port}`;
  try {
    const body = signOut.postDataBuffer() ?? Buffer.alloc(0);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: SERVERS.main.port,
          path: "/en/orgs",
          method: "POST",
          headers: { ...signOut.headers(), host: baitHost, origin: `http://${baitHost}`, "content-length": String(body.length) },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(status).toBeLessThan(500);
    expect(hits).toBe(0);
  } finally {
    bait.close();
    await context.close();
  }
});
