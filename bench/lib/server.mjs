// Starts and stops the two servers under test on a fresh data dir: Faultline (`node bin/faultline.mjs start` with the
// launcher's node flags and environment, bin/faultline, SQLite, set up through its CLI and web API to get a DSN) and the ceiling
// (bench/ceiling-server.mjs).
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { freshRequest } from "./mix.mjs";
import { listenerPid, stopChild, stopOnInterrupt, waitHttp } from "./proc.mjs";

/** What is missing from a build, or null when `npm run build` has been run. */
export function missingBuild(root) {
  const missing = ["dist/cli.mjs", ".next"].filter((p) => !existsSync(path.join(root, p)));
  return missing.length ? missing : null;
}

/**
 * The launcher's settings (bin/faultline: the `faultline` command, which `npm start` and the systemd unit run): its
 * default node flags (`${FAULTLINE_NODE_FLAGS---flag …}`) and the environment it sets (`: "${NAME=value}"`).
 */
function launcher(root) {
  const text = readFileSync(path.join(root, "bin/faultline"), "utf8");
  const flags = /\$\{FAULTLINE_NODE_FLAGS-([^}]*)\}/.exec(text)?.[1].trim().split(/\s+/);
  const env = Object.fromEntries([...text.matchAll(/^: "\$\{([A-Z_][A-Z0-9_]*)=([^}]*)\}"$/gm)].map((m) => [m[1], m[2]]));
  if (!flags || Object.keys(env).length === 0) throw new Error("bin/faultline has no default node flags or environment to read");
  return { env, flags };
}

/**
 * The node flags `faultline start` runs with (the heap settings of bin/faultline), so the bench measures the server as
 * users run it. The ceiling is measured both bare and with these flags.
 */
export function startFlags(root) {
  return launcher(root).flags;
}

/** The environment bin/faultline sets (the C library's memory settings). */
export function startEnv(root) {
  return launcher(root).env;
}

/** Fails when something already listens on `port` (it would be measured instead of our server). */
async function assertPortFree(port) {
  const inUse = await new Promise((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on("error", () => resolve(false));
  });
  if (inUse) throw new Error(`port ${port} is already in use; choose another with BENCH_PORT / BENCH_CEILING_PORT`);
}

/** Spawns a node script; keeps its output (for errors) and echoes nothing unless BENCH_VERBOSE is set. */
function spawnServer(root, args, env) {
  const child = stopOnInterrupt(spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] }));
  child.output = [];
  const keep = (d) => {
    child.output.push(d.toString());
    if (child.output.length > 200) child.output.shift();
    if (process.env.BENCH_VERBOSE) process.stderr.write(d);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  return child;
}

/**
 * The line `faultline start` logs once it has dealt with its own build's browser source maps for the internal project
 * (src/server/own-sourcemaps.ts describeOwnMaps): stored, already stored, or not stored and why.
 */
export const OWN_MAPS_LINE =
  /faultline: (stored this build's \d+ browser source maps|this build's browser source maps are already stored|browser source maps not stored)/;

