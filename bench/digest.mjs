// `npm run bench:digest`: the digest's figures (issue 4, whose targets issue 22 raised: lib/digest-report.mjs). On a
// fresh Faultline (SQLite, started as `npm start` starts it), fed by a separate process at fixed rates (open loop) with
// bench:ingest's mix:
//   1. the sustained rate: BENCH_RATE/s for BENCH_SECONDS with the backlog (spool records behind the digest's saved
//      position) sampled every second, then a ramp of BENCH_STEP_SECONDS steps to the highest rate it keeps up with;
//   2. event-to-visible latency at half that rate: marker errors, and one poller of the issue list;
// then on a cached data set written through the digest's own code (bench/.cache/, made on the first run):
//   3. issue API response times with BENCH_SEED_EVENTS (1,000,000) events in BENCH_SEED_ISSUES (10,000) issues;
// and on a fresh small one: 4. bytes on disk per stored 5 KB browser error;
//   5. the replay: the digest alone (`faultline worker`, no intake, no load) on a spool of BENCH_REPLAY_SECONDS of the mix
//      at BENCH_RATE written once, BENCH_REPLAY_RUNS times: records/s and the worker's CPU per record, the figure to
//      compare builds by (bench/lib/digest-replay.mjs; on PostgreSQL each run copies the spool's database). With
//      BENCH_REPLAY_AGAINST (another checkout, built), its worker replays the same spool in turn with this one's, and
//      the ratio of their CPU per record is printed pair by pair: the way to compare two builds on this noisy machine.
// Settings (env or --flag=value): BENCH_RATE (2000), BENCH_SECONDS (60), BENCH_STEP_SECONDS (15), BENCH_RAMP_STEPS (5,
// 0: no ramp), BENCH_RAMP_BY (500), BENCH_LATENCY_SECONDS (30), BENCH_CONNECTIONS (64), BENCH_SEED_EVENTS,
// BENCH_SEED_ISSUES, BENCH_REQUESTS (200), BENCH_WARMUP (20), BENCH_BYTES_EVENTS (20000), BENCH_PORT (9300),
// BENCH_REPLAY_SECONDS (15), BENCH_REPLAY_RUNS (3), BENCH_REPLAY_AGAINST, BENCH_KINDS (some of the mix's kinds, lib/mix.mjs: a kind's cost alone), BENCH_ONLY (any of sustained,latency,api,bytes,replay), BENCH_JSON (path for the figures), BENCH_KEEP (keep data),
// BENCH_PROFILE (a directory for the server's CPU profiles), BENCH_SCRUB (default: the data scrubbing Faultline ships;
// off: the project's scrubbing turned off, to measure what scrubbing costs the digest), BENCH_DATABASE_URL (a
// postgres:// server: every part runs on PostgreSQL, each fresh data dir on a database of its own made there and
// dropped after, the cached set in a database kept there: bench/lib/bench-db.mjs; the baseline stays bare SQLite).
// The server gets this process's environment: FAULTLINE_DIGEST_THREADS=2 measures the digest with its preparing thread.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { measureIssueApi } from "./lib/api-latency.mjs";
import { Backlog } from "./lib/backlog.mjs";
import { ramp, sustained, visibleLatency } from "./lib/digest-load.mjs";
import { prng } from "./lib/mix.mjs";
import { EID, browserError } from "./lib/payloads.mjs";
import { cpuSeconds, machineBusySeconds } from "./lib/proc.mjs";
import { benchDatabaseUrl, freshDatabase, pluck, postgresDatabaseBytes } from "./lib/bench-db.mjs";
import { bytesByTable, cachedDataSet, checkpointedBytes, prepareDataDir, runSeeder } from "./lib/seeded.mjs";
import { missingBuild, startFaultline, stopServer } from "./lib/server.mjs";
import { bareInsertRate } from "./lib/sqlite-baseline.mjs";
import { printSummary } from "./lib/digest-report.mjs";
import { replayOnce, writeReplaySpool } from "./lib/digest-replay.mjs";
import { opt } from "./lib/options.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const num = (name, def) => Number(opt(name, def));
const cfg = {
  rate: num("RATE", 2000),
  seconds: num("SECONDS", 60),
  stepSeconds: num("STEP_SECONDS", 15),
  rampSteps: num("RAMP_STEPS", 5),
  rampBy: num("RAMP_BY", 500),
  latencySeconds: num("LATENCY_SECONDS", 30),
  connections: num("CONNECTIONS", 64),
  seedEvents: num("SEED_EVENTS", 1_000_000),
  seedIssues: num("SEED_ISSUES", 10_000),
  requests: num("REQUESTS", 200),
  warmup: num("WARMUP", 20),
  bytesEvents: num("BYTES_EVENTS", 20_000),
  replaySeconds: num("REPLAY_SECONDS", 15),
  replayRuns: num("REPLAY_RUNS", 3),
  replayAgainst: opt("REPLAY_AGAINST", "") ? path.resolve(String(opt("REPLAY_AGAINST", ""))) : "",
  port: num("PORT", 9300),
  only: new Set(
    String(opt("ONLY", "sustained,latency,api,bytes,replay"))
      .split(",")
      .map((s) => s.trim()),
  ),
  json: opt("JSON", ""),
  keep: opt("KEEP", ""),
  scrub: String(opt("SCRUB", "default")),
};
/** The PostgreSQL server every part runs on, or null for SQLite. */
const server = benchDatabaseUrl();
const dbName = server ? "PostgreSQL" : "SQLite";
const fmt = (n, d = 0) => (n == null || Number.isNaN(n) ? "n/a" : n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }));
const log = (line) => console.log(line);

