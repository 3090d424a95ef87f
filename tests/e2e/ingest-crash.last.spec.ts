// Crash safety of the intake: an event answered 200 is durable. A Faultline of its own (CRASH_PORT, fresh SQLite data
// dir) takes envelopes from 16 concurrent senders and is SIGKILLed mid-load; after a restart on the same data dir,
// every acknowledged event id must show up in the events API, once. Runs last, in its own Playwright project.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import SQLite from "better-sqlite3";
import { apiAt, createProject, listAllEvents, sleep } from "./ingest-helpers";
import { CRASH_PORT } from "./servers";

const PORT = CRASH_PORT;
const ORIGIN = `http://localhost:${PORT}`;
const SENDERS = 16;
const MIN_LOAD_MS = 2_000; // load at least this long before the kill…
const MIN_ACKED = 500; // …and until this many were acknowledged (or MAX_LOAD_MS passed)
const MAX_LOAD_MS = 20_000;
const ADMIN = { email: "crash-admin@example.com", password: "crash-admin-password" };

let dataDir = "";
let env = {} as NodeJS.ProcessEnv;
let server: ChildProcess | undefined;
let serverLog = "";

/** True when something accepts connections on the port. */
const listening = () =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(PORT, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

async function startServer(): Promise<ChildProcess> {
  expect(await listening(), `something else listens on port ${PORT}`).toBe(false);
  // bin/faultline.mjs runs dist/cli.mjs in-process: this child's pid is the server itself.
  const child = spawn(process.execPath, ["bin/faultline.mjs", "start"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", (code, signal) => ((serverLog += `[exit ${code ?? signal}]\n`), resolve())));
  child.stdout?.on("data", (d) => (serverLog += d));
  child.stderr?.on("data", (d) => (serverLog += d));
  const deadline = Date.now() + 90_000;
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${PORT}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    const gone = await Promise.race([exited.then(() => true), sleep(250).then(() => false)]);
    if (gone || Date.now() > deadline) throw new Error(`faultline start did not come up on ${PORT}:\n${serverLog}`);
  }
}

const faultline = (...args: string[]) =>
  execFileSync(process.execPath, ["bin/faultline.mjs", ...args], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

type Reply = { status: number; body: string };
const agent = new http.Agent({ keepAlive: true, maxSockets: SENDERS });
function postEnvelope(projectId: string, key: string, body: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        method: "POST",
        path: `/api/${projectId}/envelope/?sentry_key=${key}`,
        agent,
        timeout: 10_000,
        headers: { "content-type": "application/x-sentry-envelope" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (c) => (text += c));
        res.once("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.once("error", reject);
      },
    );
    req.once("timeout", () => req.destroy(new Error("timeout")));
    req.once("error", reject);
    req.end(body);
  });
}

// Spread over 16 issues: one issue keeps only its newest RETENTION_LIMITS.eventsPerIssue events, and this test sends
// more than that; the cap's pruning is retention by design, not loss.
const envelope = (id: string, n: number) =>
  `${JSON.stringify({ event_id: id, sent_at: new Date().toISOString() })}\n{"type":"event"}\n` +
  `${JSON.stringify({ event_id: id, message: `crash load ${n}`, fingerprint: [`crash-${n % 16}`], level: "error", platform: "other", timestamp: Date.now() / 1000 })}\n`;

/**
 * How many of `ids` the database did not hold yet when the server died, i.e. only the spool had them (read from a
 * copy of the data dir, so the server's own restart is what recovers the original). A measure of what the test
 * exercised, for the log; null when the database cannot be read that way.
 */
function onlyInSpool(ids: Set<string>, projectId: string): number | null {
  const copy = mkdtempSync(path.join(os.tmpdir(), "faultline-crash-copy-"));
  try {
    cpSync(dataDir, copy, { recursive: true });
    const db = new SQLite(path.join(copy, "faultline.sqlite3"));
    try {
      const stored = new Set(db.prepare("SELECT event_id FROM events WHERE project_id = ?").pluck().all(Number(projectId)) as string[]);
      return [...ids].filter((id) => !stored.has(id)).length;
    } finally {
      db.close();
    }
  } catch {
    return null;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

test.beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "faultline-crash-"));
  env = { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", FAULTLINE_URL: ORIGIN, FAULTLINE_DATA_DIR: dataDir, DATABASE_URL: "" };
  for (const k of ["FAULTLINE_DIST_DIR", "FAULTLINE_BASE_PATH", "FAULTLINE_TRUST_PROXY", "FAULTLINE_SECRET_KEY"]) delete env[k];
});