/** Waits until the server has logged a line matching `pattern`; throws after `timeoutMs` with its last output. */
export async function waitForOutput(child, pattern, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(child.output.join(""))) {
    if (Date.now() > deadline) throw new Error(`faultline did not log ${pattern} within ${timeoutMs} ms:\n${child.output.join("").slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The environment `faultline` runs with on `dataDir` (SQLite), listening on `port`. */
export function faultlineEnv(port, dataDir) {
  return { PORT: String(port), HOST: "127.0.0.1", FAULTLINE_URL: `http://localhost:${port}`, FAULTLINE_DATA_DIR: dataDir, DATABASE_URL: "" };
}

/** Runs a Faultline CLI command to completion; returns its stdout. */
export function cli(root, env, args) {
  try {
    return execFileSync(process.execPath, ["bin/faultline.mjs", ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
      .toString()
      .trim();
  } catch (e) {
    throw new Error(`faultline ${args[0]} failed (${e.status}): ${e.stderr?.toString().trim() || e.message}`);
  }
}

async function api(origin, token, method, p, body) {
  const r = await fetch(`${origin}/api/0${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} /api/0${p}: ${r.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/**
 * Faultline on `port` with its data in `dataDir` (SQLite, unless `env` names a DATABASE_URL): superuser + token
 * through the CLI, then an organization, team and project through the web API. Returns {child, pid, origin, dsn,
 * token, org, project, email}. `reuse` ({email, org, project, dsn} from an earlier start on the same data dir): only a
 * new token is made. `env`: more environment for the CLI and the server.
 */
export async function startFaultline(root, { port, dataDir, reuse, env: extraEnv = {} }) {
  const origin = `http://localhost:${port}`;
  const env = { ...faultlineEnv(port, dataDir), ...extraEnv };
  await assertPortFree(port);
  const email = reuse?.email ?? "bench@example.com";
  // `--password=value`: a random password may begin with "-", which `--password value` would read as an option.
  if (!reuse) cli(root, env, ["createuser", "--email", email, `--password=${randomBytes(18).toString("base64url")}`, "--superuser", "--no-input"]);
  const token = cli(root, env, ["createtoken", "--email", email, "--name", "bench"]).split("\n").pop().trim();
  // BENCH_PROFILE=<dir>: the server writes V8 CPU profiles (one per thread) there when it stops.
  const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : [];
  const child = spawnServer(root, [...startFlags(root), ...profile, "bin/faultline.mjs", "start"], { ...startEnv(root), ...env });
  try {
    await waitHttp(`${origin}/api/health`, child, 120_000);
  } catch (e) {
    await stopChild(child);
    throw new Error(`${e.message}\n${child.output.join("").slice(-2000)}`);
  }
  const pid = listenerPid(child.pid, port);
  if (reuse) return { name: "Faultline", child, pid, origin, token, email, org: reuse.org, project: reuse.project, dsn: reuse.dsn };
  const org = (await api(origin, token, "POST", "/organizations/", { name: "Bench" })).slug;
  const team = (await api(origin, token, "POST", `/organizations/${org}/teams/`, { slug: "bench" })).slug;
  const project = await api(origin, token, "POST", `/teams/${org}/${team}/projects/`, { name: "Shop", platform: "javascript" });
  const keys = await api(origin, token, "GET", `/projects/${org}/${project.slug}/keys/`);
  const dsn = keys?.[0]?.dsn?.public;
  if (!dsn) throw new Error(`no DSN in the project's keys: ${JSON.stringify(keys).slice(0, 300)}`);
  return { name: "Faultline", child, pid, origin, dsn, token, email, org, project: project.slug };
}

/**
 * The ceiling server on `port`, its SQLite file in `dataDir`, run by node with `flags` (none: a bare node, as the
 * issue defines the ceiling). Returns {child, pid, origin, dsn, settings}.
 */
export async function startCeiling(root, { port, dataDir, flags = [] }) {
  await assertPortFree(port);
  const child = spawnServer(root, [...flags, "bench/ceiling-server.mjs"], { PORT: String(port), CEILING_DB: path.join(dataDir, "ceiling.sqlite") });
  const settings = await new Promise((resolve, reject) => {
    let buf = "";
    const onData = (d) => {
      buf += d;
      const m = buf.match(/^ready (.*)$/m);
      if (m) {
        child.stdout.off("data", onData);
        resolve(JSON.parse(m[1]));
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) => reject(new Error(`ceiling server exited (${code}): ${child.output.join("").slice(-1000)}`)));
  });
  child.removeAllListeners("exit");
  return { name: "ceiling", child, pid: child.pid, origin: `http://localhost:${port}`, dsn: `http://${"0".repeat(32)}@localhost:${port}/1`, settings };
}

/** Stops a server; returns the last stats line the ceiling prints, if any. */
export async function stopServer(server) {
  const code = await stopChild(server.child);
  const stats = server.child.output.join("").match(/^stats (.*)$/m);
  return { code, stats: stats ? JSON.parse(stats[1]) : null };
}

/**
 * How far the digest lags behind the intake once the load stops: sends one marker error (timestamped now, so it is
 * the newest event) and polls the events API until it is listed. Returns {seconds} or {error}.
 */
export async function digestLag(fl, timeoutMs = 120_000) {
  const m = freshRequest(fl.dsn, "js-error");
  const sent = await fetch(fl.origin + m.path, { method: "POST", headers: m.headers, body: m.body });
  if (sent.status !== 200) return { error: `marker event answered ${sent.status}: ${(await sent.text()).slice(0, 200)}` };
  const t0 = Date.now();
  let last = "";
  while (Date.now() - t0 < timeoutMs) {
    try {
      const events = await api(fl.origin, fl.token, "GET", `/projects/${fl.org}/${fl.project}/events/`);
      if (events.some((e) => e.eventID === m.eventId)) return { seconds: (Date.now() - t0) / 1000 };
      last = `newest listed: ${events[0]?.eventID ?? "none"}`;
    } catch (e) {
      last = e.message;
      if (/: 404 /.test(last)) return { error: "events API not found (404)" };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { error: `marker not listed after ${timeoutMs / 1000} s (${last})` };
}

/** Errors the project's stats count as received (accepted) over the last day, polled until it reaches `expected`. */
export async function receivedErrors(fl, expected, timeoutMs = 30_000) {
  const t0 = Date.now();
  let n = null;
  while (Date.now() - t0 < timeoutMs) {
    const points = await api(fl.origin, fl.token, "GET", `/projects/${fl.org}/${fl.project}/stats/?stat=received`);
    n = points.reduce((sum, [, count]) => sum + count, 0);
    if (n >= expected) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return n;
}
