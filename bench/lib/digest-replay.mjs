// bench:digest's replay part: the digest alone, on a spool of the mix written once. A server that does not digest
// (FAULTLINE_DIGEST=external) takes the mix at a fixed rate and is stopped; its data dir, an undigested spool and a
// database without events, is then copied for each run, and `faultline worker` (the same digest thread as the
// server's) digests it with nothing else running: no intake and no load generator compete for the two cores. Each run
// digests the same records in the same order, so what it prints, the CPU the worker's process used per record, varies
// far less than a rate under load does, and shows what a change to the digest costs or saves. On PostgreSQL
// (`server`), the spool's server writes to a database of its own, which each run copies (CREATE DATABASE … TEMPLATE).
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { Backlog } from "./backlog.mjs";
import { copiedDatabase, freshDatabase, pluck } from "./bench-db.mjs";
import { offer } from "./digest-load.mjs";
import { cpuSeconds, stopChild, stopOnInterrupt } from "./proc.mjs";
import { faultlineEnv, startEnv, startFaultline, startFlags, stopServer } from "./server.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** milliseconds between two looks at the backlog. */
const POLL_MS = 50;
/** milliseconds; a run that digests nothing for this long has failed. */
const STALL_MS = 60_000;

/**
 * A data dir under `tmp` holding `rate` requests/s of the mix for `seconds`, accepted and not digested; on PostgreSQL
 * (`server`) with its database (`database`: {url, name, drop}).
 */
export async function writeReplaySpool(root, { tmp, port, rate, seconds, connections, server = null }) {
  const dataDir = mkdtempSync(path.join(tmp, "replay-spool-"));
  const database = server ? await freshDatabase(server, "faultline_bench_replay") : null;
  const env = { FAULTLINE_DIGEST: "external", ...(database ? { DATABASE_URL: database.url } : {}) };
  const fl = await startFaultline(root, { port, dataDir, env });
  try {
    const result = await offer(root, fl, [{ rate, seconds }], { connections });
    return { dataDir, database, accepted: result.ok };
  } finally {
    await stopServer(fl);
  }
}

/**
 * One run: a copy of `spoolDir` digested by `faultline worker` until its backlog is empty. CPU is the worker process's
 * (every thread: the digest's, the garbage collector's, the checkpoint's), from the first record digested to the last.
 */
export async function replayOnce(root, { spool, server, tmp, port }) {
  const dataDir = mkdtempSync(path.join(tmp, "replay-run-"));
  cpSync(spool.dataDir, dataDir, { recursive: true });
  const database = spool.database ? await copiedDatabase(server, spool.database.name) : null;
  const backlog = new Backlog(dataDir, database?.url);
  let child = null;
  try {
    await backlog.ready;
    const records = backlog.sample().records;
    if (records === 0) throw new Error("the replay's spool holds no record: the intake accepted none of the mix");
    const env = { ...startEnv(root), ...faultlineEnv(port, dataDir), FAULTLINE_DIGEST: "external", ...(database ? { DATABASE_URL: database.url } : {}) };
    // BENCH_PROFILE=<dir>: the worker writes V8 CPU profiles (one per thread) there when it stops, as the server does.
    const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}`] : [];
    child = stopOnInterrupt(
      spawn(process.execPath, [...startFlags(root), ...profile, "bin/faultline.mjs", "worker"], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: "ignore",
      }),
    );
    let first = null;
    let lastChange = performance.now();
    let last = records;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`faultline worker exited (${child.exitCode}) with ${last} records left`);
      await sleep(POLL_MS);
      const left = backlog.sample().records;
      if (left !== last) lastChange = performance.now();
      else if (performance.now() - lastChange > STALL_MS) throw new Error(`the digest made no progress for ${STALL_MS / 1000} s (${left} records left)`);
      // The first record digested starts the clock: the worker's own start (node, migrations, the thread) is not the digest.
      if (first === null && left < records) first = { at: performance.now(), cpu: cpuSeconds(child.pid), left };
      last = left;
      if (left === 0) break;
    }
    const seconds = (performance.now() - first.at) / 1000;
    const cpu = cpuSeconds(child.pid) - first.cpu;
    const digested = first.left;
    const [events] = await pluck(path.join(dataDir, "faultline.sqlite3"), database?.url, "SELECT count(*) FROM events");
    return { records, digested, events: Number(events), seconds, perSec: digested / seconds, cpuMicrosPerRecord: (cpu * 1e6) / digested };
  } finally {
    backlog.close();
    if (child) await stopChild(child);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
