// `faultline worker`: the digest in a process of its own (FAULTLINE_DIGEST=external). A real intake over HTTP, the
// worker as a child process from source on the same data dir and database, the official @sentry/node SDK; on SQLite,
// and a server and worker on PostgreSQL.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { listProjectIssues } from "../../src/core/issues";
import { DigestLockedError } from "../../src/digest/lock";
import { startDigestWorker } from "../../src/digest/spawn";
import { spoolDir } from "../../src/ingest";
import type { TestIntake, TestProject } from "../helpers/intake";
import { startTestIntake } from "../helpers/intake";
import { freshPgDatabase } from "../helpers/pg";
import { type WorkerProcess, spawnWorker } from "../helpers/worker";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hex = () => crypto.randomUUID().replace(/-/g, "");
const segments = (dataDir: string) => readdirSync(spoolDir(dataDir)).filter((f) => f.endsWith(".log"));
const nodeSdk = path.resolve("tests/e2e/sdk/node-sdk.mjs");

/** Sends one exception through the official @sentry/node SDK; returns its event id once Faultline answered 200. */
async function sdkException(project: TestProject, message: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [nodeSdk, project.dsn, message]);
  const { eventId, statusCode } = JSON.parse(stdout) as { eventId: string; statusCode: number };
  assert.equal(statusCode, 200);
  return eventId.replace(/-/g, "");
}

async function sendMessage(t: TestIntake, project: TestProject, message: string): Promise<string | null> {
  const id = hex();
  const url = t.url("envelope", project, `?sentry_key=${project.key.publicKey}&sentry_version=7`);
  const r = await fetch(url, { method: "POST", body: `{"event_id":"${id}"}\n{"type":"event"}\n${JSON.stringify({ message, platform: "node" })}\n` });
  await r.arrayBuffer();
  return r.status === 200 ? id : null;
}

async function issueTitles(t: TestIntake, project: TestProject): Promise<string[]> {
  const org = (await t.core.store.getOrganizationBySlug(t.org))!;
  const owner = (await t.core.store.getUserById((await t.core.store.listMembers(org.id))[0]!.userId))!;
  const { page } = await listProjectIssues(t.core.as(owner), t.org, project.slug, { query: "is:unresolved", sort: null, page: { limit: 100 } });
  return page.items.map((i) => i.title);
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  for (const start = Date.now(); Date.now() - start < timeoutMs; await sleep(50)) if (await check()) return;
  throw new Error(`timed out waiting for ${what}`);
}

