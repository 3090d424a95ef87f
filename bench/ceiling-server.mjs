// The ceiling: the least a durable Sentry-style intake can do on this machine. A bare node:http server that reads
// each POST body and appends it as-is to a SQLite table (better-sqlite3, WAL, synchronous=NORMAL) with group commit:
// bodies arriving in the same event-loop turn (or within CEILING_BATCH_MS, if set) share one transaction, and each
// request is answered 200 {"id": "..."} only after that commit. No parsing, no auth, no decompression.
// Usage: PORT=9301 CEILING_DB=/tmp/x/ceiling.sqlite node bench/ceiling-server.mjs  (prints one "ready {...}" line)
import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import http from "node:http";

const port = Number(process.env.PORT ?? 9301);
const batchMs = Number(process.env.CEILING_BATCH_MS ?? 0);
const db = new Database(process.env.CEILING_DB ?? "ceiling.sqlite");
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.exec("CREATE TABLE IF NOT EXISTS bodies (id INTEGER PRIMARY KEY, received_ms INTEGER NOT NULL, path TEXT NOT NULL, body BLOB NOT NULL)");
const insert = db.prepare("INSERT INTO bodies (received_ms, path, body) VALUES (?, ?, ?)");
const commit = db.transaction((batch) => {
  const now = Date.now();
  for (const b of batch) insert.run(now, b.path, b.body);
});
const SYNC_NAMES = ["OFF", "NORMAL", "FULL", "EXTRA"];
const settings = {
  journal_mode: db.pragma("journal_mode", { simple: true }),
  synchronous: SYNC_NAMES[db.pragma("synchronous", { simple: true })],
  group_commit: batchMs > 0 ? `up to ${batchMs} ms` : "same event-loop turn (setImmediate)",
};

let queue = [],
  scheduled = false,
  batches = 0,
  rows = 0,
  maxBatch = 0;
function flush() {
  const batch = queue;
  queue = [];
  scheduled = false;
  try {
    commit(batch);
    batches++;
    rows += batch.length;
    if (batch.length > maxBatch) maxBatch = batch.length;
    for (const b of batch) reply(b.res, 200, JSON.stringify({ id: b.id }));
  } catch (e) {
    for (const b of batch) reply(b.res, 503, JSON.stringify({ detail: String(e.message) }));
  }
}
function enqueue(item) {
  queue.push(item);
  if (!scheduled) {
    scheduled = true;
    if (batchMs > 0) setTimeout(flush, batchMs);
    else setImmediate(flush);
  }
}
function reply(res, code, body) {
  res.writeHead(code, { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/** The envelope header's or event's event_id when the body is plain JSON and has it near the start; else a new id. */
function eventIdOf(body) {
  if (body[0] === 0x7b) {
    const head = body.subarray(0, 256).toString("latin1"),
      i = head.indexOf('"event_id":"');
    if (i >= 0) return head.slice(i + 12, i + 44);
  }
  return randomUUID().replaceAll("-", "");
}

const server = http.createServer((req, res) => {
  if (req.method === "GET") return reply(res, 200, "{}");
  if (req.method !== "POST") return reply(res, 204, "");
  const chunks = [];
  let size = 0;
  req.on("data", (c) => {
    chunks.push(c);
    size += c.length;
    if (size > 20e6) req.destroy();
  });
  req.on("end", () => {
    const body = Buffer.concat(chunks);
    enqueue({ res, body, path: req.url, id: eventIdOf(body) });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => console.log(`ready ${JSON.stringify(settings)}`));

function stop() {
  server.close();
  if (queue.length) flush();
  console.log(`stats ${JSON.stringify({ batches, rows, meanBatch: batches ? +(rows / batches).toFixed(2) : 0, maxBatch })}`);
  db.close();
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
