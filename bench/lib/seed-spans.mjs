// The span seeder (forked by seeded.mjs cachedSpanSet): writes N spans into a stopped Faultline's database
// (SQLite in the data dir, or PostgreSQL at `databaseUrl`) through the storage layer in bulk, as the digest stores
// transactions: one digest transaction per batch of traces, each trace a transaction event (DigestTx.insertEvents) that
// holds its child spans, its segment span the one row of spans (digest/spans.ts transactionSpans, "other-traces"), and
// the rollups made by the digest's own rollupSpans (addSpanHours). The trace view reads the children from the event.
// Transactions are a segment span with 9 child spans; 25 transaction names (20 server routes, 5 page loads with web
// vitals) with Zipf-like popularity; durations log-normal; 2% failed; spread over `spanDays` up to now.
import path from "node:path";
import { register } from "tsx/esm/api";
import { answerOnce } from "./ipc.mjs";
import { prng } from "./mix.mjs";

register();

const ROUTES = Array.from({ length: 20 }, (_, k) => `GET /api/resource-${k}`);
const PAGES = Array.from({ length: 5 }, (_, k) => `/app/page-${k}`);
const NAMES = [...ROUTES, ...PAGES];
const SPANS_PER_TRACE = 10;
const hex = (rng, n) => {
  let s = "";
  while (s.length < n)
    s += Math.floor(rng() * 0x100000000)
      .toString(16)
      .padStart(8, "0");
  return s.slice(0, n);
};

async function seed({ dataDir, databaseUrl, publicKey, spans, batch, spanDays }) {
  const { openDb } = await import("../../src/storage/db.ts");
  const { createStore } = await import("../../src/storage/kysely/index.ts");
  const { rollupSpans, transactionSpans } = await import("../../src/digest/spans.ts");
  const { hourOf } = await import("../../src/core/hours.ts");
  const db = openDb(databaseUrl ? { dialect: "postgres", url: databaseUrl } : { dialect: "sqlite", file: path.join(dataDir, "faultline.sqlite3") });
  const store = createStore(db);
  const key = await store.getIntakeKey(publicKey);
  if (!key) throw new Error(`no project key ${publicKey} in ${dataDir}`);
  const projectId = key.projectId;
  const rng = prng(7);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const traces = Math.ceil(spans / SPANS_PER_TRACE);
  const end = Date.now(),
    start = end - spanDays * 86_400_000,
    step = (end - start) / traces;
  // On PostgreSQL, a partition for each seeded day (as retention makes them for the days ahead), so that the rows go
  // straight into their day rather than into the DEFAULT partition (migration 0029). Nothing on SQLite.
  const { daysBetween } = await import("./seed-days.mjs");
  await store.ensureDayPartitions(daysBetween(start, Date.now()));
  const weights = NAMES.map((_, k) => 1 / (k + 1) ** 0.8),
    total = weights.reduce((a, b) => a + b, 0);
  const pick = () => {
    let x = rng() * total;
    for (let k = 0; k < NAMES.length; k++) if ((x -= weights[k]) <= 0) return k;
    return NAMES.length - 1;
  };
  const t0 = performance.now();
  let segmentRows = 0,
    childSpans = 0,
    lastReport = t0,
    sampleTrace = null;
  for (let from = 0; from < traces; from += batch) {
    const rows = [],
      events = [],
      values = [];
    for (let i = from; i < Math.min(traces, from + batch); i++) {
      const k = pick(),
        name = NAMES[k],
        page = k >= ROUTES.length;
      const at = start + i * step,
        traceId = hex(rng, 32),
        rootId = hex(rng, 16);
      const duration = Math.exp(Math.log(page ? 1200 : 80 + k * 10) + 0.6 * normal());
      const failed = rng() < 0.02;
      const startTime = new Date(at).toISOString(),
        receivedAt = new Date(at + duration).toISOString();
      const eventId = hex(rng, 32);
      const seconds = (ms) => Math.round(ms) / 1000;
      const children = [];
      for (let c = 1; c < SPANS_PER_TRACE; c++) {
        const offset = (duration * (c - 1)) / SPANS_PER_TRACE;
        children.push({
          span_id: hex(rng, 16),
          parent_span_id: rootId,
          trace_id: traceId,
          op: page ? "resource.script" : "db.sql.query",
          description: page ? `https://cdn.example.com/chunk-${c}.js` : `SELECT * FROM table_${c} WHERE id = ?`,
          status: "ok",
          start_timestamp: seconds(at + offset),
          timestamp: seconds(at + offset + duration / SPANS_PER_TRACE),
        });
      }
      const event = {
        event_id: eventId,
        type: "transaction",
        platform: page ? "javascript" : "node",
        transaction: name,
        start_timestamp: seconds(at),
        timestamp: seconds(at + duration),
        release: "bench@1.0.0",
        environment: "production",
        contexts: { trace: { trace_id: traceId, span_id: rootId, op: page ? "pageload" : "http.server", status: failed ? "internal_error" : "ok" } },
        spans: children,
      };
      const data = JSON.stringify(event);
      const common = { projectId, environment: "production", release: "bench@1.0.0", receivedAt };
      const expanded = transactionSpans(event, eventId, common, "other-traces").spans;
      if (expanded.length !== 1) throw new Error(`a seeded transaction should store its segment alone as a row, not ${expanded.length} spans`);
      rows.push(...expanded);
      childSpans += children.length;
      events.push({
        projectId,
        eventId,
        type: "transaction",
        receivedAt,
        timestamp: startTime,
        platform: event.platform,
        level: "info",
        title: name,
        message: "",
        culprit: name,
        release: "bench@1.0.0",
        environment: "production",
        size: data.length,
        data,
        category: "transaction",
        issueId: null,
      });
      const hour = hourOf(at);
      values.push({ projectId, metric: "duration", transaction: name, hour, value: duration, failed });
      if (page) {
        for (const [metric, median, sigma] of [
          ["lcp", 2200, 0.5],
          ["fcp", 1200, 0.5],
          ["ttfb", 300, 0.6],
          ["inp", 180, 0.7],
          ["cls", 0.08, 0.9],
        ]) {
          values.push({ projectId, metric, transaction: name, hour, value: Math.exp(Math.log(median) + sigma * normal()), failed: false });
        }
      }
      if (i === Math.floor(traces / 2)) sampleTrace = traceId;
    }
    const { hours, buckets } = rollupSpans(values);
    await store.digestTransaction(async (tx) => {
      await tx.insertEvents(events);
      await tx.insertSpans(rows);
      await tx.addSpanHours(hours, buckets);
    });
    segmentRows += rows.length;
    if (performance.now() - lastReport > 10_000) {
      lastReport = performance.now();
      process.send({ type: "progress", spans: segmentRows + childSpans, seconds: (lastReport - t0) / 1000 });
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const count = Number(
    (
      await db.kysely
        .selectFrom("spans")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("project_id", "=", projectId)
        .executeTakeFirstOrThrow()
    ).n,
  );
  await db.close();
  // Spans stored: the segment rows and the children their transaction events hold.
  return { seconds, spans: count + childSpans, spanRows: count, sampleTrace };
}

answerOnce(async (cfg) => ({ type: "done", ...(await seed(cfg)) }));
