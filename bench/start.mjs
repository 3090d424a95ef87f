// `npm run bench:start`: cold start to first page (issue 22: ≤ 0.6 s). Each run spawns `faultline start` as users run it
// (bin/faultline's node flags and environment, SQLite) on an empty data dir and times, from the spawn, the first
// answer of GET / (a fresh instance's first page: the redirect to the setup page, followed to its HTML, read to its
// last byte). So a cold start counts node's own start, loading the server, making the database (every migration) and
// rendering the first page. A warm start is the same on the data dir the cold run left (its database made). The
// baseline, in the same run: a bare node that starts an HTTP server and answers the same way, timed alike.
// Runs alternate cold, warm and baseline, so the machine's noise falls on each alike; figures are medians with min–max.
// Needs a build (`npm run build`). Settings (env or --flag=value): BENCH_RUNS (5), BENCH_PORT (9320), BENCH_JSON.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stopChild, stopOnInterrupt } from "./lib/proc.mjs";
import { faultlineEnv, missingBuild, startEnv, startFlags } from "./lib/server.mjs";
import { opt } from "./lib/options.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Number(opt("RUNS", 5));
const PORT = Number(opt("PORT", 9320));
const TARGET_MS = 600;
const fmt = (n, d = 0) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });

// The baseline: node, an HTTP server, and one HTML page: what any Node web server costs before its own work.
const BARE = `require("node:http").createServer((q, s) => { s.setHeader("content-type", "text/html"); s.end("<!doctype html><p>ok"); }).listen(Number(process.env.PORT), "127.0.0.1");`;

/** Milliseconds from now until GET `url` (redirects followed) answers 200 with its whole body; polls every 5 ms. */
async function firstPage(url, child, t0) {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before answering`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      const body = await r.text();
      if (r.status === 200 && /<html|<!doctype/i.test(body)) return { ms: performance.now() - t0, url: r.url, bytes: body.length };
      if (r.status >= 500) throw new Error(`GET ${url}: ${r.status}`);
    } catch (e) {
      if (e.message?.startsWith("GET ")) throw e;
    }
    if (performance.now() - t0 > 60_000) throw new Error(`GET ${url}: no page within 60 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** One start: spawns `args` with `env`, times the first page, stops the server. */
async function timeStart(args, env) {
  const t0 = performance.now();
  const child = stopOnInterrupt(spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] }));
  const output = [];
  child.stdout.on("data", (d) => output.push(d));
  child.stderr.on("data", (d) => output.push(d));
  try {
    return await firstPage(`http://127.0.0.1:${PORT}/`, child, t0);
  } catch (e) {
    throw new Error(`${e.message}\n${Buffer.concat(output).toString().slice(-2000)}`);
  } finally {
    await stopChild(child);
  }
}

const missing = missingBuild(root);
if (missing) {
  console.error(`bench:start needs a build: ${missing.join(", ")} missing; run \`npm run build\` first`);
  process.exit(1);
}
const server = [...startFlags(root), "bin/faultline.mjs", "start"];
const times = { cold: [], warm: [], baseline: [] };
let page = null;
for (let i = 0; i < RUNS; i++) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "faultline-bench-start-"));
  try {
    const env = { ...startEnv(root), ...faultlineEnv(PORT, dataDir) };
    const cold = await timeStart(server, env);
    page = cold;
    times.cold.push(cold.ms);
    times.warm.push((await timeStart(server, env)).ms);
    times.baseline.push((await timeStart(["-e", BARE], { PORT: String(PORT) })).ms);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const figures = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs }]));
console.log(`${RUNS} runs each, alternated; first page: ${new URL(page.url).pathname} (${fmt(page.bytes)} bytes of HTML)`);
for (const [k, f] of Object.entries(figures))
  console.log(
    `  ${k.padEnd(8)} median ${fmt(f.median)} ms (min ${fmt(f.min)}, max ${fmt(f.max)})${k === "baseline" ? "" : `  = ${fmt(f.median / figures.baseline.median, 1)}× baseline`}${k === "cold" ? `; target ≤ ${fmt(TARGET_MS)} ms: ${f.median <= TARGET_MS ? "met" : "MISSED"}` : ""}`,
  );
if (opt("JSON", "")) writeFileSync(opt("JSON", ""), JSON.stringify({ runs: RUNS, firstPage: page.url, figures }, null, 2) + "\n");
