// The bad-input corpus (issue 16, "Proof that stays") against production servers, as `faultline start` runs them (the
// node flags and memory settings of bin/faultline), on SQLite and on PostgreSQL: thousands of deterministic malformed requests, a few at a
// time. Every answer is a 2xx (where Relay accepts) or a 4xx: never a 5xx, a reset or a hang. Afterwards the digest
// has gone through everything (a marker event becomes visible), a valid event is visible within a second, and the
// server's memory stayed under a bound made of the limits that hold it (INGEST_LIMITS, SPOOL_LIMITS, DIGEST_LIMITS), and
// sending the corpus again and again does not make it grow storm after storm. Needs `npm run build` (scripts/test.sh runs it after the build).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { missingBuild, startFaultline, stopServer } from "../../bench/lib/server.mjs";
import { DIGEST_LIMITS, INGEST_LIMITS, SPOOL_LIMITS } from "../../src/config/limits";
import { MiB } from "../helpers/compression";
import { freshPgDatabase } from "../helpers/pg";
import type { HostileCase, Target } from "./cases";
import { buildCorpus, countByStatus, runCorpus } from "./corpus";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PORT = Number(process.env.FAULTLINE_HOSTILE_PORT ?? 9600);

/**
 * What a storm of bad input may add to the server's memory at most, from the limits that bound it: the request bodies
 * all requests hold together, the decompressions running at once (each up to the decompressed limit), what waits for
 * a spool commit, and the digest's batch parsed in its thread (its payload bytes several times over as objects).
 */
const PEAK_ALLOWANCE =
  INGEST_LIMITS.maxBufferedBodyBytes +
  INGEST_LIMITS.maxConcurrentInflates * INGEST_LIMITS.maxDecompressedBodyBytes +
  SPOOL_LIMITS.maxPendingBytes +
  4 * DIGEST_LIMITS.batchBytes;
/**
 * What may stay once the storm is over and the garbage collected: about one digest batch's worth of memory the
 * allocator keeps for reuse, and a little more. Freed memory goes back to the system because bin/faultline fixes
 * glibc's mmap and trim thresholds (bin/faultline; ARCHITECTURE.md "Memory after a burst").
 */
const SETTLED_ALLOWANCE = 2 * DIGEST_LIMITS.batchBytes + 16 * MiB;
/** milliseconds; how long the memory may take to come back (V8 collects, then frees, when it next allocates). */
const SETTLE_WITHIN_MS = 60_000;

const rssBytes = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
const mb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function newestEventIds(t: Target): Promise<string[]> {
  const r = await fetch(`${t.origin}/api/0/projects/${t.org}/${t.project}/events/`, { headers: { authorization: `Bearer ${t.token}` } });
  assert.equal(r.status, 200);
  return ((await r.json()) as { eventID: string }[]).map((e) => e.eventID);
}

/** Sends a valid error event and polls until the events API lists it; the milliseconds that took, or null. */
async function timeToVisible(t: Target, timeoutMs: number): Promise<number | null> {
  const id = crypto.randomUUID().replace(/-/g, "");
  const sent = performance.now();
  const r = await fetch(`${t.origin}/api/${t.projectId}/envelope/?sentry_key=${t.publicKey}&sentry_version=7`, {
    method: "POST",
    body: `{"event_id":"${id}"}\n{"type":"event"}\n{"message":"after the corpus","level":"error"}\n`,
  });
  assert.equal(r.status, 200, "a valid event after the corpus is taken");
  while (performance.now() - sent < timeoutMs) {
    if ((await newestEventIds(t)).includes(id)) return performance.now() - sent;
    await sleep(20);
  }
  return null;
}

/**
 * One valid request of each kind the corpus sends, so that the code each one loads (Next's route modules, the upload
 * and tunnel routes, the digest's first batch) is in memory before the baseline is read, and not counted as growth.
 */
async function warmUp(t: Target): Promise<void> {
  await timeToVisible(t, 30_000);
  const auth = { authorization: `Bearer ${t.token}` };
  for (const [path, init] of [
    [`/api/${t.projectId}/store/?sentry_key=${t.publicKey}&sentry_version=7`, { method: "POST", body: '{"message":"warm-up"}' }],
    [
      `/api/${t.projectId}/security/?sentry_key=${t.publicKey}`,
      { method: "POST", body: '{"csp-report":{"document-uri":"https://a.example/","blocked-uri":"https://b.example/x.js","violated-directive":"script-src"}}' },
    ],
    [`/api/0/organizations/${t.org}/chunk-upload/`, { headers: auth }],
    [
      `/api/0/organizations/${t.org}/chunk-upload/`,
      { method: "POST", headers: { ...auth, "content-type": "multipart/form-data; boundary=x" }, body: "--x--\r\n" },
    ],
    [`/api/0/organizations/${t.org}/releases/`, { headers: auth }],
    ["/monitoring", { method: "POST", body: "{}\n" }],
  ] as [string, RequestInit][]) {
    await (await fetch(t.origin + path, init)).arrayBuffer();
  }
  await sleep(2000);
}

type Round = { baseline: number; peak: number; settled: number; settleSeconds: number };

/**
 * Sends the corpus once and waits for the digest to get through it and for the memory to come back within
 * SETTLED_ALLOWANCE of `baseline` (at most SETTLE_WITHIN_MS). Asserts every answer; returns the memory figures.
 */