/** One of the mix's browser errors as the SDK sends its event item (about 5 KB of JSON). */
function browserErrorJson() {
  const [, [[, event]]] = browserError(prng(1), "0".repeat(32), Date.now() / 1000);
  return JSON.stringify(event).replace(EID, "0".repeat(32));
}

/** Parts 1 and 2 on one fresh server: the fixed-rate run, the ramp, then the latency at half the highest rate kept. */
async function loadParts(tmp, out) {
  const dataDir = mkdtempSync(path.join(tmp, "load-"));
  const fresh = server ? await freshDatabase(server) : null;
  const fl = await startFaultline(root, { port: cfg.port, dataDir, env: fresh ? { DATABASE_URL: fresh.url } : {} });
  if (cfg.scrub === "off") {
    const r = await fetch(`${fl.origin}/api/0/projects/${fl.org}/${fl.project}/`, {
      method: "PUT",
      headers: { authorization: `Bearer ${fl.token}`, "content-type": "application/json" },
      body: JSON.stringify({ dataScrubber: false, dataScrubberDefaults: false }),
    });
    if (!r.ok) throw new Error(`turning scrubbing off: ${r.status} ${await r.text()}`);
  }
  log(`data scrubbing: ${cfg.scrub === "off" ? "off for the project" : "the defaults Faultline ships (on)"}`);
  const backlog = new Backlog(dataDir, fresh?.url);
  try {
    await backlog.ready;
    if (cfg.only.has("sustained")) {
      log(`\n== sustained: ${fmt(cfg.rate)} requests/s of the mix for ${cfg.seconds} s (open loop, ≤ ${cfg.connections} in flight) ==`);
      const cpu0 = cpuSeconds(fl.pid),
        main0 = cpuSeconds(fl.pid, fl.pid),
        busy0 = machineBusySeconds(),
        self0 = process.cpuUsage(),
        t0 = performance.now();
      const run = await sustained(root, fl, backlog, { rate: cfg.rate, seconds: cfg.seconds, connections: cfg.connections });
      const wall = (performance.now() - t0) / 1000,
        self = process.cpuUsage(self0);
      run.serverCpuPct = ((cpuSeconds(fl.pid) - cpu0) / wall) * 100;
      run.mainCpuPct = ((cpuSeconds(fl.pid, fl.pid) - main0) / wall) * 100;
      run.loadCpuPct = ((run.result.cpuSeconds + (self.user + self.system) / 1e6) / wall) * 100;
      run.otherCpuPct = Math.max(0, ((machineBusySeconds() - busy0) / wall) * 100 - run.serverCpuPct - run.loadCpuPct);
      out.sustained = run;
      log("  t s | offered/s | 200/s | not 200 | skipped | backlog records | backlog MB | digested items | stored events");
      for (const s of run.samples.filter((s, i) => i % 5 === 4 || i === run.samples.length - 1)) {
        log(
          `  ${String(s.t).padStart(3)} | ${fmt(s.sent + s.skipped).padStart(9)} | ${fmt(s.ok).padStart(5)} | ${fmt(s.refused + s.failed).padStart(7)} | ${fmt(s.skipped).padStart(7)} | ${fmt(s.records).padStart(15)} | ${fmt(s.bytes / 1e6, 1).padStart(10)} | ${fmt(s.digested).padStart(14)} | ${fmt(s.events).padStart(13)}`,
        );
      }
      log(
        `  digested ${fmt(run.digestedPerSec)} items/s (${fmt(run.eventsPerSec)} stored events/s: errors and transactions), accepted ${fmt(run.acceptedPerSec)}/s; backlog at mid-run ${fmt(run.mid?.records)} records, at the end ${fmt(run.last?.records)}; growth ${fmt(run.growthPerSec)} records/s (second half); drained ${run.drainSeconds == null ? "NOT within 90 s" : `${fmt(run.drainSeconds, 1)} s`} after the load stopped${run.drainPerSec == null ? "" : ` (${fmt(run.drainPerSec)} records/s: the digest alone)`}`,
      );
      log(
        `  CPU over the run and the drain (100 % = one core of ${os.cpus().length}): server ${fmt(run.serverCpuPct)} % (main thread ${fmt(run.mainCpuPct)} %, other threads incl. the digest ${fmt(run.serverCpuPct - run.mainCpuPct)} %), load generator and sampler ${fmt(run.loadCpuPct)} %, other processes on the machine ${fmt(run.otherCpuPct)} %`,
      );
      log(
        `  status: ${Object.entries(run.result.status)
          .map(([k, v]) => `${k} × ${v}`)
          .join(", ")}; response time p50 ${fmt(run.result.latency.p50, 1)} ms, p95 ${fmt(run.result.latency.p95, 1)} ms`,
      );
      if (cfg.rampSteps > 0) {
        log(
          `\n== ramp: ${cfg.stepSeconds} s steps of ${fmt(cfg.rampBy)}/s, ${run.ok ? "up" : "down"} from ${fmt(cfg.rate + (run.ok ? cfg.rampBy : -cfg.rampBy))}/s ==`,
        );
        out.ramp = await ramp(root, fl, backlog, {
          from: cfg.rate + (run.ok ? cfg.rampBy : -cfg.rampBy),
          by: cfg.rampBy,
          stepSeconds: cfg.stepSeconds,
          maxSteps: cfg.rampSteps,
          connections: cfg.connections,
          log,
        });
      }
      const kept = [run.ok ? cfg.rate : null, out.ramp?.maxSustained ?? null].filter((r) => r != null);
      out.maxSustained = kept.length ? Math.max(...kept) : null;
    }
    if (cfg.only.has("latency")) {
      const rate = Math.round((out.maxSustained ?? cfg.rate) / 2);
      log(
        `\n== event-to-visible latency at ${fmt(rate)} requests/s (half of ${out.maxSustained ? "the highest rate kept up with" : "BENCH_RATE"}) for ${cfg.latencySeconds} s ==`,
      );
      const r = await visibleLatency(root, fl, { rate, seconds: cfg.latencySeconds, markerEveryMs: 250, pollMs: 100, connections: cfg.connections });
      out.latency = r;
      log(
        `  ${r.markers} markers (one per ${r.markerEveryMs} ms), ${r.missing} never listed; ${r.polls} issue-list polls (every ${r.pollMs} ms while a marker was outstanding)`,
      );
      log(
        `  accepted → listed by the issues API, ms: p50 ${fmt(r.latency.p50)}  p95 ${fmt(r.latency.p95)}  p99 ${fmt(r.latency.p99)}  max ${fmt(r.latency.max)}`,
      );
    }
  } finally {
    backlog.close();
    await stopServer(fl);
    if (fresh && !cfg.keep) await fresh.drop();
  }
}

