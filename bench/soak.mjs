// `npm run bench:soak`: Faultline under a long steady load, the real mix plus 1 % of malformed requests (from the
// bad-input corpus, tests/hostile), as the README starts it. Prints the resident memory, the digest's backlog and the
// answers every sampling interval, then judges the run against issue 16's targets: RSS grows less than 10 % after the
// first 5 minutes, the backlog stays bounded, and no valid request gets a 5xx.
// The rate is half the intake's, measured first (15 s, closed loop), unless the digest cannot keep up with that: a
// load the digest falls behind on only fills the spool until the intake answers 503 (as it should), which would
// measure the spool's size, not a soak. So the digest's own rate is measured too, on the backlog the intake's
// measurement left (20 s, no load), and the soak offers the lower of half the intake's rate and 60 % of the digest's
// (while the intake takes the load, the digest gets less of the machine than while it drains alone: at 80 % it fell
// behind by about a tenth).
// Settings (env or --flag=value): SOAK_MINUTES (30), BENCH_RATE (requests/s, instead of measuring), SOAK_MALFORMED_PCT
// (1), SOAK_SAMPLE_SECONDS (10), BENCH_CONNECTIONS (32), BENCH_PORT (9330).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Backlog } from "./lib/backlog.mjs";
import { drain } from "./lib/digest-load.mjs";
import { forkRun } from "./lib/ipc.mjs";
import { missingBuild, startFaultline, stopServer } from "./lib/server.mjs";
import { optOrEnv } from "./lib/options.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const opt = optOrEnv;
const cfg = {
  minutes: Number(opt("SOAK_MINUTES", 30)),
  rate: Number(opt("RATE", 0)),
  malformedPct: Number(opt("SOAK_MALFORMED_PCT", 1)),
  sampleSeconds: Number(opt("SOAK_SAMPLE_SECONDS", 10)),
  connections: Number(opt("CONNECTIONS", 32)),
  port: Number(opt("PORT", 9330)),
};
const TARGETS = { rssGrowthPct: 10, warmupMinutes: 5 };
/** The share of the digest's measured rate the soak offers at most (see above). */
const DIGEST_SHARE = 0.6;
const fmt = (n, d = 0) => (n == null || Number.isNaN(n) ? "n/a" : n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d }));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssMB = (pid) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;

/** The corpus's requests that fit a steady load: POSTs of at most 256 KiB, as base64 for the load process. */
async function malformedRequests(fl) {
  const { buildCorpus } = await import("../tests/hostile/corpus.ts");
  const url = new URL(fl.dsn);
  const cases = await buildCorpus({
    origin: fl.origin,
    dsn: fl.dsn,
    publicKey: url.username,
    projectId: url.pathname.slice(1),
    token: fl.token,
    org: fl.org,
    project: fl.project,
  });
  return cases
    .filter((c) => (c.method ?? "POST") === "POST" && c.body instanceof Uint8Array && c.body.byteLength <= 256 * 1024 && !c.path.startsWith("/api/0/"))
    .map((c) => ({ path: c.path, headers: c.headers ?? {}, body: Buffer.from(c.body).toString("base64") }));
}

