// GET /metrics on a real intake (the server's listener, spool and digest thread over SQLite): never open without the
// token, strictly in Prometheus' text format, and moving as real events are sent and digested.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config/env";
import { startMetricsListener } from "../../src/observability/http";
import { watchPool } from "../../src/observability/pools";
import { openDb } from "../../src/storage/db";
import { type TestIntake, startTestIntake } from "../helpers/intake";
import { pgTestUrl } from "../helpers/pg";
import { type Family, parsePrometheus, sampleSum, sampleValue } from "../helpers/prometheus";

const TOKEN = "a".repeat(16) + "0123456789abcdef0123";
let t: TestIntake;
let open: TestIntake;
before(async () => {
  t = await startTestIntake({ metricsToken: TOKEN });
  open = await startTestIntake();
});
after(async () => {
  await t.close();
  await open.close();
});

const hex = () => crypto.randomUUID().replace(/-/g, "");
const envelope = (id: string, event: object) => `${JSON.stringify({ event_id: id })}\n{"type":"event"}\n${JSON.stringify(event)}\n`;

async function scrape(origin = t.origin, token: string | null = TOKEN): Promise<Map<string, Family>> {
  const r = await fetch(`${origin}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  assert.equal(r.status, 200);
  assert.match(r.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await r.text());
}

describe("GET /metrics", () => {
  test("is 404 without a configured token, 401 without or with a wrong bearer token", async () => {
    assert.equal((await fetch(`${open.origin}/metrics`)).status, 404);
    assert.equal((await fetch(`${open.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 404);
    const none = await fetch(`${t.origin}/metrics`);
    assert.equal(none.status, 401);
    assert.match(none.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.equal((await fetch(`${t.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status, 401);
    assert.equal((await fetch(`${t.origin}/metrics`, { headers: { authorization: `Basic ${TOKEN}` } })).status, 401);
  });

  test("names follow Prometheus' conventions and the process figures are there", async () => {
    const m = await scrape();
    for (const name of m.keys()) assert.match(name, /^faultline_/, name);
    assert.ok(sampleValue(m, "faultline_process_resident_memory_bytes") > 0);
    assert.ok(m.has("faultline_nodejs_eventloop_lag_p99_seconds"));
    assert.ok(m.has("faultline_nodejs_heap_size_used_bytes"));
    for (const name of [
      "faultline_spool_backlog_records",
      "faultline_spool_backlog_bytes",
      "faultline_spool_backlog_seconds",
      "faultline_event_visible_seconds",
      "faultline_page_render_seconds",
      "faultline_notification_deliveries_total",
      "faultline_digest_lag_seconds",
    ]) {
      assert.ok(m.has(name), name);
    }
    assert.equal(m.get("faultline_event_visible_seconds")!.type, "histogram");
  });

  test("intake answers, outcomes, the digest's figures and event-to-visible latency move with real events", async () => {
    const p = t.projects[0];
    const before = await scrape();
    const ids = [hex(), hex(), hex()];
    for (const id of ids) {
      const r = await fetch(t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`), {
        method: "POST",
        body: envelope(id, { message: `metrics ${id}` }),
      });
      assert.equal(r.status, 200);
    }
    const unknown = await fetch(t.url("envelope", p, `?sentry_key=${"0".repeat(32)}&sentry_version=7`), {
      method: "POST",
      body: envelope(hex(), { message: "x" }),
    });
    assert.equal(unknown.status, 403);
    const bad = await fetch(t.url("store", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`), { method: "POST", body: "{not json" });
    assert.equal(bad.status, 400);
    for (const id of ids) await t.waitForEvent(p, id);
    await t.settle();
    const now = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => sampleSum(now, name, labels) - sampleSum(before, name, labels);

    assert.equal(delta("faultline_intake_requests_total", { endpoint: "envelope", status: "200", reason: "accepted" }), 3);
    assert.equal(delta("faultline_intake_requests_total", { endpoint: "envelope", status: "403", reason: "unknown_key" }), 1);
    assert.equal(delta("faultline_intake_requests_total", { endpoint: "store", status: "400", reason: "invalid_json" }), 1);
    assert.equal(delta("faultline_intake_outcomes_total", { category: "error", outcome: "accepted" }), 3);
    assert.equal(delta("faultline_intake_outcomes_total", { outcome: "invalid", reason: "invalid_json" }), 1);
    assert.ok(delta("faultline_digest_records_total") >= 3);
    assert.equal(delta("faultline_digest_events_total"), 3);
    assert.ok(delta("faultline_digest_batches_total") >= 1);
    assert.equal(delta("faultline_event_visible_seconds_count"), 3);
    assert.ok(delta("faultline_event_visible_seconds_sum") > 0);
    assert.ok(sampleValue(now, "faultline_digest_last_batch_timestamp_seconds") > Date.now() / 1000 - 60);
    // Caught up: nothing is behind the digest's position.
    assert.equal(sampleValue(now, "faultline_spool_backlog_records"), 0);
    assert.equal(sampleValue(now, "faultline_spool_backlog_bytes"), 0);
    assert.equal(sampleValue(now, "faultline_spool_backlog_seconds"), 0);
    assert.ok(sampleValue(now, "faultline_spool_segments") >= 1);
  });

  test("pages are timed by route, not by path", async () => {
    const before = await scrape();
    for (const issue of [1, 2]) assert.equal((await fetch(`${t.origin}/en/orgs/${t.org}/issues/${issue}`)).status, 404);
    const now = await scrape();
    const labels = { route: "/[locale]/orgs/[org]/issues/[issueId]", status_class: "4xx" };
    assert.equal(sampleValue(now, "faultline_page_render_seconds_count", labels) - sampleValue(before, "faultline_page_render_seconds_count", labels), 2);
    assert.ok(![...now.get("faultline_page_render_seconds")!.samples].some((s) => s.labels.route?.includes(t.org)));
  });

  test(
    "a database pool's connections are reported by name",
    { skip: process.env.FAULTLINE_TEST_PG_URL ? false : "FAULTLINE_TEST_PG_URL is not set" },
    async () => {
      const db = openDb({ dialect: "postgres", url: pgTestUrl(), maxConnections: 3 });
      try {
        watchPool("test", db.pool);
        const { sql } = await import("kysely");
        await sql`select 1`.execute(db.kysely);
        const m = await scrape();
        assert.equal(sampleValue(m, "faultline_db_pool_connections", { pool: "test", state: "total" }), 1);
        assert.equal(sampleValue(m, "faultline_db_pool_connections", { pool: "test", state: "idle" }), 1);
        assert.equal(sampleValue(m, "faultline_db_pool_connections", { pool: "test", state: "waiting" }), 0);
      } finally {
        watchPool("test", null);
        await db.close();
      }
    },
  );

  test("FAULTLINE_METRICS_ADDRESS: a listener of its own answers /metrics without a token, and nothing else", async () => {
    const server = await startMetricsListener({ host: "127.0.0.1", port: 0 });
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const m = await scrape(origin, null);
      assert.ok(m.has("faultline_intake_requests_total"));
      assert.equal((await fetch(`${origin}/`)).status, 404);
      assert.equal((await fetch(`${origin}/metrics`, { method: "POST" })).status, 405);
    } finally {
      await new Promise((r) => (server as http.Server).close(r));
    }
  });
});

describe("metrics configuration", () => {
  const base = { FAULTLINE_SECRET_KEY: "s".repeat(40), FAULTLINE_DATA_DIR: "/tmp/faultline-config-test" };
  test("is off by default: no token, no listener", () => {
    const c = loadConfig(base);
    assert.equal(c.metrics.token, null);
    assert.equal(c.metrics.address, null);
  });
  test("takes a token and an address, and keeps the token out of the configuration's text", () => {
    const c = loadConfig({ ...base, FAULTLINE_METRICS_TOKEN: TOKEN, FAULTLINE_METRICS_ADDRESS: "[::1]:9464" });
    assert.equal(c.metrics.token?.(), TOKEN);
    assert.deepEqual(c.metrics.address, { host: "::1", port: 9464 });
    assert.ok(!JSON.stringify(c).includes(TOKEN));
  });
  test("refuses a short token without repeating it, and an address that is not host:port", () => {
    const short = "tooshort-secret";
    assert.throws(
      () => loadConfig({ ...base, FAULTLINE_METRICS_TOKEN: short }),
      (e: unknown) => e instanceof ConfigError && /FAULTLINE_METRICS_TOKEN/.test(e.message) && !e.message.includes(short),
    );
    for (const bad of ["9464", "localhost", "127.0.0.1:0", "127.0.0.1:70000", "::1:9464"]) {
      assert.throws(
        () => loadConfig({ ...base, FAULTLINE_METRICS_ADDRESS: bad }),
        (e: unknown) => e instanceof ConfigError && /FAULTLINE_METRICS_ADDRESS/.test(e.message),
        bad,
      );
    }
  });
});
