// Attachments and minidumps (issue 19): the standalone attachment endpoint and the minidump endpoint given what no
// SDK or crash reporter sends: truncated and boundary-less multipart, parts without names, NUL and path traversal in
// file names, a header block of 64 KB, a megabyte of form fields, thousands of fields, nested multipart, wrong
// encodings, garbage in place of a minidump, a gzip bomb, bad event ids and keys; and envelope attachment items whose
// headers lie about their length or type. Each gets a 2xx or a 4xx, never a 5xx, a reset or a hang.
import { execFileSync } from "node:child_process";
import zlib from "node:zlib";
import { encode } from "@msgpack/msgpack";
import { type HostileCase, type Rng, type Target, envelopePath, hex } from "./cases";

const b = (s: string | Buffer) => new Uint8Array(typeof s === "string" ? Buffer.from(s, "utf8") : s);

function form(boundary: string, parts: { headers: string; data: string | Buffer }[], end = true): Buffer {
  const out: Buffer[] = [];
  for (const p of parts)
    out.push(Buffer.from(`--${boundary}\r\n${p.headers}\r\n\r\n`), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data), Buffer.from("\r\n"));
  if (end) out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}

/**
 * sentry-native's crashes gone wrong: msgpack parts cut short, nested 200,000 deep, declaring 4 billion entries, of the
 * wrong type, with extension types and `__proto__` keys, over their size; minidump files that are compression bombs
 * (gzip, zstd: 101 MiB of zeros in a few KB, 413; xz and bzip2 are refused unread, 400), cut short, or a zstd frame
 * asking for a 2 TiB window.
 */
function nativeCrashBodies(
  bd: string,
  mp: Record<string, string>,
  file: (name: string, data: string | Buffer, field?: string) => { headers: string; data: string | Buffer },
  dump: Buffer,
): [string, Record<string, string>, Buffer][] {
  const withPart = (field: string, data: Buffer) => form(bd, [file("crash.dmp", dump, "upload_file_minidump"), file(field, data, field)]);
  const bomb = Buffer.concat([dump, Buffer.alloc(101 * 1024 * 1024)]);
  const tool = (cmd: string, args: string[]) => execFileSync(cmd, args, { input: bomb, maxBuffer: 1 << 30 });
  const packed: [string, Buffer][] = [
    ["gzip", zlib.gzipSync(bomb)],
    ["xz", tool("xz", ["-c", "-1"])],
    ["bzip2", tool("bzip2", ["-c", "-1"])],
    ["zstd", tool("zstd", ["-q", "-c", "-1"])],
  ];
  const parts: [string, string, Buffer][] = [
    ["cut short", "__sentry-event", Buffer.from(encode({ release: "r@1", user: { id: "1" } })).subarray(0, 9)],
    ["nested 200,000 deep", "__sentry-event", Buffer.concat([Buffer.from([0x81, 0xa1, 0x61]), Buffer.alloc(200_000, 0x91), Buffer.from([0x90])])],
    ["a map of 4 billion entries", "__sentry-event", Buffer.from([0xdf, 0xff, 0xff, 0xff, 0xff, 0xa1, 0x61])],
    ["a million empty arrays", "__sentry-breadcrumb1", Buffer.alloc(1_000_000, 0x90)],
    ["an array in place of the event", "__sentry-event", Buffer.from(encode([1, 2, 3]))],
    ["a string of 4 GiB declared", "__sentry-breadcrumb2", Buffer.from([0xdb, 0xff, 0xff, 0xff, 0xff, 0x41])],
    ["extension and binary values", "__sentry-event", Buffer.from([0x82, 0xa1, 0x61, 0xc7, 0x03, 0x7f, 1, 2, 3, 0xa1, 0x62, 0xc4, 0x02, 0, 0])],
    ["a __proto__ key", "__sentry-event", Buffer.from([0x81, 0xa9, ...Buffer.from("__proto__"), 0x81, 0xa5, ...Buffer.from("admin"), 0xc3])],
    ["NUL bytes in keys and values", "__sentry-breadcrumb1", Buffer.from(encode({ "mess\u0000age": "a\u0000b", timestamp: "\u0000" }))],
    ["2 MiB", "__sentry-event", Buffer.from(encode({ message: "m".repeat(2 << 20) }))],
    ["the unused type byte 0xc1", "__sentry-breadcrumb1", Buffer.from([0xc1, 0xc1, 0xc1])],
  ];
  return [
    ...parts.map(([label, field, data]): [string, Record<string, string>, Buffer] => [`${field} ${label}`, mp, withPart(field, data)]),
    ...packed.map(([format, data]): [string, Record<string, string>, Buffer] => [
      `a ${format} minidump bomb`,
      mp,
      form(bd, [file("bomb.dmp", data, "upload_file_minidump")]),
    ]),
    ...packed.map(([format, data]): [string, Record<string, string>, Buffer] => [
      `a ${format} minidump cut short`,
      { "content-type": "application/octet-stream" },
      data.subarray(0, 200),
    ]),
    [
      "a zstd minidump asking for a 2 TiB window",
      mp,
      form(bd, [file("w.dmp.zst", Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8]), Buffer.alloc(64)]), "upload_file_minidump")]),
    ],
  ];
}

