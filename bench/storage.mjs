// `npm run bench:storage`: bytes on disk per stored event, and the CPU the events.data codec costs. Digests N
// browser errors (lib/browser-error.mjs, ~5 KB each as @sentry/browser sends them) through the digest's own path
// (items.ts digestRows, commit.ts writeBatch) into a fresh SQLite file, then prints the file's growth per event
// (page count × page size, WAL checkpointed), the events table and its indexes alone (dbstat), every other table and
// index that grew (the rest: users, traces, tag values), and the codec's microseconds per event. Runs from source: node --import tsx bench/storage.mjs
// Settings (env or --flag=value): BENCH_EVENTS (10000), BENCH_PAGE_SIZE (SQLite's default), BENCH_JSON (path for the figures).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { RETENTION_LIMITS } from "../src/config/limits.ts";
import { writeBatch } from "../src/digest/commit.ts";
import { digestRows } from "../src/digest/items.ts";
import { openDb } from "../src/storage/db.ts";
import { decodeEventData, EVENT_DEFLATE_LEVEL, encodeEventData } from "../src/storage/event-codec.ts";
import { createStore } from "../src/storage/kysely/index.ts";
import { migrateToLatest } from "../src/storage/migrate.ts";
import { browserErrorEvent } from "./lib/browser-error.mjs";
import { prng } from "./lib/mix.mjs";
import { browserError, pythonError } from "./lib/payloads.mjs";
import { TARGETS } from "./lib/digest-report.mjs";
import { opt } from "./lib/options.mjs";

const N = Number(opt("EVENTS", 10_000));
const pageSize = opt("PAGE_SIZE", "");
const fmt = (n, d = 0) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Best of five passes over `items`, in microseconds per item: the machine is shared, the best pass is the codec's cost. */
function micros(items, f) {
  for (const x of items) f(x);
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    for (const x of items) f(x);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1000 / items.length);
  }
  return best;
}

/** Milliseconds of five runs of `f`, sorted. */
async function timings(f) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t = process.hrtime.bigint();
    await f();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

/** Milliseconds per retention step of RETENTION_LIMITS.chunkRows events by age (every event is old a year from now). */
async function pruneChunks(store) {
  const cutoff = new Date(Date.now() + 365 * 86_400_000).toISOString();
  const times = await timings(() => store.pruneEventsBefore(cutoff, RETENTION_LIMITS.chunkRows));
  return { rows: RETENTION_LIMITS.chunkRows, median: times[2], max: times[4] };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "faultline-bench-storage-"));