async function main() {
  const missing = missingBuild(root);
  if (missing) {
    console.error(`bench: Faultline is not built (missing ${missing.join(", ")}); run \`npm run build\` first`);
    process.exit(1);
  }
  console.log(
    `machine: ${os.cpus().length} cores, Node ${process.version}, load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "faultline-soak-"));
  const fl = await startFaultline(root, { port: cfg.port, dataDir });
  try {
    const backlog = new Backlog(dataDir);
    let rate = cfg.rate;
    if (!rate) {
      const measured = await forkRun(
        path.join(root, "bench/lib/load.mjs"),
        { dsn: fl.dsn, origin: fl.origin, connections: cfg.connections, seconds: 15, warmup: 3, checkIds: false },
        { done: "result" },
      );
      const intakeRate = measured.requestsPerSec;
      const before = backlog.sample();
      await sleep(20_000);
      const after = backlog.sample();
      const digestRate = ((before.records - after.records) * 1000) / (after.at - before.at);
      rate = Math.round(Math.min(intakeRate / 2, DIGEST_SHARE * digestRate));
      console.log(
        `intake measured at ${fmt(intakeRate)} requests/s (closed loop, 15 s); the digest then went through ${fmt(digestRate)} records/s of the backlog it left (20 s)`,
      );
      console.log(
        `the soak offers ${fmt(rate)} requests/s: ${rate < intakeRate / 2 ? `${DIGEST_SHARE * 100} % of the digest's rate, which is below half the intake's (${fmt(intakeRate / 2)})` : "half the intake's rate"}`,
      );
      const drained = await drain(backlog, 600_000);
      if (drained === null) throw new Error("the digest did not get through the measurement's backlog within 10 minutes");
    }
    const requests = cfg.malformedPct > 0 ? await malformedRequests(fl) : [];
    const every = cfg.malformedPct > 0 ? Math.max(1, Math.round(100 / cfg.malformedPct)) : 0;
    console.log(
      `soak: ${cfg.minutes} min at ${fmt(rate)} requests/s, 1 in ${every} of them malformed (${requests.length} different ones from the corpus), ${cfg.connections} connections; sampled every ${cfg.sampleSeconds} s`,
    );
    const samples = [];
    let window = { sent: 0, ok: 0, refused: 0, failed: 0, skipped: 0, malformed: 0, valid5xx: 0 };
    const started = performance.now();
    const load = forkRun(
      path.join(root, "bench/lib/open-load.mjs"),
      { dsn: fl.dsn, origin: fl.origin, connections: cfg.connections, steps: [{ rate, seconds: cfg.minutes * 60 }], malformed: { every, requests } },
      {
        done: "result",
        onMessage: (m) => {
          if (m.type !== "second") return;
          for (const k of Object.keys(window)) window[k] += m[k] ?? 0;
          if (m.t % cfg.sampleSeconds !== 0) return;
          const b = backlog.sample();
          const s = { minute: (performance.now() - started) / 60_000, rssMB: rssMB(fl.pid), records: b.records, bytes: b.bytes, ...window };
          samples.push(s);
          console.log(
            `${fmt(s.minute, 1).padStart(5)} min  RSS ${fmt(s.rssMB).padStart(4)} MB  backlog ${fmt(s.records).padStart(6)} records  sent ${fmt(s.sent)} (ok ${fmt(s.ok)}, refused ${fmt(s.refused)}, failed ${fmt(s.failed)}, not offered ${fmt(s.skipped)}, valid 5xx ${fmt(s.valid5xx)}), malformed ${fmt(s.malformed)}`,
          );
          window = { sent: 0, ok: 0, refused: 0, failed: 0, skipped: 0, malformed: 0, valid5xx: 0 };
        },
      },
    );
    const result = await load;
    backlog.close();
    const after = samples.filter((s) => s.minute >= TARGETS.warmupMinutes);
    const at5 = after[0],
      last = samples.at(-1);
    const growthPct = at5 && last ? ((last.rssMB - at5.rssMB) / at5.rssMB) * 100 : null;
    if (after.length === 0) console.log(`\n(the run is shorter than ${TARGETS.warmupMinutes} minutes: memory growth cannot be judged)`);
    const maxAfter = after.length > 0 ? Math.max(...after.map((s) => s.rssMB)) : null;
    const maxBacklog = Math.max(...samples.map((s) => s.records));
    const valid5xx = Object.entries(result.status)
      .filter(([c]) => Number(c) >= 500)
      .reduce((n, [, k]) => n + k, 0);
    const failed = Object.entries(result.status)
      .filter(([c]) => !/^\d+$/.test(c))
      .reduce((n, [, k]) => n + k, 0);
    console.log(`\n## Soak (${cfg.minutes} min, ${fmt(rate)} requests/s offered, ${cfg.malformedPct} % malformed)\n`);
    console.log(`| measure | value | target |`);
    console.log(`| --- | ---: | --- |`);
    console.log(
      `| RSS at ${TARGETS.warmupMinutes} min / at the end / highest after ${TARGETS.warmupMinutes} min | ${fmt(at5?.rssMB)} / ${fmt(last?.rssMB)} / ${fmt(maxAfter)} MB | |`,
    );
    console.log(`| RSS growth after the first ${TARGETS.warmupMinutes} min | ${fmt(growthPct, 1)} % | < ${TARGETS.rssGrowthPct} % |`);
    console.log(`| largest backlog | ${fmt(maxBacklog)} records (${fmt(maxBacklog / rate, 1)} s of load) | bounded |`);
    console.log(
      `| valid requests: answers | ${Object.entries(result.status)
        .map(([c, n]) => `${c} × ${fmt(n)}`)
        .join(", ")} | no 5xx |`,
    );
    console.log(
      `| malformed requests: answers | ${Object.entries(result.malformedStatus)
        .map(([c, n]) => `${c} × ${fmt(n)}`)
        .join(", ")} | 4xx (or 200) |`,
    );
    for (const [code, list] of Object.entries(result.samples ?? {})) console.log(`| sample answer ${code} | ${JSON.stringify(list[0])} | |`);
    console.log(`| valid latency ms p50 / p95 / p99 | ${fmt(result.latency.p50, 2)} / ${fmt(result.latency.p95, 2)} / ${fmt(result.latency.p99, 2)} | |`);
    const ok = growthPct !== null && growthPct < TARGETS.rssGrowthPct && valid5xx === 0 && failed === 0 && maxBacklog <= rate * 10;
    console.log(`\n${ok ? "targets met" : "TARGETS MISSED"}`);
    if (!ok) process.exitCode = 1;
  } finally {
    await stopServer(fl);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