describe("faultline worker on SQLite", () => {
  let t: TestIntake;
  let worker: WorkerProcess | undefined;
  const others: WorkerProcess[] = [];
  before(async () => {
    t = await startTestIntake({ digest: "external" });
  });
  after(async () => {
    for (const w of [worker, ...others]) if (w && w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
    await t.close();
  });

  test("the server leaves events in the spool; the worker digests them into issues", async () => {
    const p = t.projects[0];
    const eventId = await sdkException(p, "checkout failed in the worker test");
    await sleep(500);
    assert.equal(await t.core.store.getEvent(p.id, eventId), null, "no digest runs in the server");
    assert.deepEqual(await issueTitles(t, p), []);
    assert.equal(t.digested(), 0);

    worker = spawnWorker(t.dataDir);
    await worker.waitFor(/worker digesting the spool/);
    const stored = await t.waitForEvent(p, eventId);
    assert.ok(stored.issueId);
    assert.deepEqual(await issueTitles(t, p), ["Error: checkout failed in the worker test"]);
    await until("the server to read the worker's position", () => t.digested() > 0);
  });

  test("only one digest per spool: a second worker exits with 3 naming the first; the server's thread is refused too", async () => {
    assert.ok(worker);
    const second = spawnWorker(t.dataDir);
    others.push(second);
    assert.deepEqual(await second.exited, { code: 3, signal: null });
    assert.match(second.output(), new RegExp(`already being digested by faultline worker \\(pid ${worker.child.pid} on `));
    assert.throws(
      () =>
        startDigestWorker(
          { spoolDir: spoolDir(t.dataDir), db: { dialect: "sqlite", file: path.join(t.dataDir, "faultline.sqlite3") } },
          () => undefined,
          () => undefined,
        ),
      (e: unknown) => e instanceof DigestLockedError && /faultline worker/.test(e.message),
    );
    assert.equal(worker.child.exitCode, null, "the first worker keeps running");
  });

  test("SIGTERM mid-stream: the worker finishes its batch and exits 0; the next one digests the rest, nothing lost", async () => {
    assert.ok(worker);
    const p = t.projects[1];
    const message = `stream ${hex()}`;
    const acked: string[] = [];
    let sending = true;
    const sender = async () => {
      while (sending) {
        const id = await sendMessage(t, p, message);
        if (id) acked.push(id);
      }
    };
    const senders = Promise.all([sender(), sender(), sender(), sender()]);
    const before = t.digested();
    await until("the worker to digest part of the stream", () => acked.length >= 50 && t.digested() > before);
    worker.child.kill("SIGTERM");
    const { code, signal } = await worker.exited;
    await sleep(200); // events accepted while no worker runs
    sending = false;
    await senders;
    assert.deepEqual({ code, signal }, { code: 0, signal: null }, worker.output());
    assert.match(worker.output(), /worker stopped at spool position \d+/);
    const missing = (await Promise.all(acked.map((id) => t.core.store.getEvent(p.id, id)))).filter((e) => !e).length;
    assert.ok(missing > 0, "some acknowledged events were still in the spool when the worker stopped");

    worker = spawnWorker(t.dataDir);
    await worker.waitFor(/worker digesting the spool/);
    for (const id of acked) await t.waitForEvent(p, id, 20_000);
    const issueId = (await t.core.store.getEvent(p.id, acked[0]!))!.issueId!;
    assert.equal((await t.core.store.getIssue(issueId))?.timesSeen, acked.length, "each acknowledged event once");
  });

  test("the server deletes the segments behind the worker's position and its backlog shrinks", async () => {
    assert.ok(worker);
    worker.child.kill("SIGTERM");
    await worker.exited;
    const mib = 1024 * 1024;
    // 66 MiB of items for a project that no longer exists (the digest skips them cheaply): the log rolls over.
    const filler = { projectId: 999_999_999, keyId: 0, itemType: "event", eventId: null, headers: "{}", meta: "{}" };
    for (let i = 0; i < 66; i++) await t.spool.append([{ ...filler, receivedAt: Date.now(), payload: Buffer.alloc(mib, 32) }]);
    await sleep(300); // a few of the server's reads of the position
    assert.equal(segments(t.dataDir).length, 2);
    assert.ok(t.spool.backlogBytes > 64 * mib);
    worker = spawnWorker(t.dataDir);
    const eventId = await sdkException(t.projects[0], "after the filler");
    await t.waitForEvent(t.projects[0], eventId, 30_000);
    await until("the first segment to be deleted", () => segments(t.dataDir).length === 1);
    await until("the backlog to shrink", () => t.spool.backlogBytes < mib);
  });

  test("a worker killed outright leaves no stale lock: the kernel releases it, and the next worker takes over", async () => {
    assert.ok(worker);
    worker.child.kill("SIGKILL");
    assert.deepEqual(await worker.exited, { code: null, signal: "SIGKILL" });
    worker = spawnWorker(t.dataDir);
    await worker.waitFor(/worker digesting the spool/);
    const eventId = await sdkException(t.projects[0], "after a killed worker");
    await t.waitForEvent(t.projects[0], eventId);
  });
});

test("faultline worker is refused while the server's own digest thread holds the spool", async () => {
  const t = await startTestIntake();
  try {
    const w = spawnWorker(t.dataDir);
    assert.deepEqual(await w.exited, { code: 3, signal: null });
    assert.match(w.output(), /already being digested by the digest thread of faultline start \(pid \d+/);
    assert.match(w.output(), /FAULTLINE_DIGEST=external/);
  } finally {
    await t.close();
  }
});

test("PostgreSQL: a server and a worker process share the database", async () => {
  const pg = await freshPgDatabase(`worker_${hex().slice(0, 8)}`);
  const t = await startTestIntake({ digest: "external", db: { dialect: "postgres", url: pg.url } });
  const w = spawnWorker(t.dataDir, pg.url);
  try {
    await w.waitFor(/worker digesting the spool .* into postgres/);
    const p = t.projects[0];
    const first = await sdkException(p, "postgres worker one");
    const second = await sdkException(p, "postgres worker two");
    const a = await t.waitForEvent(p, first);
    const b = await t.waitForEvent(p, second);
    assert.ok(a.issueId && a.issueId === b.issueId, "the same stack trace: one issue");
    assert.equal((await t.core.store.getIssue(a.issueId))?.timesSeen, 2);
    assert.deepEqual(await issueTitles(t, p), ["Error: postgres worker two"]);
    await until("the server to read the worker's position", () => t.digested() > 0);
    w.child.kill("SIGTERM");
    assert.deepEqual(await w.exited, { code: 0, signal: null });
  } finally {
    if (w.child.exitCode === null) w.child.kill("SIGKILL");
    await t.close();
    await pg.drop();
  }
});
