// The request mix: pre-generates a pool of realistic bodies (payloads.mjs) as templates whose event_id / session id
// slots are rewritten on every send, so each request carries fresh random ids at almost no CPU cost. Gzipped bodies
// are pre-compressed in pieces around the id slots (each id goes in a stored deflate block; the CRC is recomputed).
import { randomUUID } from "node:crypto";
import zlib from "node:zlib";
import * as P from "./payloads.mjs";

// kind -> weight (percent of requests) and how it is sent.
export const KINDS = {
  "js-error": { weight: 30, sdk: "js", build: (r, k, t) => P.browserError(r, k, t) },
  // Issue 19: a 200 KB screenshot attached to 2 % of the envelopes.
  "js-error-screenshot": { weight: 2, sdk: "js", build: (r, k, t) => P.browserErrorWithScreenshot(r, k, t) },
  "py-error": { weight: 20, sdk: "py-store", build: (r, k, t) => P.pythonError(r, k, t) },
  // @sentry/browser 11.5.0 streams spans (span v2 items) by default; older browser SDKs send transaction events.
  "js-transaction": { weight: 6, sdk: "js", build: (r, k, t) => P.transaction(r, k, t, false) },
  "js-spans": { weight: 6, sdk: "js", build: (r, k, t) => P.streamedSpans(r, k, t) },
  "py-transaction": { weight: 8, sdk: "py", build: (r, k, t) => P.transaction(r, k, t, true) },
  "js-session": { weight: 10, sdk: "js", build: (r, k, t) => P.session(r, k, t, false) },
  "py-sessions": { weight: 5, sdk: "py", build: (r, k, t) => P.session(r, k, t, true) },
  "js-client-report": { weight: 7, sdk: "js", build: (r, k, t) => P.clientReport(r, k, t) },
  // Issue 19: a Node server's log batches (enableLogs) and cron check-ins (withMonitor).
  "node-logs": { weight: 4, sdk: "node", build: (r, k, t) => P.logBatch(r, k, t) },
  "node-check-in": { weight: 2, sdk: "node", build: (r) => P.checkIn(r) },
};

/** Mulberry32: small seeded PRNG so the pool is identical on every run. */
export function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** JS SDK serialisation (serializeEnvelope): item headers as given, no length; an attachment's bytes ({raw}) with their length. */
function jsEnvelope([headers, items]) {
  return [
    JSON.stringify(headers),
    ...items.flatMap(([h, p]) =>
      p && typeof p.raw === "string" ? [JSON.stringify({ ...h, length: Buffer.byteLength(p.raw) }), p.raw] : [JSON.stringify(h), JSON.stringify(p)],
    ),
  ].join("\n");
}
/** sentry-python 1.9 serialisation (Envelope.serialize_into): every item gets `length`, each line ends in \n. */
function pyEnvelope([headers, items]) {
  let out = JSON.stringify(headers) + "\n";
  for (const [h, p] of items) {
    const body = JSON.stringify(p);
    out += JSON.stringify({ ...h, length: Buffer.byteLength(body) }) + "\n" + body + "\n";
  }
  return out;
}

/** Splits `text` at the placeholder slots: {parts: Buffer[], slots: ("E"|"S")[]}, parts.length = slots.length + 1. */
function template(text) {
  const parts = [],
    slots = [],
    re = new RegExp(`${P.EID}|${P.SID}`, "g");
  let last = 0;
  for (const m of text.matchAll(re)) {
    parts.push(Buffer.from(text.slice(last, m.index)));
    slots.push(m[0] === P.EID ? "E" : "S");
    last = m.index + m[0].length;
  }
  parts.push(Buffer.from(text.slice(last)));
  return { parts, slots };
}

/** Lays out a plain body: fixed bytes plus the offsets where ids go. */
function plainLayout({ parts, slots }) {
  const offsets = [];
  let off = 0;
  parts.forEach((p, i) => {
    off += p.length;
    if (i < slots.length) {
      offsets.push(off);
      off += 32;
    }
  });
  const buf = Buffer.alloc(off);
  let o = 0;
  parts.forEach((p, i) => {
    p.copy(buf, o);
    o += p.length + (i < slots.length ? 32 : 0);
  });
  return { buf, offsets, slots, parts, gzip: false };
}

/** Gzip layout: header, deflate(part0, sync flush), stored block(id0), deflate(part1 …), …, final deflate, CRC32, ISIZE. */
function gzipLayout({ parts, slots }) {
  const pieces = [Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3])],
    offsets = [];
  let off = 10,
    size = 0;
  parts.forEach((p, i) => {
    const last = i === slots.length;
    const z = zlib.deflateRawSync(p, { level: 9, ...(last ? {} : { finishFlush: zlib.constants.Z_SYNC_FLUSH }) });
    pieces.push(z);
    off += z.length;
    size += p.length;
    if (!last) {
      pieces.push(Buffer.from([0x00, 32, 0, 0xdf, 0xff]), Buffer.alloc(32));
      offsets.push(off + 5);
      off += 37;
      size += 32;
    }
  });
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(size >>> 0, 4);
  pieces.push(tail);
  return { buf: Buffer.concat(pieces), offsets, slots, parts, gzip: true };
}