async function storm(name: string, t: Target, pid: number, cases: HostileCase[], baseline: number): Promise<Round> {
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 50);
  const started = performance.now();
  const outcomes = await runCorpus(t.origin, cases, { concurrency: 4, timeoutMs: 120_000 });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssBytes(pid));

  // Everything before a marker is digested once the marker is visible (the spool is read in order).
  const drained = await timeToVisible(t, 300_000);
  assert.ok(drained !== null, `${name}: the digest got through the corpus within 5 minutes`);
  const visible = await timeToVisible(t, 1000);
  // A valid event a second while memory comes back, as an idle install still gets some traffic.
  const settleStart = performance.now();
  let settled = rssBytes(pid);
  while (settled - baseline > SETTLED_ALLOWANCE && performance.now() - settleStart < SETTLE_WITHIN_MS) {
    await timeToVisible(t, 5000);
    await sleep(1000);
    settled = rssBytes(pid);
  }
  const settleSeconds = (performance.now() - settleStart) / 1000;

  console.log(
    `${name}: ${cases.length} cases in ${seconds.toFixed(1)} s; answers ${JSON.stringify(countByStatus(outcomes))}; RSS before ${mb(baseline)}, peak ${mb(peak)}, after ${mb(settled)} (${settleSeconds.toFixed(0)} s after the digest caught up); digest drained ${(drained / 1000).toFixed(1)} s after the last case; a valid event then visible in ${visible === null ? "more than 1000" : visible.toFixed(0)} ms`,
  );
  const bad = outcomes.filter((o) => o.status === "reset" || o.status === "hang" || o.status >= 500 || o.status < 200 || (o.status >= 300 && o.status < 400));
  assert.deepEqual(
    bad.slice(0, 20).map((o) => `${o.name} → ${o.status} ${o.detail}`),
    [],
    `${name}: ${bad.length} cases got no 2xx or 4xx answer`,
  );
  assert.ok(visible !== null, `${name}: a valid event sent after the corpus is visible within 1 s`);
  assert.ok(peak - baseline <= PEAK_ALLOWANCE, `${name}: peak RSS ${mb(peak)} stays within ${mb(PEAK_ALLOWANCE)} of ${mb(baseline)}`);
  return { baseline, peak, settled, settleSeconds };
}

/**
 * The corpus three times. The first time also loads what only bad input reaches (the decoders' buffers, error paths'
 * modules, the code V8 compiles for them) and lets V8's heap grow to its working size: memory the process keeps for
 * good, whatever it is sent next (seven runs that sent the corpus twice kept 15 to 39 MB of it). V8 may still take one
 * more step up in a later storm (one CI run kept 42 MB more after the second time and nothing leaked), so a leak is
 * told by its slope, not by one step: what the second and third storms leave behind, per storm, stays within
 * SETTLED_ALLOWANCE, or, when they took a step, what a fourth leaves behind. A leak grows with every storm.
 */
async function runAgainst(name: string, port: number, env: Record<string, string>): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "faultline-hostile-"));
  const fl = await startFaultline(root, { port, dataDir, env });
  try {
    const publicKey = new URL(fl.dsn).username;
    const t: Target = {
      origin: fl.origin,
      dsn: fl.dsn,
      publicKey,
      projectId: new URL(fl.dsn).pathname.slice(1),
      token: fl.token,
      org: fl.org,
      project: fl.project,
    };
    await sleep(3000); // past start-up (migrations, the own source-map bundle)
    await warmUp(t);
    const cases = await buildCorpus(t);
    assert.ok(cases.length >= 2000, `at least 2,000 cases (${cases.length})`);
    const first = await storm(`${name}, first time`, t, fl.pid, cases, rssBytes(fl.pid));
    const second = await storm(`${name}, second time`, t, fl.pid, cases, first.settled);
    const third = await storm(`${name}, third time`, t, fl.pid, cases, second.settled);
    const settled = [first.settled, second.settled, third.settled];
    let perStorm = (third.settled - first.settled) / 2;
    // V8's one step up can land in the third storm too (a CI run: 225 → 240 → 294 MB, 34.5 MB a storm over the two).
    // A step happens once and a leak every time: then a fourth storm decides, by what it leaves behind itself.
    if (perStorm > SETTLED_ALLOWANCE) {
      const fourth = await storm(`${name}, fourth time`, t, fl.pid, cases, third.settled);
      settled.push(fourth.settled);
      perStorm = fourth.settled - third.settled;
    }
    assert.ok(perStorm <= SETTLED_ALLOWANCE, `a storm after the first leaves at most ${mb(SETTLED_ALLOWANCE)} behind: ${settled.map(mb).join(" → ")}`);
  } finally {
    await stopServer(fl);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// SQLite and PostgreSQL side by side: each server has its own port, data dir and database, and each storm measures its
// own process's memory. The two took 280 and 220 s one after the other, most of it waiting for memory to come back.
describe("the bad-input corpus against production servers", { concurrency: true }, () => {
  test("the build is there", () => assert.equal(missingBuild(root), null, "run `npm run build` first"));

  test("on SQLite", { timeout: 20 * 60_000 }, () => runAgainst("SQLite", PORT, {}));

  test("on PostgreSQL", { timeout: 20 * 60_000 }, async () => {
    const db = await freshPgDatabase(`hostile_${process.pid}`);
    try {
      await runAgainst("PostgreSQL", PORT + 1, { DATABASE_URL: db.url });
    } finally {
      await db.drop();
    }
  });
});
