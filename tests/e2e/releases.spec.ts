// Releases and issues through the real, unmodified sentry-cli 2.58.6 against a production build: releases new, again
// (idempotent), finalize, info, list, archive, restore and set-commits --local; issues list, resolve, mute and unresolve. Then the
// release API itself over HTTP: 201/208, percent-encoded versions, and healthData from sessions sent to the intake.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { api, ownerApiToken } from "./helpers";
import { createProject, expectJson, mainApi, run, sleep, type TestProject, unique } from "./ingest-helpers";
import { SENTRY_CLI_2 } from "./sentry-cli";
import { SERVERS } from "./servers";

const CLI = SENTRY_CLI_2;

let project: TestProject;
let home: string;

test.beforeAll(async ({ request }) => {
  project = await createProject(mainApi(request), { platform: "node" });
  // An empty HOME: no .sentryclirc; only the environment says where to go.
  home = mkdtempSync(path.join(os.tmpdir(), "faultline-sentry-cli-"));
});
test.afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Runs sentry-cli as CI would, with the server, token, organization and project in the environment. */
async function cli(args: string[], cwd = home) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    SENTRY_URL: SERVERS.main.url,
    SENTRY_AUTH_TOKEN: ownerApiToken(),
    SENTRY_ORG: project.org,
    SENTRY_PROJECT: project.slug,
    SENTRY_LOAD_DOTENV: "0",
    SENTRY_DISABLE_UPDATE_CHECK: "true",
  };
  const r = await run(CLI, args, { env, cwd });
  expect(r.code, `sentry-cli ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

/** Sends one envelope item to the project's intake. */
async function sendItem(type: string, payload: Record<string, unknown>, eventId?: string) {
  const url = new URL(project.dsn);
  const endpoint = `${url.protocol}//${url.host}${SERVERS.main.basePath}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`;
  const header = eventId ? `{"event_id":"${eventId}"}` : "{}";
  const r = await fetch(endpoint, { method: "POST", body: `${header}\n{"type":"${type}"}\n${JSON.stringify(payload)}\n` });
  expect(r.status).toBe(200);
}

async function until<T>(what: string, read: () => Promise<T | null | undefined>, timeoutMs = 15_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(200)) {
    const v = await read();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
  }
}

const releasePath = (version: string) => `/organizations/${project.org}/releases/${encodeURIComponent(version)}/`;