/** Part 3: the issue API on the cached data set. */
async function apiPart(out) {
  log(`\n== issue API with ${fmt(cfg.seedEvents)} events in ${fmt(cfg.seedIssues)} issues (${dbName}) ==`);
  const t0 = performance.now();
  const set = await cachedDataSet(root, { events: cfg.seedEvents, issues: cfg.seedIssues, port: cfg.port, log, server });
  const s = set.seed;
  log(
    set.cached
      ? `  cached data set from ${set.madeAt} (seeded then in ${fmt(s.seconds)} s, ${fmt(s.events / s.seconds)} events/s)`
      : `  seeded in ${fmt(s.seconds)} s (${fmt(s.events / s.seconds)} events/s; digest code ${fmt(s.digestCpuSeconds)} s in worker threads, writeBatch ${fmt(s.writeSeconds)} s), ${fmt((performance.now() - t0) / 1000)} s with setup`,
  );
  log(`  database ${fmt(s.bytes / 1e6)} MB ${server ? "(pg_database_size)" : "after checkpoint"}: ${fmt(s.bytes / s.events)} bytes per event`);
  const ids = await pluck(path.join(set.dataDir, "faultline.sqlite3"), set.dbUrl, "SELECT id FROM issues ORDER BY id");
  const fl = await startFaultline(root, { port: cfg.port, dataDir: set.dataDir, reuse: set.reuse, env: set.dbUrl ? { DATABASE_URL: set.dbUrl } : {} });
  try {
    out.api = { seed: s, cached: set.cached, madeAt: set.madeAt, endpoints: await measureIssueApi(fl, ids, { requests: cfg.requests, warmup: cfg.warmup }) };
  } finally {
    await stopServer(fl);
  }
  log(`  ${cfg.requests} requests each, one at a time, after ${cfg.warmup} of warm-up:`);
  for (const e of out.api.endpoints)
    log(
      e.skipped
        ? `  ${e.name}: skipped (${e.skipped})`
        : `  ${e.name.padEnd(28)} p50 ${fmt(e.p50, 1).padStart(6)} ms  p95 ${fmt(e.p95, 1).padStart(6)} ms  max ${fmt(e.max, 1).padStart(6)} ms`,
    );
}

