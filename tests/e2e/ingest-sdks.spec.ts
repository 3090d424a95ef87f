// The intake against real, unmodified official SDKs: each sends to a DSN from the keys API of a project of its own,
// and the event must show up in that project's events API (and in no other project) with its title and platform.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { expect, test } from "@playwright/test";
import { type ApiClient, createProject, listAllEvents, mainApi, normalizeEventId, run, type TestProject, unique, waitForEvent } from "./ingest-helpers";
import { SENTRY_CLI_2 } from "./sentry-cli";
import { SDK_PAGE_PORT } from "./servers";

const ROOT = process.cwd();
const PYTHON = "/usr/bin/python3"; // Debian's, with python3-sentry-sdk 1.9.10 (the pyenv python3 on PATH lacks it)
const PAGE_PORT = SDK_PAGE_PORT; // the browser test's page: another origin than the server's

let shared: { org: string; team: string; decoy: TestProject };

test.beforeAll(async ({ request }) => {
  // A project no SDK sends to: every test checks its event did not land there.
  const decoy = await createProject(mainApi(request), { platform: "other" });
  shared = { org: decoy.org, team: decoy.team, decoy };
});

const newProject = (client: ApiClient, platform: string) => createProject(client, { platform, org: shared.org, team: shared.team });

/** The event is stored in `project` (checked by waitForEvent) and nowhere in the decoy project. */
async function expectOnlyIn(client: ApiClient, project: TestProject, eventId: string) {
  const event = await waitForEvent(client, project, eventId);
  expect(event.eventID).toBe(normalizeEventId(eventId));
  expect(event.projectID).toBe(project.id);
  expect((await listAllEvents(client, shared.decoy)).map((e) => e.eventID)).not.toContain(event.eventID);
  return event;
}