test.describe("sentry-cli 2.58.6 against Faultline", () => {
  test("releases new (twice), finalize, info, list", async ({ request }) => {
    const client = api(request);
    const version = unique("shop@1.0.0+build");
    expect(await cli(["releases", "new", version])).toContain(version);
    await cli(["releases", "new", version]); // idempotent: the existing release comes back (208)
    await cli(["releases", "finalize", version]);
    expect(await cli(["releases", "info", version])).toContain(version);
    expect(await cli(["releases", "list"])).toContain(version);
    const release = await expectJson(await client.get(releasePath(version)), 200, "GET release");
    expect(release.version).toBe(version);
    expect(Date.parse(release.dateReleased)).toBeGreaterThan(Date.now() - 120_000);
    expect(release.projects.map((p: { slug: string }) => p.slug)).toEqual([project.slug]);
  });

  test("a version with + and @ travels percent-encoded; a slash (which Sentry and sentry-cli refuse) still reaches the route", async ({ request }) => {
    const version = unique("checkout@2.0.0-rc.1+sha.5114f85");
    await sendItem("event", { message: "from a release build", release: version, platform: "node" }, crypto.randomUUID().replace(/-/g, ""));
    await until("the event's release", async () => (await api(request).get(releasePath(version))).ok());
    expect(await cli(["releases", "info", version])).toContain(version);
    const slash = await api(request).get(releasePath("feature/login"));
    expect(slash.status()).toBe(404);
    expect((await slash.json()).detail).toBe("Release not found");
  });

  test("releases archive and restore: the existing release's status, shown as Sentry shows it", async ({ request }) => {
    const client = api(request);
    const version = unique("shop@2.5.0");
    await cli(["releases", "new", version]);
    const status = async () => (await expectJson<{ status: string }>(await client.get(releasePath(version)), 200, "GET release")).status;
    expect(await status()).toBe("open");
    await cli(["releases", "archive", version]);
    expect(await status()).toBe("archived");
    await cli(["releases", "restore", version]);
    expect(await status()).toBe("open");
  });

  test("releases set-commits --local stores the checkout's commits (no repository integrations)", async ({ request }) => {
    const version = unique("shop@3.0.0");
    const repo = mkdtempSync(path.join(os.tmpdir(), "faultline-git-"));
    try {
      const git = (...args: string[]) =>
        execFileSync("git", args, {
          cwd: repo,
          env: {
            ...process.env,
            GIT_AUTHOR_NAME: "Ada",
            GIT_AUTHOR_EMAIL: "ada@example.com",
            GIT_COMMITTER_NAME: "Ada",
            GIT_COMMITTER_EMAIL: "ada@example.com",
          },
        });
      git("init", "-q");
      writeFileSync(path.join(repo, "app.js"), "console.log(1)\n");
      git("add", ".");
      git("commit", "-q", "-m", "First commit");
      await cli(["releases", "new", version]);
      await cli(["releases", "set-commits", version, "--local"], repo);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
    const release = await expectJson(await api(request).get(releasePath(version)), 200, "GET release");
    expect(release.commitCount).toBe(1);
    expect(release.lastCommit.message.trim()).toBe("First commit");
    expect(release.authors).toEqual([{ name: "Ada", email: "ada@example.com" }]);
  });

  test("issues list, resolve, mute and unresolve", async ({ request }) => {
    const client = api(request);
    const title = unique("cli-managed failure");
    await sendItem("event", { message: title, platform: "node" }, crypto.randomUUID().replace(/-/g, ""));
    const issuesPath = `/projects/${project.org}/${project.slug}/issues/?query=`;
    type Issue = { id: string; title: string; status: string };
    const issue = await until("the issue", async () => (await expectJson<Issue[]>(await client.get(issuesPath), 200, "issues")).find((i) => i.title === title));
    expect(await cli(["issues", "list"])).toContain(issue.id);
    const status = async () => (await expectJson<Issue>(await client.get(`/issues/${issue.id}/`), 200, "issue")).status;
    await cli(["issues", "resolve", "--id", issue.id]);
    expect(await status()).toBe("resolved");
    await cli(["issues", "mute", "--id", issue.id]);
    expect(await status()).toBe("ignored");
    await cli(["issues", "unresolve", "--id", issue.id]);
    expect(await status()).toBe("unresolved");
  });
});

test.describe("release API", () => {
  test("POST answers 201 for a new release, 208 for the same again, 400 for a bad version; versions with + and @ round-trip", async ({ request }) => {
    const client = api(request);
    const version = unique("web@1.2.3+exp.sha");
    const path = `/projects/${project.org}/${project.slug}/releases/`;
    expect((await client.post(path, { version })).status()).toBe(201);
    const again = await client.post(path, { version });
    expect(again.status()).toBe(208);
    expect(again.headers()["content-type"]).toContain("application/json");
    expect(
      (await expectJson(await client.post(`/organizations/${project.org}/releases/`, { version: "a/b", projects: [project.slug] }), 400, "bad version")).detail,
    ).toBeTruthy();
    const read = await expectJson(await client.get(`/projects/${project.org}/${project.slug}/releases/${encodeURIComponent(version)}/`), 200, "GET");
    expect(read.version).toBe(version);
    expect((await client.get(`/organizations/${project.org}/releases/?query=${encodeURIComponent(version)}`)).headers()["link"]).toContain('rel="next"');
    expect((await client.delete(releasePath(version))).status()).toBe(204);
    expect((await client.get(releasePath(version))).status()).toBe(404);
  });

  test("?health=1: crash-free sessions and users from session updates sent to the intake", async ({ request }) => {
    const version = unique("mobile@4.0.0");
    const started = new Date(Date.now() - 60_000).toISOString();
    const session = (sid: string, did: string, status: string, init: boolean) => ({
      sid,
      did,
      init,
      started,
      status,
      errors: status === "crashed" ? 1 : 0,
      attrs: { release: version, environment: "production" },
    });
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    for (const s of [
      session(a, "u1", "ok", true),
      session(b, "u2", "ok", true),
      session(a, "u1", "crashed", false),
      session(b, "u2", "exited", false),
      session(b, "u2", "exited", false),
    ])
      await sendItem("session", s);
    const path = `/projects/${project.org}/${project.slug}/releases/${encodeURIComponent(version)}/?health=1`;
    const health = await until("the sessions' health", async () => {
      const r = await api(request).get(path);
      if (!r.ok()) return null;
      const h = (await r.json()).projects[0].healthData;
      return h.totalSessions === 2 && h.sessionsCrashed === 1 ? h : null;
    });
    expect(health).toMatchObject({ crashFreeSessions: 50, crashFreeUsers: 50, totalUsers: 2, sessionsErrored: 0, hasHealthData: true });
  });
});