const file = path.join(dir, "faultline.sqlite3");
if (pageSize) {
  // Only a database without pages takes a new page size.
  const { default: SQLite } = await import("better-sqlite3");
  const raw = new SQLite(file);
  raw.pragma(`page_size = ${Number(pageSize)}`);
  raw.exec("vacuum");
  raw.close();
}
const db = openDb({ dialect: "sqlite", file });
try {
  await migrateToLatest(db);
  const store = createStore(db);
  const now = new Date().toISOString();
  await db.kysely
    .insertInto("users")
    .values({ id: "bench", name: "Bench", email: "bench@example.com", email_verified: 0, image: null, created_at: now, updated_at: now, is_superuser: 1 })
    .execute();
  const org = await store.createOrganization({ slug: "bench", name: "Bench", ownerUserId: "bench" });
  const project = await store.createProject({ organizationId: org.id, teamId: null, slug: "web", name: "Web", platform: "javascript" });

  const sqlite = (q) => db.kysely.executeQuery({ sql: q, parameters: [], query: { kind: "RawNode" } }).then((r) => r.rows);
  const fileBytes = async () => {
    await sqlite("pragma wal_checkpoint(TRUNCATE)");
    const [{ page_count }] = await sqlite("pragma page_count");
    const [{ page_size }] = await sqlite("pragma page_size");
    return { bytes: page_count * page_size, pageSize: page_size };
  };
  const eventsBytes = async () => {
    const rows = await sqlite("select name, sum(pgsize) as bytes, sum(unused) as unused from dbstat group by name");
    const names = new Set([
      "events",
      "events_project_event_id_key",
      "events_project_id_id_idx",
      "events_issue_id_idx",
      "events_project_release_idx",
      "events_project_received_idx",
    ]);
    const mine = rows.filter((r) => names.has(r.name) || /^sqlite_autoindex_events_/.test(r.name));
    return { bytes: mine.reduce((a, r) => a + r.bytes, 0), byName: Object.fromEntries(mine.map((r) => [r.name, { bytes: r.bytes, unused: r.unused }])) };
  };

  const allBytes = async () => Object.fromEntries((await sqlite("select name, sum(pgsize) as bytes from dbstat group by name")).map((r) => [r.name, r.bytes]));
  const before = await fileBytes();
  const eventsBefore = await eventsBytes();
  const allBefore = await allBytes();
  const rng = prng(20261123);
  const t0 = Date.now() / 1000 - 3600;
  const payloads = [];
  let position = 0;
  for (let done = 0; done < N; ) {
    const rows = [];
    for (let i = 0; i < 500 && done < N; i++, done++) {
      const event = browserErrorEvent(rng, t0 + done * 0.3);
      const payload = Buffer.from(JSON.stringify(event));
      payloads.push(payload.length);
      rows.push({
        kind: "item",
        id: ++position,
        projectId: project.id,
        keyId: 1,
        receivedAt: (t0 + done * 0.3) * 1000,
        itemType: "event",
        eventId: event.event_id,
        headers: "{}",
        meta: JSON.stringify({ client_ip: "203.0.113.9" }),
        payload,
      });
    }
    const { events, rawItems, outcomes } = await digestRows(rows);
    await writeBatch(store, { spoolId: "bench", position, events, rawItems, outcomes });
  }
  const after = await fileBytes();
  const eventsAfter = await eventsBytes();
  const allAfter = await allBytes();
  const stored = await db.kysely.selectFrom("events").select(["data", "size"]).execute();
  const json = stored.map((r) => decodeEventData(r.data));
  const sample = json.slice(0, 500);
  const encoded = sample.map((j) => encodeEventData(j));

  // Cross-checks: events that did not shape the codec's dictionary (bench:ingest's pools), compressed alone.
  const other = async (make) => {
    const out = [];
    const r = prng(5);
    for (let i = 0; i < 200; i++) {
      const made = make(r, "k", t0);
      const event = Array.isArray(made) ? made[1][0][1] : made;
      event.event_id = "a".repeat(32);
      const { events } = await digestRows([
        {
          kind: "item",
          id: i + 1,
          projectId: project.id,
          keyId: 1,
          receivedAt: t0 * 1000,
          itemType: "event",
          eventId: event.event_id,
          headers: "{}",
          meta: "{}",
          payload: Buffer.from(JSON.stringify(event)),
        },
      ]);
      out.push({ sent: JSON.stringify(event).length, json: events[0].size, stored: encodeEventData(events[0].data).length });
    }
    return { sent: avg(out.map((o) => o.sent)), json: avg(out.map((o) => o.json)), stored: avg(out.map((o) => o.stored)) };
  };
  const figures = {
    events: N,
    pageSize: after.pageSize,
    deflateLevel: EVENT_DEFLATE_LEVEL,
    sentBytes: avg(payloads),
    jsonBytes: avg(stored.map((r) => r.size)),
    dataBytes: avg(stored.map((r) => r.data.length)),
    diskBytesPerEvent: (after.bytes - before.bytes) / N,
    eventsTableBytesPerEvent: (eventsAfter.bytes - eventsBefore.bytes) / N,
    eventsObjectsPerEvent: Object.fromEntries(Object.entries(eventsAfter.byName).map(([k, v]) => [k, { bytes: v.bytes / N, unused: v.unused / N }])),
    otherObjectsPerEvent: Object.fromEntries(
      Object.entries(allAfter)
        .map(([k, v]) => [k, (v - (allBefore[k] ?? 0)) / N])
        .filter(([k, v]) => v > 0 && !(k in eventsAfter.byName))
        .sort((a, b) => b[1] - a[1]),
    ),
    encodeMicros: micros(sample, encodeEventData),
    decodeMicros: micros(encoded, decodeEventData),
    crossCheck: { browserErrorIngestPool: await other(browserError), pythonErrorIngestPool: await other(pythonError) },
    overflowScanMs: (await timings(() => store.crowdedIssuesAfter(0, RETENTION_LIMITS.scanEvents, RETENTION_LIMITS.eventsPerIssue)))[2],
    retentionChunkMs: await pruneChunks(store),
  };
  console.log(`${fmt(N)} browser errors, SQLite page size ${figures.pageSize}, deflate level ${figures.deflateLevel}`);
  console.log(`  as sent ${fmt(figures.sentBytes)} B, normalized JSON ${fmt(figures.jsonBytes)} B, events.data ${fmt(figures.dataBytes)} B`);
  console.log(
    `  on disk per event: ${fmt(figures.diskBytesPerEvent)} B in all (target ≤ ${fmt(TARGETS.bytesPerEvent)}), events table and its indexes ${fmt(figures.eventsTableBytesPerEvent)} B`,
  );
  for (const [name, v] of Object.entries(figures.eventsObjectsPerEvent))
    console.log(`    ${name}: ${fmt(v.bytes)} B per event, of which unused ${fmt(v.unused)} B`);
  console.log(
    `  the rest: ${Object.entries(figures.otherObjectsPerEvent)
      .map(([k, v]) => `${k} ${fmt(v)} B`)
      .join(", ")}`,
  );
  console.log(`  codec per event: encode ${fmt(figures.encodeMicros, 1)} µs, decode ${fmt(figures.decodeMicros, 1)} µs`);
  console.log(`  retention: looking for crowded issues among ${fmt(RETENTION_LIMITS.scanEvents)} events ${fmt(figures.overflowScanMs, 1)} ms (median of 5)`);
  console.log(
    `  retention: ${figures.retentionChunkMs.rows} events deleted by age in ${fmt(figures.retentionChunkMs.median, 1)} ms (median of 5 steps, max ${fmt(figures.retentionChunkMs.max, 1)} ms)`,
  );
  for (const [name, c] of Object.entries(figures.crossCheck))
    console.log(`  cross-check ${name}: sent ${fmt(c.sent)} B, JSON ${fmt(c.json)} B, events.data ${fmt(c.stored)} B`);
  if (opt("JSON", "")) writeFileSync(opt("JSON", ""), JSON.stringify(figures, null, 2));
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