/** Part 4: bytes on disk per stored browser error, on a fresh data dir. */
async function bytesPart(tmp, out) {
  const issues = Math.max(1, Math.round(cfg.bytesEvents / 100));
  log(`\n== bytes on disk: ${fmt(cfg.bytesEvents)} browser errors (the mix's 5 KB shape) in ${fmt(issues)} issues ==`);
  const dataDir = mkdtempSync(path.join(tmp, "bytes-"));
  const fresh = server ? await freshDatabase(server) : null;
  // On PostgreSQL: pg_database_size() (tables, indexes and TOAST; per-table bytes are SQLite's dbstat only).
  const bytesNow = () => (fresh ? postgresDatabaseBytes(fresh.url) : checkpointedBytes(dataDir));
  try {
    const reuse = await prepareDataDir(root, { port: cfg.port, dataDir, dbUrl: fresh?.url });
    const empty = await bytesNow();
    const seed = await runSeeder(root, { dataDir, databaseUrl: fresh?.url, publicKey: new URL(reuse.dsn).username, events: cfg.bytesEvents, issues });
    const total = await bytesNow();
    const sent = Buffer.byteLength(browserErrorJson());
    out.bytes = {
      events: seed.events,
      issues: seed.issues,
      total,
      empty,
      perEvent: total / seed.events,
      marginalPerEvent: (total - empty) / seed.events,
      sentBytes: sent,
      tables: fresh ? [] : bytesByTable(dataDir),
    };
    const b = out.bytes;
    log(
      `  database ${fmt(total / 1e6, 1)} MB after checkpoint (${fmt(empty / 1e3)} KB before the events): ${fmt(b.perEvent)} bytes per event (${fmt(b.marginalPerEvent)} without the empty database); the event JSON sent is ${fmt(sent)} bytes`,
    );
    if (b.tables.length)
      log(
        `  largest tables with their indexes: ${b.tables
          .slice(0, 6)
          .map((t) => `${t.table} ${fmt(t.bytes / seed.events)} B/event`)
          .join(", ")}`,
      );
  } finally {
    if (fresh && !cfg.keep) await fresh.drop();
  }
}

