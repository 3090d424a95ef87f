// Shared steps of the intake tests: projects with their DSN through the web API, and reading stored events back.
import { execFile } from "node:child_process";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { api } from "./helpers";
import type { TestJson } from "../helpers/json";

export type ApiClient = {
  get: (path: string) => Promise<APIResponse>;
  post: (path: string, data: unknown) => Promise<APIResponse>;
  put: (path: string, data: unknown) => Promise<APIResponse>;
};

/** The web API (/api/0) of any Faultline server, as `token`. */
export function apiAt(request: APIRequestContext, url: string, token: string): ApiClient {
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: (p) => request.get(`${url}/api/0${p}`, { headers }),
    post: (p, data) => request.post(`${url}/api/0${p}`, { headers, data }),
    put: (p, data) => request.put(`${url}/api/0${p}`, { headers, data }),
  };
}

/** The main test server's web API as its owner. */
export const mainApi = (request: APIRequestContext): ApiClient => api(request);

let counter = 0;
/** A name no other test (or earlier run on the same store) uses. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${(++counter).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Fails with the response's text unless it has the expected status; returns the JSON body. */
export async function expectJson<T = TestJson>(response: APIResponse, status: number, what: string): Promise<T> {
  if (response.status() !== status) throw new Error(`${what}: expected ${status}, got ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

export type TestProject = { org: string; team: string; slug: string; id: string; dsn: string; publicKey: string };

/** A new project (in a new organization and team unless given), with the DSN its default key shows in the keys API. */
export async function createProject(client: ApiClient, opts: { platform: string; org?: string; team?: string }): Promise<TestProject> {
  const org = opts.org ?? (await expectJson(await client.post("/organizations/", { name: unique("SDK Org") }), 201, "create organization")).slug;
  const team = opts.team ?? (await expectJson(await client.post(`/organizations/${org}/teams/`, { name: unique("SDK Team") }), 201, "create team")).slug;
  const project = await expectJson(
    await client.post(`/teams/${org}/${team}/projects/`, { name: unique(`SDK ${opts.platform}`), platform: opts.platform }),
    201,
    "create project",
  );
  const keys = await expectJson<{ public: string; dsn: { public: string } }[]>(await client.get(`/projects/${org}/${project.slug}/keys/`), 200, "list keys");
  const key = keys[0];
  if (!key) throw new Error(`project ${org}/${project.slug} has no key`);
  return { org, team, slug: project.slug, id: String(project.id), dsn: key.dsn.public, publicKey: key.public };
}

export type StoredEvent = {
  id: string;
  eventID: string;
  projectID: string;
  /** The issue the event belongs to (null for transactions). */
  groupID: string | null;
  type: string;
  title: string;
  message: string;
  platform: string;
  dateCreated: string;
  dateReceived: string;
  tags: { key: string; value: string }[];
};

/** Every event of a project, following the Link header's next cursor until results="false". */
export async function listAllEvents(client: ApiClient, project: { org: string; slug: string }): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  let cursor = "";
  for (let page = 0; page < 10_000; page++) {
    const path = `/projects/${project.org}/${project.slug}/events/?per_page=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const response = await client.get(path);
    events.push(...(await expectJson<StoredEvent[]>(response, 200, `GET ${path}`)));
    const next = /rel="next"; results="(true|false)"; cursor="([^"]*)"/.exec(response.headers()["link"] ?? "");
    if (!next) throw new Error(`GET ${path}: no rel="next" in Link header ${JSON.stringify(response.headers()["link"])}`);
    if (next[1] === "false") return events;
    if (next[2] === cursor) throw new Error(`GET ${path}: the next cursor does not advance`);
    cursor = next[2] ?? "";
  }
  throw new Error("more than 10000 pages of events");
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls the project's events until `eventId` is there (up to `timeoutMs`); fails naming what was stored instead. */
export async function waitForEvent(client: ApiClient, project: { org: string; slug: string }, eventId: string, timeoutMs = 15_000): Promise<StoredEvent> {
  const id = normalizeEventId(eventId);
  const deadline = Date.now() + timeoutMs;
  let seen: StoredEvent[] = [];
  for (;;) {
    seen = await listAllEvents(client, project);
    const found = seen.find((e) => e.eventID === id);
    if (found) return found;
    if (Date.now() > deadline) break;
    await sleep(250);
  }
  throw new Error(`event ${id} not in ${project.org}/${project.slug} after ${timeoutMs} ms; stored: ${JSON.stringify(seen.map((e) => [e.eventID, e.title]))}`);
}

/** Sentry event ids are 32 hex digits; sentry-cli prints them as a UUID with dashes. */
export const normalizeEventId = (id: string) => id.replace(/-/g, "").toLowerCase();

export type RunResult = { code: number | null; stdout: string; stderr: string };

/** Runs a program to its end (never throws on a non-zero exit: the test asserts on `code` with the output in view). */
export function run(
  file: string,
  args: string[],
  opts: { env?: Record<string, string | undefined>; cwd?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { env: (opts.env ?? process.env) as NodeJS.ProcessEnv, cwd: opts.cwd, timeout: opts.timeoutMs ?? 30_000, encoding: "utf8" },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : null) : 0;
        resolve({ code, stdout, stderr: err && code === null ? `${stderr}\n${err.message}` : stderr });
      },
    );
  });
}