test.afterAll(async () => {
  agent.destroy();
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGKILL");
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("every event acknowledged with 200 before a SIGKILL is in the events API after a restart", async ({ request }, testInfo) => {
  test.setTimeout(300_000);
  try {
    server = await startServer();
    faultline("createuser", "--email", ADMIN.email, "--password", ADMIN.password, "--superuser", "--no-input");
    const token = faultline("createtoken", "--email", ADMIN.email);
    expect(token).toMatch(/^sntryu_/);
    const client = apiAt(request, ORIGIN, token);
    const project = await createProject(client, { platform: "other" });
    expect(project.dsn).toBe(`http://${project.publicKey}@localhost:${PORT}/${project.id}`);

    // Load: SENDERS loops, each posting one envelope at a time with a fresh event id, until its request fails.
    const acked = new Set<string>();
    const statuses = new Map<number, number>();
    const wrongReplies: string[] = [];
    const failures: string[] = [];
    let killedAt = 0;
    let ackedAfterKill = 0;
    let n = 0;
    const started = Date.now();
    const sender = async () => {
      for (;;) {
        if (killedAt && Date.now() - killedAt > 15_000) return failures.push("still answering 15 s after SIGKILL");
        const id = randomUUID().replace(/-/g, "");
        let reply: Reply;
        try {
          reply = await postEnvelope(project.id, project.publicKey, envelope(id, ++n));
        } catch (err) {
          failures.push((err as Error).message);
          return;
        }
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status !== 200) continue;
        if (reply.body !== JSON.stringify({ id })) wrongReplies.push(`${id}: ${reply.body}`);
        acked.add(id);
        if (killedAt) ackedAfterKill++;
      }
    };
    const senders = Array.from({ length: SENDERS }, sender);
    while (Date.now() - started < MIN_LOAD_MS || (acked.size < MIN_ACKED && Date.now() - started < MAX_LOAD_MS)) await sleep(50);

    expect(server.exitCode ?? server.signalCode, `the server died under load before the kill:\n${serverLog}`).toBeNull();
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    const ackedBeforeKill = acked.size;
    server.kill("SIGKILL");
    killedAt = Date.now();
    await exited;
    await Promise.all(senders);
    const summary =
      `acked ${acked.size} (${ackedBeforeKill} before the kill, ${ackedAfterKill} after) in ${killedAt - started} ms, ` +
      `${onlyInSpool(acked, project.id) ?? "?"} of them only in the spool at the kill; statuses ${JSON.stringify([...statuses])}; failures ${JSON.stringify([...new Set(failures)])}`;
    testInfo.annotations.push({ type: "load", description: summary });
    console.log(`crash test: ${summary}`);
    expect(wrongReplies.slice(0, 5), `200 replies must be {"id": <the envelope's event id>}; ${wrongReplies.length} were not`).toEqual([]);
    expect(ackedBeforeKill, `too little load to mean anything: ${summary}`).toBeGreaterThanOrEqual(300);
    expect(
      failures.filter((f) => f.startsWith("still answering")),
      summary,
    ).toEqual([]);
    expect(await listening(), "the SIGKILLed server's port must be closed (was the right pid killed?)").toBe(false);

    // Restart on the same data dir and port; the spool must be digested into the store.
    server = await startServer();
    const deadline = Date.now() + 60_000;
    let missing: string[] = [];
    let stored: string[] = [];
    for (;;) {
      stored = (await listAllEvents(client, project)).map((e) => e.eventID);
      const have = new Set(stored);
      missing = [...acked].filter((id) => !have.has(id));
      if (missing.length === 0 || Date.now() > deadline) break;
      await sleep(1_000);
    }
    expect(
      missing.length,
      `${missing.length} of ${acked.size} acknowledged events missing 60 s after the restart (first: ${missing.slice(0, 5).join(", ")}); ${summary}`,
    ).toBe(0);
    expect(stored.length, "each event id is stored once").toBe(new Set(stored).size);
  } finally {
    writeFileSync(testInfo.outputPath(`faultline-${PORT}.log`), serverLog);
  }
});