/** Part 5: the digest alone on one spool of the mix, several runs. */
async function replayPart(tmp, out) {
  log(`\n== replay: the digest alone (faultline worker) on ${cfg.replaySeconds} s of the mix at ${fmt(cfg.rate)}/s, ${cfg.replayRuns} runs ==`);
  const spool = await writeReplaySpool(root, { tmp, port: cfg.port, rate: cfg.rate, seconds: cfg.replaySeconds, connections: cfg.connections, server });
  const runs = [];
  const against = [];
  const line = (r) =>
    `${fmt(r.digested)} records (${fmt(r.events)} events stored) in ${fmt(r.seconds, 1)} s: ${fmt(r.perSec)} records/s, ${fmt(r.perSec * (r.events / r.records))} events/s; CPU ${fmt(r.cpuMicrosPerRecord)} µs per record`;
  try {
    for (let i = 0; i < cfg.replayRuns; i++) {
      // With a baseline, the two builds take turns on the same spool, the baseline first in odd pairs and second in
      // even ones, so that a drift of the machine's load falls on both alike.
      const order = cfg.replayAgainst && i % 2 === 1 ? ["this", "baseline"] : ["baseline", "this"];
      for (const side of cfg.replayAgainst ? order : ["this"]) {
        const r = await replayOnce(side === "this" ? root : cfg.replayAgainst, { spool, server, tmp, port: cfg.port });
        (side === "this" ? runs : against).push(r);
        log(`  run ${i + 1}${cfg.replayAgainst ? ` (${side})` : ""}: ${line(r)}`);
      }
    }
  } finally {
    if (!cfg.keep) {
      rmSync(spool.dataDir, { recursive: true, force: true });
      await spool.database?.drop();
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const spread = (xs) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
  const perSec = runs.map((r) => r.perSec),
    cpu = runs.map((r) => r.cpuMicrosPerRecord),
    eventsPerSec = runs.map((r) => r.perSec * (r.events / r.records));
  out.replay = { accepted: spool.accepted, runs, medianPerSec: median(perSec), medianEventsPerSec: median(eventsPerSec), medianCpuMicros: median(cpu) };
  log(`  median ${fmt(median(perSec))} records/s (${spread(perSec)}), CPU ${fmt(median(cpu))} µs per record (${spread(cpu)})`);
  if (against.length > 0) {
    const ratios = runs.map((r, i) => r.cpuMicrosPerRecord / against[i].cpuMicrosPerRecord);
    const base = against.map((r) => r.cpuMicrosPerRecord);
    out.replay.baseline = { root: cfg.replayAgainst, runs: against, medianCpuMicros: median(base), cpuRatios: ratios };
    log(`  baseline (${cfg.replayAgainst}): CPU ${fmt(median(base))} µs per record (${spread(base)})`);
    log(
      `  CPU per record, this build ÷ the baseline, pair by pair: ${ratios.map((x) => fmt(x, 3)).join(", ")}; median ${fmt(median(ratios), 3)} (${fmt(Math.min(...ratios), 3)}–${fmt(Math.max(...ratios), 3)})`,
    );
  }
  if (server) log("  (CPU: the worker's process; PostgreSQL's own processes are not in it)");
}

async function main() {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  const machine = {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    node: process.version,
    loadAverageAtStart: load,
    memGB: +(os.totalmem() / 2 ** 30).toFixed(1),
  };
  log(`database: ${server ? `PostgreSQL (BENCH_DATABASE_URL, ${new URL(server).host})` : "SQLite in each data dir"}`);
  log(`machine: ${machine.cores} cores (${machine.cpu}), ${machine.memGB} GiB, Node ${machine.node}, load average at start ${load}`);
  const missing = missingBuild(root);
  if (missing) {
    console.error(`bench: Faultline is not built (missing ${missing.join(", ")}); run \`npm run build\` first`);
    process.exit(1);
  }
  const out = { machine, config: { ...cfg, only: [...cfg.only] } };
  out.bareInsertsPerSec = bareInsertRate(browserErrorJson());
  log(
    `baseline: bare SQLite inserts of the 5 KB browser error's JSON (WAL, NORMAL, 500 per transaction, one unique index): ${fmt(out.bareInsertsPerSec)} rows/s`,
  );
  const tmp = mkdtempSync(path.join(os.tmpdir(), "faultline-bench-digest-"));
  try {
    if (cfg.only.has("sustained") || cfg.only.has("latency")) await loadParts(tmp, out);
    if (cfg.only.has("api")) await apiPart(out);
    if (cfg.only.has("bytes")) await bytesPart(tmp, out);
    if (cfg.only.has("replay")) await replayPart(tmp, out);
  } finally {
    if (!cfg.keep) rmSync(tmp, { recursive: true, force: true });
    else log(`data kept in ${tmp}`);
  }
  printSummary(out, cfg, log);
  if (cfg.json) {
    writeFileSync(cfg.json, JSON.stringify(out, (k, v) => (k === "samples" ? undefined : v), 2) + "\n");
    log(`\nfigures written to ${cfg.json}`);
  }
}

main().catch((e) => {
  console.error(`bench: ${e.stack ?? e}`);
  process.exit(1);
});