type PythonOutput = { eventId: string; requests: { url: string; status: number; body: string }[] };
async function runPython(dsn: string, message: string, mode: "error" | "transaction"): Promise<PythonOutput> {
  expect(existsSync(PYTHON), `${PYTHON} is missing: install Debian's python3 and python3-sentry-sdk`).toBe(true);
  const r = await run(PYTHON, ["tests/e2e/sdk/python-sdk.py", dsn, message, mode]);
  expect(r.code, `python-sdk.py exited ${r.code}:\n${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as PythonOutput;
}

test.describe("official SDKs send to the intake", () => {
  test("@sentry/node 11.5.0: captureException is stored in its project with the exception as title", async ({ request }) => {
    const client = mainApi(request);
    const project = await newProject(client, "node");
    const message = unique("node-sdk failure");
    const r = await run(process.execPath, ["tests/e2e/sdk/node-sdk.mjs", project.dsn, message]);
    expect(r.code, r.stderr).toBe(0);
    const sent = JSON.parse(r.stdout) as { eventId: string; statusCode: number | null };
    expect(sent.eventId).toMatch(/^[0-9a-f]{32}$/);
    expect(sent.statusCode, "HTTP status the SDK's transport got").toBe(200);

    const event = await expectOnlyIn(client, project, sent.eventId);
    expect(event.title).toBe(`Error: ${message}`);
    expect(event.platform).toBe("node");
    expect(event.type).toBe("error");

    // Its issue, through Sentry's issue endpoints (the list's default query is is:unresolved).
    expect(event.groupID).toMatch(/^\d+$/);
    const list = await client.get(`/projects/${project.org}/${project.slug}/issues/`);
    expect(list.status()).toBe(200);
    const issues = (await list.json()) as { id: string; shortId: string; title: string; count: string; status: string; stats: { "24h": [number, number][] } }[];
    expect(issues.map((i) => i.id)).toEqual([event.groupID]);
    expect(issues[0]).toMatchObject({ shortId: `${project.slug.toUpperCase()}-1`, title: `Error: ${message}`, count: "1", status: "unresolved" });
    expect(issues[0]!.stats["24h"]).toHaveLength(24);
    const detail = await client.get(`/issues/${event.groupID}/`);
    expect(detail.status()).toBe(200);
    expect(((await detail.json()) as { project: { slug: string } }).project.slug).toBe(project.slug);
    const latest = await client.get(`/issues/${event.groupID}/events/latest/`);
    expect(((await latest.json()) as { eventID: string }).eventID).toBe(event.eventID);
    expect(await (await client.get(`/projects/${project.org}/${project.slug}/issues/?query=is:resolved`)).json()).toEqual([]);
    expect((await client.get(`/projects/${project.org}/${project.slug}/issues/?query=nosuchkey:x`)).status()).toBe(400);
    expect((await client.get(`/issues/999999999/`)).status()).toBe(404);
  });

  test("@sentry/browser 11.5.0 in Chromium: a cross-origin text/plain POST, answered with CORS, and stored", async ({ page, request }) => {
    const client = mainApi(request);
    const project = await newProject(client, "javascript");
    const message = unique("browser-sdk failure");
    const bundle = await build({
      stdin: { contents: 'import * as Sentry from "@sentry/browser"; window.Sentry = Sentry;', resolveDir: ROOT, loader: "js" },
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "es2020",
      logLevel: "silent",
    });
    const script = bundle.outputFiles[0]?.text ?? "";
    expect(script).toContain("sentry.javascript.browser");
    const html = `<!doctype html><meta charset="utf-8"><title>SDK page</title><script src="/sentry.js"></script><script>
      (async () => {
        Sentry.init({ dsn: ${JSON.stringify(project.dsn)}, release: "e2e@1.0.0", environment: "e2e" });
        let eventId;
        try { throw new Error(${JSON.stringify(message)}); } catch (e) { eventId = Sentry.captureException(e); }
        window.__sent = { eventId, flushed: await Sentry.flush(5000) };
      })();</script>`;
    const server = http.createServer((req, res) => {
      if (req.url === "/sentry.js") res.writeHead(200, { "content-type": "text/javascript" }).end(script);
      else res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    });
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(PAGE_PORT, "127.0.0.1", resolve));
    try {
      const logs: string[] = [];
      page.on("console", (m) => logs.push(`${m.type()}: ${m.text()}`));
      page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
      const posts: Promise<{ method: string; requestHeaders: Record<string, string>; body: string; status: number; headers: Record<string, string> }>[] = [];
      page.on("response", (response) => {
        if (!response.url().includes(`/api/${project.id}/envelope/`)) return;
        const req = response.request();
        posts.push(
          (async () => ({
            method: req.method(),
            requestHeaders: await req.allHeaders(),
            body: req.postData() ?? "",
            status: response.status(),
            headers: await response.allHeaders(),
          }))(),
        );
      });

      await page.goto(`http://localhost:${(server.address() as AddressInfo).port}/`);
      await page.waitForFunction(() => (window as unknown as { __sent?: unknown }).__sent, null, { timeout: 15_000 });
      const sent = await page.evaluate(() => (window as unknown as { __sent: { eventId: string; flushed: boolean } }).__sent);
      expect(sent.flushed, logs.join("\n")).toBe(true);
      expect(sent.eventId).toMatch(/^[0-9a-f]{32}$/);

      const all = await Promise.all(posts);
      const post = all.find((p) => p.method === "POST" && p.body.includes(sent.eventId));
      expect(post, `no envelope POST carried ${sent.eventId}; saw ${JSON.stringify(all.map((p) => [p.method, p.status]))}\n${logs.join("\n")}`).toBeTruthy();
      expect(post?.requestHeaders["content-type"]).toBe("text/plain;charset=UTF-8");
      expect(post?.requestHeaders["origin"]).toBe(`http://localhost:${PAGE_PORT}`);
      expect(post?.status).toBe(200);
      expect(post?.headers["access-control-allow-origin"]).toBe("*");
      expect(logs.filter((l) => /CORS|blocked/i.test(l))).toEqual([]);

      const event = await expectOnlyIn(client, project, sent.eventId);
      expect(event.title).toBe(`Error: ${message}`);
      expect(event.platform).toBe("javascript");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("python3-sentry-sdk 1.9.10: an exception goes gzipped to /store/ with X-Sentry-Auth and is stored", async ({ request }) => {
    const client = mainApi(request);
    const project = await newProject(client, "python");
    const message = unique("python-sdk failure");
    const sent = await runPython(project.dsn, message, "error");
    expect(sent.eventId).toMatch(/^[0-9a-f]{32}$/);
    // Exactly one request, to the store endpoint, answered 200 with the event's id.
    expect(sent.requests.map((r) => [new URL(r.url).pathname, r.status])).toEqual([[`/api/${project.id}/store/`, 200]]);
    expect(JSON.parse(sent.requests[0]?.body ?? "{}")).toEqual({ id: sent.eventId });

    const event = await expectOnlyIn(client, project, sent.eventId);
    expect(event.title).toBe(`ValueError: ${message} (total 42, code E2E-LOCAL)`);
    expect(event.platform).toBe("python");
    expect(event.type).toBe("error");
  });

  test("python3-sentry-sdk 1.9.10: a transaction with a child span goes to /envelope/ and is accepted", async ({ request }) => {
    const client = mainApi(request);
    const project = await newProject(client, "python");
    const name = unique("python-sdk transaction");
    const sent = await runPython(project.dsn, name, "transaction");
    expect(sent.eventId).toMatch(/^[0-9a-f]{32}$/);
    expect(sent.requests.map((r) => [new URL(r.url).pathname, r.status])).toEqual([[`/api/${project.id}/envelope/`, 200]]);
    expect(JSON.parse(sent.requests[0]?.body ?? "{}")).toEqual({ id: sent.eventId });
  });

  test("sentry-cli 2.58.6 send-event -m: a message event is stored with the message as title", async ({ request }) => {
    const client = mainApi(request);
    const project = await newProject(client, "other");
    const message = unique("sentry-cli message");
    // An empty HOME and working directory: no .sentryclirc, no .env; nothing but the DSN tells it where to send.
    const home = mkdtempSync(path.join(os.tmpdir(), "faultline-sentry-cli-"));
    try {
      const env = { PATH: process.env.PATH, HOME: home, SENTRY_DSN: project.dsn, SENTRY_LOAD_DOTENV: "0", SENTRY_DISABLE_UPDATE_CHECK: "true" };
      const r = await run(SENTRY_CLI_2, ["send-event", "-m", message], { env, cwd: home });
      expect(r.code, `sentry-cli exited ${r.code}:\n${r.stdout}\n${r.stderr}`).toBe(0);
      const eventId = /Event id: ([0-9a-f-]{32,36})/.exec(r.stdout)?.[1];
      expect(eventId, r.stdout).toBeTruthy();

      const event = await expectOnlyIn(client, project, eventId ?? "");
      expect(event.title).toBe(message);
      expect(event.message).toContain(message);
      expect(event.platform).toBe("native");
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
