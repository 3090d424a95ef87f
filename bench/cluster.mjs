// `npm run bench:cluster`: one node against two nodes on this machine, each behind Debian's nginx on one PostgreSQL
// (README, "Several nodes"), the load generator on the same machine. For each, BENCH_RUNS (3) runs of BENCH_SECONDS
// (20) of closed-loop load (BENCH_CONCURRENCY, 16, requests in flight through nginx: error envelopes spread over 100
// issues): accepted events/s (answered 200) and digested events/s (stored, from the load's start until the last
// accepted event is in the database). Then the ratio two nodes / one node, and the ceiling: bare PostgreSQL inserts
// per second on this machine (pgbench with a one-INSERT script, when Debian's pgbench is installed, and an INSERT loop
// of event-sized rows from node-postgres, one row per statement and 500 per transaction as the digest writes).
// Needs the production build (npm run build) and FAULTLINE_TEST_PG_URL (scripts/pg.sh start prints one).
import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { errorEnvelope, startCluster } from "./lib/cluster.mjs";
import { missingBuild } from "./lib/server.mjs";

const root = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PG_URL = process.env.FAULTLINE_TEST_PG_URL ?? process.env.BENCH_PG_URL;

async function freshDatabase(name) {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

/** Closed-loop load through `origin` for `seconds`: the ids answered 200 and the count of other answers. */
async function load(cluster, seconds) {
  const target = new URL(cluster.proxy.origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const accepted = [];
  let refused = 0;
  const until = Date.now() + seconds * 1000;
  let n = 0;
  const post = (e) =>
    new Promise((resolve) => {
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: "POST",
          path: `/api/${cluster.projectId}/envelope/`,
          headers: { ...e.headers, "content-length": Buffer.byteLength(e.body) },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode));
        },
      );
      req.on("error", () => resolve(0));
      req.end(e.body);
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const e = errorEnvelope(cluster.publicKey, { type: `BenchError${n++ % 100}`, value: "cluster bench", user: `user-${n % 1000}` });
        if ((await post(e)) === 200) accepted.push(e.eventId);
        else refused++;
      }
    }),
  );
  agent.destroy();
  return { accepted, refused };
}

async function storedCount(db, projectId) {
  return Number((await db.query("select count(*) as n from events where project_id = $1", [projectId])).rows[0].n);
}