/** A fresh body from a layout: copies the bytes, writes new ids (and the CRC for gzip). Returns {body, eventId}. */
export function render(layout) {
  const body = Buffer.from(layout.buf);
  let eventId = null,
    sid = null,
    crc = 0;
  for (let i = 0; i < layout.slots.length; i++) {
    const id = layout.slots[i] === "E" ? (eventId ??= randomUUID().replaceAll("-", "")) : (sid ??= randomUUID().replaceAll("-", ""));
    body.write(id, layout.offsets[i], "latin1");
    if (layout.gzip) crc = zlib.crc32(body.subarray(layout.offsets[i], layout.offsets[i] + 32), zlib.crc32(layout.parts[i], crc));
  }
  if (layout.gzip) body.writeUInt32LE(zlib.crc32(layout.parts[layout.parts.length - 1], crc) >>> 0, body.length - 8);
  return { body, eventId };
}

/** Where and how each SDK sends: {path, headers} for an entry of `kind`, plus its body layout. */
function makeEntry(kind, dsn, rng, t) {
  const u = new URL(dsn),
    key = u.username,
    base = `/api/${u.pathname.replace(/^\/+|\/+$/g, "")}`,
    k = KINDS[kind];
  const payload = k.build(rng, key, t);
  const pyAuth = `Sentry sentry_key=${key}, sentry_version=7, sentry_client=sentry.python/1.9.10`;
  const py = { "User-Agent": "sentry.python/1.9.10", "X-Sentry-Auth": pyAuth, "Content-Encoding": "gzip" };
  let path, headers, layout;
  if (k.sdk === "js") {
    path = `${base}/envelope/?sentry_key=${key}&sentry_version=7&sentry_client=sentry.javascript.browser%2F11.5.0`;
    headers = {
      "Content-Type": "text/plain;charset=UTF-8",
      Origin: "https://shop.example.com",
      Referer: "https://shop.example.com/",
      "User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0",
    };
    layout = plainLayout(template(jsEnvelope(payload)));
  } else if (k.sdk === "node") {
    // @sentry/node's transport: the envelope as the JS SDKs write it, auth in X-Sentry-Auth, gzip past 32 KiB only.
    path = `${base}/envelope/`;
    headers = {
      "Content-Type": "application/x-sentry-envelope",
      "User-Agent": "sentry.javascript.node/11.5.0",
      "X-Sentry-Auth": `Sentry sentry_version=7, sentry_key=${key}, sentry_client=sentry.javascript.node/11.5.0`,
    };
    layout = plainLayout(template(jsEnvelope(payload)));
  } else if (k.sdk === "py") {
    path = `${base}/envelope/`;
    headers = { ...py, "Content-Type": "application/x-sentry-envelope" };
    layout = gzipLayout(template(pyEnvelope(payload)));
  } else {
    path = `${base}/store/`;
    headers = { ...py, "Content-Type": "application/json" };
    layout = gzipLayout(template(JSON.stringify(payload)));
  }
  return { kind, path, headers, layout, expectsId: layout.slots.includes("E") };
}

/** BENCH_KINDS as a set of kinds, or null (every kind); an unknown name is an error, not an empty mix. */
function kindsOnly() {
  const list = process.env.BENCH_KINDS;
  if (!list) return null;
  const kinds = new Set(
    list
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean),
  );
  for (const k of kinds) if (!(k in KINDS)) throw new Error(`BENCH_KINDS: unknown kind ${k} (kinds: ${Object.keys(KINDS).join(", ")})`);
  return kinds;
}

/**
 * Builds the pool for a DSN: {deck, entries}. Each entry: {kind, path, headers (without Content-Length), layout}.
 * `deck` is a shuffled list of entry indexes in the mix's proportions; walk it round-robin.
 */
export function buildPool(dsn, { variants = 48, seed = 7 } = {}) {
  const rng = prng(seed),
    now = Date.now() / 1000,
    entries = [],
    byKind = {};
  for (const kind of Object.keys(KINDS)) {
    byKind[kind] = [];
    for (let v = 0; v < variants; v++) {
      byKind[kind].push(entries.length);
      entries.push(makeEntry(kind, dsn, rng, now - rng() * 5));
    }
  }
  // Deck of 100 × variants slots: weight% of them per kind, cycling through that kind's variants; then shuffled.
  // BENCH_KINDS (a comma list of KINDS' names) keeps only those kinds, in their proportions: a kind's cost alone.
  const only = kindsOnly();
  const deck = [];
  for (const [kind, { weight }] of Object.entries(KINDS)) {
    if (only && !only.has(kind)) continue;
    for (let i = 0; i < weight * variants; i++) deck.push(byKind[kind][i % variants]);
  }
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return { deck, entries };
}

/** One request of `kind` timestamped now, with a fresh id: {path, headers, body, eventId}. */
export function freshRequest(dsn, kind) {
  const entry = makeEntry(kind, dsn, prng(Date.now() & 0xffff), Date.now() / 1000);
  return { path: entry.path, headers: entry.headers, ...render(entry.layout) };
}

/** Summary of the pool for the report: per kind, mean wire size and mean uncompressed size in bytes. */
export function describePool({ entries }) {
  const out = {};
  for (const e of entries) {
    const s = (out[e.kind] ??= { n: 0, wire: 0, raw: 0, gzip: e.layout.gzip, path: e.path.split("?")[0] });
    s.n++;
    s.wire += e.layout.buf.length;
    s.raw += e.layout.parts.reduce((a, p) => a + p.length, 0) + 32 * e.layout.slots.length;
  }
  for (const s of Object.values(out)) {
    s.wire = Math.round(s.wire / s.n);
    s.raw = Math.round(s.raw / s.n);
  }
  return out;
}
