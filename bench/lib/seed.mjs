// The seeder (child_process.fork'ed by digest.mjs): writes N browser errors in I issues into a stopped Faultline's
// database (SQLite in the data dir, or PostgreSQL at `databaseUrl`) through the digest's own code, so every row is what production writes: spool rows built as the
// intake builds them, items.ts (digestRows: normalization, grouping, the issue's facts), then commit.ts (writeBatch,
// one transaction per batch). Runs from source through tsx, as the digest's worker does in tests.
// Events are spread over `spanDays` up to now, oldest first; issue popularity follows a Zipf law (a few issues get
// most events, every issue gets at least one). IPC: receives the config, sends {type:"progress"} and {type:"done"}.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Worker, isMainThread, parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";
import { answerOnce } from "./ipc.mjs";
import { prng } from "./mix.mjs";
import { EID, browserError } from "./payloads.mjs";

register();

const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const TS = "__BENCH_TS__",
  UID = "__BENCH_UID__";

/**
 * Issue k's event as a template: the mix's browser error made from seed k, with one in-app function named after k
 * (so that each issue has its own stack and grouping hash), split around the per-event slots.
 */
function issueTemplate(k, publicKey, t) {
  const [headers, [[, event]]] = browserError(prng(1000 + k), publicKey, t);
  const frames = event.exception.values[0].stacktrace.frames;
  const app = frames.filter((f) => f.in_app).at(-1);
  app.function = `${app.function}_${k}`;
  event.timestamp = TS;
  event.user = { id: UID, email: `${UID}@example.com` };
  const parts = JSON.stringify(event).split(new RegExp(`(${EID}|"${TS}"|${UID})`));
  const { event_id: _id, ...envelope } = headers;
  return { parts, envelope };
}

function render(tpl, eventId, ts, uid) {
  let out = "";
  for (const p of tpl.parts) out += p === EID ? eventId : p === `"${TS}"` ? String(ts) : p === UID ? uid : p;
  return out;
}

/** The issue of each event: Zipf(s) over `issues` ranks, every issue at least once, deterministic. */
function issueSequence(events, issues, rng, s = 0.9) {
  const cum = new Float64Array(issues);
  let sum = 0;
  for (let k = 0; k < issues; k++) cum[k] = sum += 1 / (k + 1) ** s;
  const seq = new Uint32Array(events);
  const count = new Uint32Array(issues);
  for (let i = 0; i < events; i++) {
    const x = rng() * sum;
    let lo = 0,
      hi = issues - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    seq[i] = lo;
    count[lo]++;
  }
  // Issues the draw missed take the place of an event of an issue that has more than one.
  for (let k = 0; k < issues; k++) {
    if (count[k] > 0) continue;
    for (;;) {
      const i = Math.floor(rng() * events);
      if (count[seq[i]] > 1) {
        count[seq[i]]--;
        seq[i] = k;
        count[k]++;
        break;
      }
    }
  }
  return seq;
}

/** A worker thread: turns batches {from, issues[], …} into digested rows (items.ts), the CPU-heavy half. */
async function digestWorker() {
  const { digestRows } = await import("../../src/digest/items.ts");
  const templates = new Map();
  parentPort.on("message", async ({ from, issues, start, step, key, publicKey }) => {
    const rows = [];
    issues.forEach((k, j) => {
      const i = from + j;
      let tpl = templates.get(k);
      if (!tpl) templates.set(k, (tpl = issueTemplate(k, publicKey, start + i * step)));
      const ts = Math.round((start + i * step) * 1000) / 1000;
      const eventId = randomBytes(16).toString("hex");
      const uid = String(Math.floor(prng(i)() * 100_000));
      const meta = JSON.stringify({
        ...tpl.envelope,
        sent_at: new Date(ts * 1000).toISOString(),
        client_ip: `203.0.113.${k % 250}`,
        user_agent: UA,
        client: "sentry.javascript.browser/11.5.0",
      });
      rows.push({
        kind: "item",
        projectId: key.projectId,
        keyId: key.keyId,
        receivedAt: Math.round(ts * 1000) + 40,
        itemType: "event",
        eventId,
        headers: '{"type":"event"}',
        meta,
        payload: Buffer.from(render(tpl, eventId, ts, uid)),
        id: i + 1,
      });
    });
    const t = performance.now();
    const digested = await digestRows(rows, (line) => process.stderr.write(line + "\n"));
    parentPort.postMessage({ from, digested, ms: performance.now() - t });
  });
}