async function runConfig(nodes) {
  const fresh = await freshDatabase(`bench_cluster_${randomBytes(4).toString("hex")}`);
  const work = mkdtempSync(path.join(os.tmpdir(), "faultline-bench-cluster-"));
  const db = new pg.Pool({ connectionString: fresh.url, max: 1 });
  let cluster;
  const runs = [];
  try {
    cluster = await startCluster(root, { workDir: work, databaseUrl: fresh.url, count: nodes, env: { FAULTLINE_SELF_MONITORING: "0" } });
    for (let run = 1; run <= RUNS; run++) {
      const before = await storedCount(db, cluster.projectId);
      const t0 = Date.now();
      const { accepted, refused } = await load(cluster, SECONDS);
      const loadSeconds = (Date.now() - t0) / 1000;
      const deadline = Date.now() + 300_000;
      while ((await storedCount(db, cluster.projectId)) - before < accepted.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const digestSeconds = (Date.now() - t0) / 1000;
      const stored = (await storedCount(db, cluster.projectId)) - before;
      const r = { accepted: accepted.length / loadSeconds, digested: stored / digestSeconds, refused, missing: accepted.length - stored };
      runs.push(r);
      console.log(
        `  ${nodes} node${nodes > 1 ? "s" : ""}, run ${run}: accepted ${r.accepted.toFixed(0)} events/s, digested ${r.digested.toFixed(0)} events/s (all ${accepted.length} stored after ${digestSeconds.toFixed(1)} s), ${refused} not accepted${r.missing ? `, ${r.missing} MISSING` : ""}`,
      );
    }
  } finally {
    await cluster?.stop();
    await db.end();
    await fresh.drop();
    rmSync(work, { recursive: true, force: true });
  }
  return runs;
}

/** Median and spread (min–max) of a figure over the runs. */
function spread(values) {
  const s = [...values].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return {
    median,
    min: s[0],
    max: s[s.length - 1],
    text: `${median.toFixed(0)} (${s[0].toFixed(0)}–${s[s.length - 1].toFixed(0)}, ±${(((s[s.length - 1] - s[0]) / 2 / median) * 100).toFixed(0)} %)`,
  };
}

/** Bare INSERTs into PostgreSQL from this machine: event-sized rows, one per statement and 500 per transaction. */
async function insertCeiling() {
  const fresh = await freshDatabase(`bench_ceiling_${randomBytes(4).toString("hex")}`);
  const out = {};
  try {
    const setup = new pg.Client({ connectionString: fresh.url });
    await setup.connect();
    await setup.query(
      "create table t (id bigserial primary key, project_id int not null, event_id text not null, received_at text not null, data bytea not null, unique (project_id, event_id))",
    );
    await setup.end();
    const data = randomBytes(700);
    for (const [label, perTx, clients] of [
      ["one row per INSERT, 4 connections", 1, 4],
      ["500 rows per transaction, 2 connections", 500, 2],
    ]) {
      const rates = [];
      for (let run = 0; run < RUNS; run++) {
        const until = Date.now() + 5000;
        let rows = 0;
        const t0 = Date.now();
        await Promise.all(
          Array.from({ length: clients }, async () => {
            const c = new pg.Client({ connectionString: fresh.url });
            await c.connect();
            while (Date.now() < until) {
              if (perTx === 1)
                await c.query("insert into t (project_id, event_id, received_at, data) values (1, $1, $2, $3)", [randomUUID(), new Date().toISOString(), data]);
              else {
                const values = [];
                const params = [];
                for (let i = 0; i < perTx; i++) {
                  values.push(`(1, $${i * 3 + 1}, $${i * 3 + 2}, $${i * 3 + 3})`);
                  params.push(randomUUID(), new Date().toISOString(), data);
                }
                await c.query("begin");
                await c.query(`insert into t (project_id, event_id, received_at, data) values ${values.join(", ")}`, params);
                await c.query("commit");
              }
              rows += perTx;
            }
            await c.end();
          }),
        );
        rates.push(rows / ((Date.now() - t0) / 1000));
      }
      out[label] = spread(rates);
    }
    const pgbench = ["/usr/bin/pgbench", ...["15", "16", "17"].map((v) => `/usr/lib/postgresql/${v}/bin/pgbench`)].find((p) => existsSync(p));
    if (pgbench) {
      const u = new URL(fresh.url);
      const env = { ...process.env, PGPASSWORD: decodeURIComponent(u.password) };
      const conn = ["-h", u.hostname, "-p", u.port || "5432", "-U", decodeURIComponent(u.username)];
      const db = u.pathname.slice(1);
      spawnSync(pgbench, [...conn, "-i", "-q", "-s", "1", db], { env, encoding: "utf8" });
      const script = path.join(mkdtempSync(path.join(os.tmpdir(), "faultline-pgbench-")), "insert.sql");
      writeFileSync(script, "insert into pgbench_history (tid, bid, aid, delta, mtime) values (1, 1, :client_id, 1, now());\n");
      const rates = [];
      for (let run = 0; run < RUNS; run++) {
        const r = spawnSync(pgbench, [...conn, "-n", "-f", script, "-c", "4", "-j", "2", "-T", "5", db], { env, encoding: "utf8" });
        const tps = Number(/tps = ([\d.]+)/.exec(r.stdout)?.[1]);
        if (Number.isFinite(tps)) rates.push(tps);
      }
      rmSync(path.dirname(script), { recursive: true, force: true });
      if (rates.length) out["pgbench, one INSERT per transaction, 4 clients"] = spread(rates);
    }
  } finally {
    await fresh.drop();
  }
  return out;
}

async function main() {
  const missing = missingBuild(root);
  if (missing) throw new Error(`run npm run build first (missing ${missing.join(", ")})`);
  if (!PG_URL) throw new Error("set FAULTLINE_TEST_PG_URL to a PostgreSQL URL whose user may create databases (scripts/pg.sh start prints one)");
  console.log(
    `bench:cluster on ${os.cpus().length} cores: ${RUNS} runs of ${SECONDS} s, ${CONCURRENCY} requests in flight through nginx, the load generator on this machine`,
  );
  const one = await runConfig(1);
  const two = await runConfig(2);
  const a1 = spread(one.map((r) => r.accepted));
  const a2 = spread(two.map((r) => r.accepted));
  const d1 = spread(one.map((r) => r.digested));
  const d2 = spread(two.map((r) => r.digested));
  console.log("\nevents/s, median (min–max, ± half the spread)");
  console.log(`  accepted:  one node ${a1.text}   two nodes ${a2.text}   ratio ${(a2.median / a1.median).toFixed(2)}`);
  console.log(`  digested:  one node ${d1.text}   two nodes ${d2.text}   ratio ${(d2.median / d1.median).toFixed(2)}`);
  const missing2 = [...one, ...two].reduce((n, r) => n + r.missing, 0);
  if (missing2) console.log(`  ${missing2} accepted events were not stored within 5 minutes`);
  console.log("\nceiling: bare PostgreSQL on this machine, rows/s");
  for (const [label, s] of Object.entries(await insertCeiling())) console.log(`  ${label}: ${s.text}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
