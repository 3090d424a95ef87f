// Two production Faultline nodes (`node bin/faultline.mjs start`, each with its own data dir, spool and digest) on
// one PostgreSQL, behind Debian's nginx as the load balancer, all on loopback (README, "Several nodes"); started by
// scripts/test.sh after the production build. Requests are SDK-like envelopes over HTTP; every wait is for a
// condition, with a deadline, and nothing is asserted about time.
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import { type Cluster, NGINX_FAIL_TIMEOUT_S, errorEnvelope, nginxRuns, sendEnvelope, startCluster, stopNode } from "../../bench/lib/cluster.mjs";
import { missingBuild } from "../../bench/lib/server.mjs";
import { signInCookie } from "../../bench/lib/page-timing.mjs";
import { freshPgDatabase } from "../helpers/pg";
import { Load, stopLoads, waitFor } from "./load";

const root = path.resolve(import.meta.dirname, "../..");
const skip = missingBuild(root)
  ? "needs the production build (npm run build)"
  : !nginxRuns()
    ? "nginx is not installed (scripts/test.sh installs Debian's nginx)"
    : !process.env.FAULTLINE_TEST_PG_URL
      ? "FAULTLINE_TEST_PG_URL is not set"
      : false;

describe("two nodes on one PostgreSQL behind nginx", { skip, timeout: 20 * 60_000 }, () => {
  let c: Cluster;
  let db: pg.Pool;
  let drop: () => Promise<void>;
  let work: string;
  const hooks: { issueId: string; key: string }[] = [];
  let receiver: http.Server;

  before(async () => {
    const fresh = await freshPgDatabase(`cluster_${randomBytes(4).toString("hex")}`);
    drop = fresh.drop;
    db = new pg.Pool({ connectionString: fresh.url, max: 2 });
    work = mkdtempSync(path.join(os.tmpdir(), "faultline-cluster-"));
    // The webhook receiver of the alert rule below: each delivery's issue and idempotency key.
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        hooks.push({ issueId: String((JSON.parse(body) as { id?: unknown }).id), key: String(req.headers["idempotency-key"]) });
        res.end("ok");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    c = await startCluster(root, { workDir: work, databaseUrl: fresh.url });
    await db.query(
      "insert into instance_settings (key, value, created_at) values ('notification_allowed_hosts', '127.0.0.1', now()::text) on conflict (key) do update set value = excluded.value",
    );
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    await c.api("POST", `/projects/${c.org}/${c.project}/rules/`, {
      name: "new issue → webhook",
      actionMatch: "any",
      filterMatch: "all",
      frequency: 5,
      environment: null,
      conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }],
      filters: [],
      actions: [{ id: "sentry.rules.actions.notify_event_service.NotifyEventServiceAction", service: "webhooks", url }],
    });
  });

  after(async () => {
    await stopLoads();
    await c?.stop();
    await new Promise((r) => receiver?.close(r));
    await db?.end();
    await drop?.();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Events of these ids stored, by event id: their issue. */
  async function stored(eventIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let i = 0; i < eventIds.length; i += 1000) {
      const r = await db.query<{ event_id: string; issue_id: number }>("select event_id, issue_id from events where project_id = $1 and event_id = any($2)", [
        c.projectId,
        eventIds.slice(i, i + 1000),
      ]);
      for (const row of r.rows) out.set(row.event_id, row.issue_id);
    }
    return out;
  }

  test("the first event of a new issue at both nodes at once: one issue, every event in it, counts and users exact", async () => {
    for (let round = 0; round < 5; round++) {
      const envelopes = Array.from({ length: 10 }, (_, i) =>
        errorEnvelope(c.publicKey, { type: `RaceError${round}`, value: "both nodes at once", user: `user-${i % 3}` }),
      );
      const statuses = await Promise.all(envelopes.map((e, i) => sendEnvelope(c.nodes[i % 2]!.origin, c.projectId, e)));
      assert.deepEqual(
        statuses,
        envelopes.map(() => 200),
      );
      const ids = envelopes.map((e) => e.eventId);
      const found = await waitFor(`round ${round}'s events stored`, async () => ((await stored(ids)).size === ids.length ? stored(ids) : null));
      const issues = new Set(found.values());
      assert.equal(issues.size, 1, `round ${round}: one issue (${[...issues].join(", ")})`);
      const [issueId] = issues;
      const row = (await db.query("select times_seen, user_count from issues where id = $1", [issueId])).rows[0];
      assert.equal(Number(row.times_seen), 10);
      assert.equal(Number(row.user_count), 3);
      const sameTitle = await db.query("select count(*)::int as n from issues where project_id = $1 and title like $2", [c.projectId, `RaceError${round}%`]);
      assert.equal(sameTitle.rows[0].n, 1);
    }
  });

  test("the alert rule's webhook goes out once per new issue, whichever node digested it and with both senders running", async () => {
    const issues = (await db.query<{ id: number }>("select id from issues where project_id = $1", [c.projectId])).rows.map((r) => String(r.id));
    assert.ok(issues.length >= 5);
    await waitFor("every new issue's webhook", async () => issues.every((id) => hooks.some((h) => h.issueId === id)) || null);
    await waitFor(
      "the outbox empty",
      async () => (await db.query("select count(*)::int as n from notifications where status = 'pending'")).rows[0].n === 0 || null,
    );
    for (const id of issues) assert.equal(hooks.filter((h) => h.issueId === id).length, 1, `issue ${id}: one delivery`);
    assert.equal(new Set(hooks.map((h) => h.key)).size, hooks.length, "no idempotency key twice");
  });

  test("a session signed in through the proxy is valid on each node, and the live stream of one shows an issue the other digested", async () => {
    const cookie = await signInCookie(c.proxy.origin, "", c.email, c.password);
    const newest = Number((await db.query("select coalesce(max(id), 0) as id from issues where project_id = $1", [c.projectId])).rows[0].id);
    const streamPath = `/api/internal/orgs/${c.org}/issues/stream?after=${newest}&ids=`;
    for (const node of c.nodes) {
      const r = await fetch(`${node.origin}${streamPath}`, { headers: { cookie }, signal: AbortSignal.timeout(30_000) });
      assert.equal(r.status, 200, `${node.name} knows the session`);
      assert.match(r.headers.get("content-type") ?? "", /^text\/event-stream/);
      await r.body?.cancel();
    }
    const controller = new AbortController();
    const stream = await fetch(`${c.nodes[1]!.origin}${streamPath}`, { headers: { cookie }, signal: controller.signal });
    const reader = stream.body!.getReader();
    let text = "";
    const sawNew = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return false;
        text += new TextDecoder().decode(value);
        const m = /event: new\ndata: (\{[^\n]*\})/.exec(text.slice(text.lastIndexOf("event: new")));
        if (m && (JSON.parse(m[1]!) as { count: number }).count >= 1) return true;
      }
    })();
    assert.equal(await sendEnvelope(c.nodes[0]!.origin, c.projectId, errorEnvelope(c.publicKey, { type: "LiveError", value: "digested by node 1" })), 200);
    const seen = await Promise.race([sawNew, new Promise<false>((r) => setTimeout(() => r(false), 60_000))]);
    controller.abort();
    assert.equal(seen, true, `node 2's stream announced the new issue: ${text.slice(-500)}`);
  });

  test("quotas hold across nodes: a key's quota used up on one node is refused by the other", async (t) => {
    const key = (await c.api("POST", `/projects/${c.org}/${c.project}/keys/`, { name: "quota" })) as { id: string; public: string };
    await c.api("PUT", `/projects/${c.org}/${c.project}/keys/${key.id}/`, { rateLimit: { count: 20, window: 86_400 } });
    const send = (i: number) => sendEnvelope(c.nodes[i]!.origin, c.projectId, errorEnvelope(key.public, { type: "QuotaError" }));
    for (let i = 0; i < 15; i++) assert.equal(await send(0), 200);
    // Alone, node 2 would accept 20 more; sharing the count, it stops at the quota's remaining 5 or just past it.
    let acceptedBy2 = 0;
    await waitFor("node 2 refusing", async () => {
      const status = await send(1);
      if (status === 200) acceptedBy2++;
      await new Promise((r) => setTimeout(r, 300));
      return status === 429 || null;
    });
    assert.ok(acceptedBy2 < 20, `node 2 accepted ${acceptedBy2}`);
    t.diagnostic(`node 1 accepted 15 of the quota's 20, node 2 then ${acceptedBy2}`);
    await waitFor("node 1 refusing too", async () => ((await send(0)) === 429 ? true : (await new Promise((r) => setTimeout(r, 300)), null)));
  });

  test("kill -9 of a node under load: everything either node acknowledged is stored once it is back", async (t) => {
    const load = new Load(c, [c.proxy.origin, c.nodes[1]!.origin]);
    await waitFor("load under way", async () => load.acknowledged.length >= 300 || null);
    await stopNode(c.nodes[1]!, { kill: true });
    const atKill = [...load.acknowledged];
    await waitFor("more load through the other node", async () => load.acknowledged.length >= atKill.length + 200 || null);
    await load.stop();
    const undigested = atKill.length - (await stored(atKill)).size;
    await c.restart(1);
    const ids = load.acknowledged;
    await waitFor(
      `all ${ids.length} acknowledged events stored (${undigested} were in the killed node's spool or digest)`,
      async () => ((await stored(ids)).size === ids.length ? true : null),
      180_000,
    );
    t.diagnostic(
      `${ids.length} acknowledged, ${undigested} of those before the kill still not stored while the node was down, all stored after its restart; not acknowledged: ${JSON.stringify(Object.fromEntries(load.refused))}`,
    );
  });

  test("a dead node's spool and staged uploads moved to an empty data dir and digested there by `faultline worker` (README): nothing acknowledged lost", async (t) => {
    // Node 2 runs its intake only (FAULTLINE_DIGEST=external, no worker), so everything it acknowledges waits in its spool.
    await stopNode(c.nodes[1]!);
    await c.restart(1, { FAULTLINE_DIGEST: "external" });
    const load = new Load(c, [c.nodes[1]!.origin]);
    await waitFor("load under way", async () => load.acknowledged.length >= 200 || null);
    // An upload too: its file waits in the node's staging folder, which its spool record names.
    const file = randomBytes(3000).toString("hex");
    const form = new FormData();
    form.append("log", new Blob([file]), "moved.txt");
    const upload = await fetch(`${c.nodes[1]!.origin}/api/${c.projectId}/events/${load.acknowledged[0]}/attachments/?sentry_key=${c.publicKey}`, {
      method: "POST",
      body: form,
    });
    assert.equal(upload.status, 201, await upload.text());
    await stopNode(c.nodes[1]!, { kill: true });
    await load.stop();
    const ids = load.acknowledged;
    assert.equal((await stored(ids)).size, 0, "nothing digested yet");
    // The dead node's disk: its spool and staged uploads copied to another data dir (README), then gone.
    const deadDir = c.nodeEnv(1).FAULTLINE_DATA_DIR!;
    const moved = path.join(work, "moved-spool");
    for (const folder of ["spool", path.join("attachments", "incoming")]) cpSync(path.join(deadDir, folder), path.join(moved, folder), { recursive: true });
    rmSync(deadDir, { recursive: true, force: true });
    const worker = spawn(process.execPath, ["bin/faultline.mjs", "worker"], {
      cwd: root,
      env: { ...process.env, ...c.nodeEnv(1), FAULTLINE_DATA_DIR: moved },
      stdio: "ignore",
    });
    const exited = new Promise<number | null>((r) => worker.once("exit", (code) => r(code)));
    try {
      await waitFor(
        `all ${ids.length} acknowledged events stored by the worker on the moved spool`,
        async () => ((await stored(ids)).size === ids.length ? true : null),
        180_000,
      );
    } finally {
      worker.kill("SIGTERM");
    }
    assert.equal(await exited, 0);
    const attachment = await db.query<{ name: string; size: string; sha1: string }>(
      "select name, size::text as size, sha1 from event_attachments where project_id = $1 and event_id = $2",
      [c.projectId, load.acknowledged[0]],
    );
    assert.deepEqual(
      attachment.rows,
      [{ name: "moved.txt", size: String(file.length), sha1: createHash("sha1").update(file).digest("hex") }],
      "the upload's file, staged by the dead node, stored from the moved data dir",
    );
    t.diagnostic(`${ids.length} acknowledged by the killed node and an upload, all digested from the moved spool`);
    // The node comes back on an empty data dir: a spool of its own.
    await c.restart(1);
  });

  test("a rolling restart under load: each node stopped and started in turn, nothing acknowledged lost and no request failed", async (t) => {
    const load = new Load(c, [c.proxy.origin]);
    for (const i of [0, 1]) {
      const before = load.acknowledged.length;
      await waitFor("load under way", async () => load.acknowledged.length >= before + 100 || null);
      assert.equal(await stopNode(c.nodes[i]!), 0, `node ${i + 1} stopped cleanly`);
      await c.restart(i);
      // As README "Restarts" says: nginx takes the node back once its fail_timeout has passed since it refused a connection.
      await new Promise((r) => setTimeout(r, NGINX_FAIL_TIMEOUT_S * 1000 + 500));
    }
    const last = load.acknowledged.length;
    await waitFor("load after the restarts", async () => load.acknowledged.length >= last + 100 || null);
    await load.stop();
    const ids = load.acknowledged;
    await waitFor(`all ${ids.length} acknowledged events stored`, async () => ((await stored(ids)).size === ids.length ? true : null), 180_000);
    t.diagnostic(`${ids.length} acknowledged, all stored; not acknowledged: ${JSON.stringify(Object.fromEntries(load.refused))}`);
    // A stopping node refuses new connections and answers what nginx still sends on its kept-alive ones
    // (server/http-server.ts closeHttpServer): nginx sends the rest to the other node, and no request fails.
    assert.deepEqual(Object.fromEntries(load.refused), {}, "no request failed during the restarts");
  });
});
