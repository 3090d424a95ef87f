// The request around the payload: compression bombs in every encoding, stacked and unknown encodings, corrupt
// compressed bodies, credentials in every place SDKs put them filled with garbage, wrong methods and paths, chunked
// bodies past the limits, the legacy /store/ encodings, security reports, and the browser tunnel of Faultline's pages.
import zlib from "node:zlib";
import { INGEST_LIMITS } from "../../src/config/limits";
import { MiB, brotliZeros, deflateRawZeros, gzipZeros, zlibZeros, zstdZeros } from "../helpers/compression";
import { type HostileCase, type Rng, type Target, baseEnvelopes, envelopePath, hex, serialize, storePath } from "./cases";

/** A chunked body of `total` bytes in 1 MiB chunks, made as it is sent. */
const chunked = (total: number, first: Uint8Array = new Uint8Array()) =>
  async function* () {
    yield first;
    const chunk = new Uint8Array(MiB).fill(0x61);
    for (let sent = 0; sent < total; sent += MiB) yield chunk;
  };

export async function transportCases(t: Target, rng: Rng): Promise<HostileCase[]> {
  const cases: HostileCase[] = [];
  const path = envelopePath(t);
  const event = serialize(baseEnvelopes(rng, t.publicKey)["browser error"]!);
  const over = INGEST_LIMITS.maxDecompressedBodyBytes / MiB + 20;
  // Bombs: zeros past the decompressed limit in every encoding, and a bomb of item headers behind a valid DSN.
  const bombs: [string, string, Buffer][] = [
    ["gzip", "gzip", gzipZeros(over)],
    ["zlib", "deflate", zlibZeros(over)],
    ["raw deflate", "deflate", deflateRawZeros(over)],
    ["br", "br", await brotliZeros(over)],
    ["zstd", "zstd", zstdZeros(over)],
    [
      "gzip of item headers",
      "gzip",
      zlib.gzipSync(Buffer.concat([Buffer.from(`{"dsn":"${t.dsn}"}\n`), Buffer.alloc(60 * MiB, '{"type":"a"}\n')]), { level: 9 }),
    ],
    ["br of item headers, no DSN", "br", zlib.brotliCompressSync(Buffer.concat([Buffer.from("{}\n"), Buffer.alloc(20 * MiB, '{"type":"a"}\n')]))],
  ];
  for (const [name, encoding, body] of bombs) {
    cases.push({ name: `bomb: ${name} to /envelope/`, path, headers: { "content-encoding": encoding }, body });
    cases.push({ name: `bomb: ${name} to /store/`, path: storePath(t), headers: { "content-encoding": encoding }, body });
  }
  cases.push({
    name: "bomb: zstd frame declaring a 4 GiB window",
    path,
    headers: { "content-encoding": "zstd" },
    body: Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8, 0, 0, 0]),
  });
  cases.push({
    name: "bomb: zstd frame declaring 2^63 bytes of content",
    path,
    headers: { "content-encoding": "zstd" },
    body: Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0]), Buffer.from("ffffffffffffff7f", "hex"), Buffer.from([1, 0, 0])]),
  });
  // Stacked, unknown and odd Content-Encoding values, over a body compressed with what the header names.
  const gz = zlib.gzipSync(event);
  for (const encoding of [
    "gzip, gzip",
    "br,br,br",
    Array(5000).fill("br").join(","),
    "gzip, identity, br",
    "compress",
    "x-compress",
    "gzip;q=1",
    "gz ip",
    "*",
    "deflate, deflate",
    "zstd, gzip",
    "a".repeat(10_000),
  ]) {
    cases.push({
      name: `encoding header: ${encoding.slice(0, 24)}${encoding.length > 24 ? `… (${encoding.length})` : ""}`,
      path,
      headers: { "content-encoding": encoding },
      body: gz,
    });
  }
  // Corrupt compressed bodies: each encoding of a valid envelope with bytes flipped at 15 places, and cut short.
  const encoded: [string, Buffer][] = [
    ["gzip", zlib.gzipSync(event)],
    ["deflate", zlib.deflateSync(event)],
    ["br", zlib.brotliCompressSync(event)],
    ["zstd", zstdZeros(1)],
  ];
  for (const [encoding, body] of encoded) {
    for (let i = 1; i <= 15; i++) {
      const flipped = Buffer.from(body);
      const at = Math.floor((flipped.length * i) / 16);
      flipped[at] = flipped[at]! ^ 0xff;
      cases.push({ name: `corrupt ${encoding}: byte ${at} flipped`, path, headers: { "content-encoding": encoding }, body: flipped });
    }
    for (const cut of [1, 2, 10, Math.floor(body.length / 2), body.length - 1])
      cases.push({ name: `corrupt ${encoding}: cut to ${cut}`, path, headers: { "content-encoding": encoding }, body: body.subarray(0, cut) });
    cases.push({
      name: `corrupt ${encoding}: random bytes`,
      path,
      headers: { "content-encoding": encoding },
      body: Buffer.from(Array.from({ length: 4096 }, () => Math.floor(rng() * 256))),
    });
  }
  // Credentials: every place SDKs put them, with garbage.
  const bare = `/api/${t.projectId}/envelope/`;
  const keys = [
    "",
    " ",
    "x",
    "0".repeat(31),
    "0".repeat(33),
    "g".repeat(32),
    t.publicKey.toUpperCase().replace(/[0-9]/g, "Z"),
    "\u0000".repeat(32),
    `${t.publicKey}\u0000`,
    "ü".repeat(32),
    "a".repeat(4000),
    "%00",
    "../../etc/passwd",
    "' OR 1=1 --",
  ];
  for (const key of keys) {
    const enc = encodeURIComponent(key);
    const label = `${JSON.stringify(key.slice(0, 20))} (${key.length})`;
    cases.push({ name: `auth garbage: query key ${label}`, path: `${bare}?sentry_key=${enc}&sentry_version=7`, body: event });
    cases.push({
      name: `auth garbage: dsn key ${label}`,
      path: bare,
      body: Buffer.concat([Buffer.from(`${JSON.stringify({ dsn: `https://${enc}@localhost/${t.projectId}` })}\n`), event.subarray(event.indexOf(0x0a) + 1)]),
    });
    if (!/[\u0000-\u001f\u007f-\uffff]/.test(key)) {
      cases.push({
        name: `auth garbage: X-Sentry-Auth key ${label}`,
        path: bare,
        headers: { "x-sentry-auth": `Sentry sentry_key=${key}, sentry_version=7` },
        body: event,
      });
      cases.push({ name: `auth garbage: Authorization Sentry key ${label}`, path: bare, headers: { authorization: `Sentry sentry_key=${key}` }, body: event });
    }
    cases.push({
      name: `auth garbage: Basic key ${label}`,
      path: bare,
      headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` },
      body: event,
    });
  }
  const headerValues = [
    "Sentry",
    "Sentry ",
    "Sentry ,,,,",
    "Sentry sentry_key",
    "Sentry =",
    `Sentry sentry_key=${t.publicKey}, sentry_version=-1`,
    `Sentry sentry_key=${t.publicKey}, sentry_version=8`,
    `Sentry sentry_key=${t.publicKey}, sentry_version=99999999999999999999`,
    `Sentry sentry_key=${t.publicKey}, sentry_version=NaN`,
    "Bearer x",
    "Basic",
    "Basic !!!",
    "Basic " + "A".repeat(6000),
    `sentry sentry_key=${t.publicKey},`.repeat(100),
  ];
  for (const [i, value] of headerValues.entries()) {
    cases.push({
      name: `auth garbage: X-Sentry-Auth #${i} ${JSON.stringify(value.slice(0, 30))}`,
      path: bare,
      headers: { "x-sentry-auth": value },
      body: event,
    });
    cases.push({ name: `auth garbage: Authorization #${i} ${JSON.stringify(value.slice(0, 30))}`, path: bare, headers: { authorization: value }, body: event });
  }
  cases.push({ name: "auth garbage: two sources at once", path, headers: { "x-sentry-auth": `Sentry sentry_key=${t.publicKey}` }, body: event });
  cases.push({
    name: "auth garbage: dsn of another project",
    path: bare,
    body: Buffer.concat([Buffer.from(`{"dsn":"https://${t.publicKey}@localhost/${Number(t.projectId) + 1000}"}\n`), event.subarray(event.indexOf(0x0a) + 1)]),
  });
  for (const dsn of ["", "x", "https://", "https://@h/", `https://${t.publicKey}@h/`, "http://[::1", "https://%ff@h/1", 12, null, [], {}]) {
    cases.push({
      name: `auth garbage: dsn ${JSON.stringify(dsn)}`,
      path: bare,
      body: Buffer.concat([Buffer.from(`${JSON.stringify({ dsn })}\n`), event.subarray(event.indexOf(0x0a) + 1)]),
    });
  }
  // Project ids the path may carry: another project, zero, past PostgreSQL's integers, 18 digits.
  for (const id of ["0", "2147483648", "999999999999999999", String(Number(t.projectId) + 1)]) {
    cases.push({ name: `path: project ${id}`, path: `/api/${id}/envelope/?sentry_key=${t.publicKey}`, body: event });
    cases.push({ name: `path: store to project ${id}`, path: `/api/${id}/store/?sentry_key=${t.publicKey}`, body: Buffer.from("{}") });
  }
  // Methods the intake does not take.
  for (const method of ["GET", "PUT", "DELETE", "PATCH", "HEAD"]) {
    for (const endpoint of ["envelope", "store", "security", "csp-report"])
      cases.push({
        name: `method: ${method} ${endpoint}`,
        method,
        path: `/api/${t.projectId}/${endpoint}/?sentry_key=${t.publicKey}`,
        body: method === "GET" || method === "HEAD" ? undefined : event,
      });
  }
  // Bodies past the limits, sent chunked (no Content-Length to refuse them on).
  cases.push({
    name: "chunked: plain envelope past the decompressed limit",
    path,
    body: chunked(INGEST_LIMITS.maxDecompressedBodyBytes + 4 * MiB, Buffer.from(`{"event_id":"${hex(rng, 32)}"}\n`)),
  });
  cases.push({
    name: "chunked: gzip body past the compressed limit",
    path,
    headers: { "content-encoding": "gzip" },
    body: chunked(INGEST_LIMITS.maxCompressedBodyBytes + 4 * MiB, zlib.gzipSync(event).subarray(0, 10)),
  });
  cases.push({ name: "chunked: store body past its limit", path: storePath(t), body: chunked(INGEST_LIMITS.maxEventBytes * 2 + MiB) });
  cases.push({
    name: "chunked: security report past its limit",
    path: `/api/${t.projectId}/security/?sentry_key=${t.publicKey}`,
    body: chunked(INGEST_LIMITS.maxSecurityReportBytes + MiB),
  });
  // The legacy /store/ encodings: base64, and base64 of zlib, broken in each way.
  const store = storePath(t);
  const storeJson = JSON.stringify({ message: "store", level: "error" });
  for (const [label, body] of [
    ["base64 of garbage", Buffer.from("bm90IGpzb24=")],
    ["base64 with a bad character", Buffer.from(`${Buffer.from(storeJson).toString("base64")}!`)],
    ["base64 of bad zlib", Buffer.from(Buffer.from([0x78, 0x9c, 1, 2, 3]).toString("base64"))],
    ["base64 of a zlib bomb", Buffer.from(zlibZeros(8).toString("base64"))],
    ["base64 of a deep zlib", Buffer.from(zlib.deflateSync(`{"x":${"[".repeat(10_000)}${"]".repeat(10_000)}}`).toString("base64"))],
    ["NaN and Infinity", Buffer.from('{"message":"nan","extra":{"a":NaN,"b":-Infinity,"c":Infinity}}')],
    ["a JSON array", Buffer.from("[1,2,3]")],
    ["a JSON string", Buffer.from('"event"')],
    ["UTF-16", Buffer.from(storeJson, "utf16le")],
    ["a BOM", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(storeJson)])],
  ] as const)
    cases.push({ name: `store body: ${label}`, path: store, body });
  // Security reports: wrong shapes.
  const security = `/api/${t.projectId}/security/?sentry_key=${t.publicKey}`;
  for (const [i, body] of [
    "{}",
    "[]",
    "null",
    '{"csp-report":null}',
    '{"csp-report":"x"}',
    '{"csp-report":{"blocked-uri":1e300,"document-uri":"\u0000"}}',
    '{"expect-ct-report":[]}',
    '[{"type":"csp-violation","body":null}]',
    `[${'{"type":"csp-violation","body":{"blockedURL":"x"}},'.repeat(999)}{}]`,
    '{"csp-report":{"document-uri":"' + "x".repeat(60_000) + '"}}',
    "\u0000",
    "not json",
  ].entries()) {
    cases.push({
      name: `security report: #${i} ${body.slice(0, 40)}`,
      path: security,
      headers: { "content-type": "application/csp-report" },
      body: Buffer.from(body),
    });
  }
  // The browser tunnel of Faultline's own pages: not an open proxy, and no envelope of garbage gets past it.
  for (const [label, body] of [
    ["empty", Buffer.alloc(0)],
    ["no DSN", event],
    ["another server's DSN", Buffer.from(`{"dsn":"https://${t.publicKey}@o1.ingest.sentry.io/1"}\n{"type":"event"}\n{}\n`)],
    ["an internal address as DSN", Buffer.from(`{"dsn":"http://${t.publicKey}@169.254.169.254/1"}\n{"type":"event"}\n{}\n`)],
    ["a huge DSN", Buffer.from(`{"dsn":"https://${"a".repeat(70_000)}@localhost/1"}\n{"type":"event"}\n{}\n`)],
    ["a deep header", Buffer.from(`{"dsn":${"[".repeat(5000)}${"]".repeat(5000)}}\n`)],
    ["not JSON", Buffer.from("\u0000\u0001\u0002")],
    ["past the tunnel's limit", Buffer.alloc(3 * MiB, 0x61)],
  ] as const)
    cases.push({ name: `tunnel: ${label}`, path: "/monitoring", headers: { "content-type": "text/plain;charset=UTF-8" }, body });
  return cases;
}