export function attachmentCases(t: Target, rng: Rng): HostileCase[] {
  const key = `?sentry_key=${t.publicKey}`;
  const attach = `/api/${t.projectId}/events/${hex(rng, 32)}/attachments/${key}`;
  const minidump = `/api/${t.projectId}/minidump/${key}`;
  const bd = "hostileBoundary";
  const mp = { "content-type": `multipart/form-data; boundary=${bd}` };
  const file = (name: string, data: string | Buffer, field = "f") => ({ headers: `Content-Disposition: form-data; name="${field}"; filename="${name}"`, data });
  const dump = Buffer.concat([Buffer.from("MDMP"), Buffer.alloc(60)]);
  const bodies: [string, Record<string, string>, Buffer][] = [
    ["one file", mp, form(bd, [file("a.txt", "hello")])],
    ["truncated before the end", mp, form(bd, [file("a.txt", "hello")], false)],
    ["no boundary in the type", { "content-type": "multipart/form-data" }, form(bd, [file("a.txt", "x")])],
    ["a different boundary", { "content-type": "multipart/form-data; boundary=other" }, form(bd, [file("a.txt", "x")])],
    ["not multipart", { "content-type": "application/json" }, Buffer.from("{}")],
    ["no content type", {}, form(bd, [file("a.txt", "x")])],
    ["a part without a name", mp, form(bd, [{ headers: "Content-Disposition: form-data", data: "x" }])],
    ["a part without headers", mp, form(bd, [{ headers: "", data: "x" }])],
    ["path traversal in the name", mp, form(bd, [file("../../../../etc/passwd", "x"), file("..\\..\\win.ini", "y", "g")])],
    ["NUL in the name", mp, form(bd, [file("a\u0000.txt", "x")])],
    ["an encoded NUL in the name", mp, form(bd, [{ headers: `Content-Disposition: form-data; name="f"; filename*=UTF-8''a%00b%2F..%2Fc`, data: "x" }])],
    ["a 64 KB header", mp, form(bd, [{ headers: `Content-Disposition: form-data; name="f"; filename="${"n".repeat(65_536)}"`, data: "x" }])],
    ["a 1 MB form field", mp, form(bd, [{ headers: `Content-Disposition: form-data; name="sentry"`, data: "x".repeat(1 << 20) }, file("a.txt", "x")])],
    [
      "3,000 form fields",
      mp,
      form(bd, [...Array.from({ length: 3000 }, (_, i) => ({ headers: `Content-Disposition: form-data; name="k${i}"`, data: "v" })), file("a.txt", "x")]),
    ],
    [
      "50 files",
      mp,
      form(
        bd,
        Array.from({ length: 50 }, (_, i) => file(`${i}.txt`, "x", `f${i}`)),
      ),
    ],
    [
      "nested multipart",
      mp,
      form(bd, [
        {
          headers: `Content-Disposition: form-data; name="f"; filename="n"\r\nContent-Type: multipart/mixed; boundary=inner`,
          data: form("inner", [file("deep.txt", "x")]),
        },
      ]),
    ],
    ["an empty body", mp, Buffer.alloc(0)],
    ["only the closing boundary", mp, Buffer.from(`--${bd}--\r\n`)],
    ["random bytes", mp, Buffer.from(Array.from({ length: 4096 }, () => Math.floor(rng() * 256)))],
  ];
  const cases: HostileCase[] = [];
  for (const [label, headers, body] of bodies) {
    cases.push({ name: `attachment endpoint: ${label}`, method: "POST", path: attach, headers, body: b(body) });
    cases.push({ name: `minidump endpoint: ${label}`, method: "POST", path: minidump, headers, body: b(body) });
  }
  const dumps: [string, Record<string, string>, Buffer][] = [
    [
      "a minidump with Breakpad fields",
      mp,
      form(bd, [
        { headers: `Content-Disposition: form-data; name="sentry[release]"`, data: "r@1" },
        { headers: `Content-Disposition: form-data; name="sentry[user][__proto__][x]"`, data: "y" },
        file("crash.dmp", dump, "upload_file_minidump"),
      ]),
    ],
    [
      "a sentry field of broken JSON",
      mp,
      form(bd, [{ headers: `Content-Disposition: form-data; name="sentry"`, data: "{" }, file("crash.dmp", dump, "upload_file_minidump")]),
    ],
    [
      "a sentry field nested 10,000 deep",
      mp,
      form(bd, [
        { headers: `Content-Disposition: form-data; name="sentry"`, data: `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}` },
        file("crash.dmp", dump, "upload_file_minidump"),
      ]),
    ],
    ["an ELF file as the minidump", mp, form(bd, [file("crash.dmp", Buffer.from("\u007fELF\u0002\u0001\u0001"), "upload_file_minidump")])],
    ["a truncated minidump header", mp, form(bd, [file("crash.dmp", Buffer.from("MDMP"), "upload_file_minidump")])],
    [
      "a minidump whose directory points past its end",
      mp,
      form(bd, [
        file(
          "crash.dmp",
          Buffer.concat([Buffer.from("MDMP"), Buffer.from([0x93, 0xa7, 0, 0, 0xff, 0xff, 0, 0, 0xff, 0xff, 0xff, 0x7f]), Buffer.alloc(20)]),
          "upload_file_minidump",
        ),
      ]),
    ],
    ["a raw minidump body", { "content-type": "application/octet-stream" }, dump],
    ["a raw body that is no minidump", { "content-type": "application/x-dmp" }, Buffer.from("nope")],
    [
      "a gzip bomb",
      { ...mp, "content-encoding": "gzip" },
      zlib.gzipSync(form(bd, [file("crash.dmp", Buffer.concat([dump, Buffer.alloc(101 * 1024 * 1024)]), "upload_file_minidump")])),
    ],
    ["a gzip body that is not gzip", { ...mp, "content-encoding": "gzip" }, Buffer.from("not gzip at all")],
    ["zstd, which uploads do not take", { ...mp, "content-encoding": "zstd" }, Buffer.from("x")],
    ...nativeCrashBodies(bd, mp, file, dump),
  ];
  for (const [label, headers, body] of dumps) cases.push({ name: `minidump endpoint: ${label}`, method: "POST", path: minidump, headers, body: b(body) });
  const ok = form(bd, [file("a.txt", "x")]);
  cases.push({
    name: "attachment endpoint: an event id that is not one",
    method: "POST",
    path: `/api/${t.projectId}/events/not-an-event/attachments/${key}`,
    headers: mp,
    body: b(ok),
  });
  cases.push({
    name: "attachment endpoint: an unknown key",
    method: "POST",
    path: `/api/${t.projectId}/events/${hex(rng, 32)}/attachments/?sentry_key=${"0".repeat(32)}`,
    headers: mp,
    body: b(ok),
  });
  cases.push({
    name: "attachment endpoint: no key",
    method: "POST",
    path: `/api/${t.projectId}/events/${hex(rng, 32)}/attachments/`,
    headers: mp,
    body: b(ok),
  });
  cases.push({ name: "attachment endpoint: GET", method: "GET", path: attach });
  // Envelope attachment items whose headers lie.
  const env = envelopePath(t);
  const id = hex(rng, 32);
  const items: [string, string][] = [
    ["a length past the body", `{"event_id":"${id}"}\n{"type":"attachment","length":999999}\nshort\n`],
    ["a negative length", `{"event_id":"${id}"}\n{"type":"attachment","length":-5}\nx\n`],
    ["a fractional length", `{"event_id":"${id}"}\n{"type":"attachment","length":1.5}\nxy\n`],
    ["a string length", `{"event_id":"${id}"}\n{"type":"attachment","length":"3"}\nabc\n`],
    ["a wrong attachment type", `{"event_id":"${id}"}\n{"type":"attachment","length":3,"attachment_type":"event.<script>"}\nabc\n`],
    ["a staged reference", `{"event_id":"${id}"}\n{"type":"staged_attachment","length":0,"staged":"../../../etc/passwd"}\n\n`],
    ["no event id", `{}\n{"type":"attachment","length":3,"filename":"orphan.txt"}\nabc\n`],
  ];
  for (const [label, body] of items) cases.push({ name: `envelope attachment: ${label}`, method: "POST", path: env, body: b(body) });
  return cases;
}