async function seed({ dataDir, databaseUrl, publicKey, events, issues, batch, spanDays, threads }) {
  const { writeBatch } = await import("../../src/digest/commit.ts");
  const { openDb } = await import("../../src/storage/db.ts");
  const { createStore } = await import("../../src/storage/kysely/index.ts");
  const db = openDb(databaseUrl ? { dialect: "postgres", url: databaseUrl } : { dialect: "sqlite", file: path.join(dataDir, "faultline.sqlite3") });
  const store = createStore(db);
  const key = await store.getIntakeKey(publicKey);
  if (!key) throw new Error(`no project key ${publicKey} in ${dataDir}`);
  const seq = issueSequence(events, issues, prng(42));
  const end = Date.now() / 1000,
    start = end - spanDays * 86400,
    step = (end - start) / events;
  // On PostgreSQL, a partition for each seeded day (as retention makes them for the days ahead), so that the rows go
  // straight into their day rather than into the DEFAULT partition (migration 0029). Nothing on SQLite.
  const { daysBetween } = await import("./seed-days.mjs");
  await store.ensureDayPartitions(daysBetween(start * 1000, Date.now()));
  const t0 = performance.now();
  let digestMs = 0,
    writeMs = 0,
    lastReport = t0;
  // Worker threads digest batches ahead (at most two each in flight); this thread writes them in order.
  const workers = Array.from({ length: threads }, () => new Worker(new URL(import.meta.url)));
  const done = new Map(),
    waiting = new Map();
  for (const w of workers) {
    w.on("message", (m) => {
      digestMs += m.ms;
      const r = waiting.get(m.from);
      if (r) {
        waiting.delete(m.from);
        r(m.digested);
      } else done.set(m.from, m.digested);
    });
    w.on("error", (e) => {
      for (const r of waiting.values()) r(Promise.reject(e));
    });
  }
  const result = (from) => (done.has(from) ? Promise.resolve(done.get(from)).finally(() => done.delete(from)) : new Promise((r) => waiting.set(from, r)));
  const post = (n) => {
    const from = n * batch;
    if (from < events)
      workers[n % threads].postMessage({ from, issues: Array.from(seq.subarray(from, Math.min(events, from + batch))), start, step, key, publicKey });
  };
  const ahead = threads * 2;
  for (let n = 0; n < ahead; n++) post(n);
  try {
    for (let n = 0; n * batch < events; n++) {
      const { events: digested, rawItems, outcomes } = await result(n * batch);
      post(n + ahead);
      const w0 = performance.now();
      await writeBatch(store, { spoolId: "bench-seed", position: Math.min(events, (n + 1) * batch), events: digested, rawItems, outcomes });
      writeMs += performance.now() - w0;
      if (performance.now() - lastReport > 10_000) {
        lastReport = performance.now();
        process.send({ type: "progress", events: Math.min(events, (n + 1) * batch), seconds: (lastReport - t0) / 1000 });
      }
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  const seconds = (performance.now() - t0) / 1000;
  const count = async (table) =>
    Number(
      (
        await db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .where("project_id", "=", key.projectId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const out = { seconds, events: await count("events"), issues: await count("issues"), digestCpuSeconds: digestMs / 1000, writeSeconds: writeMs / 1000 };
  await db.close();
  return out;
}

if (!isMainThread) await digestWorker();
else answerOnce(async (cfg) => ({ type: "done", ...(await seed(cfg)) }));
