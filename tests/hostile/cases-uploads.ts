// sentry-cli's upload endpoints with garbage, authenticated as the CLI would be: multipart bodies that are cut,
// mislabelled, oversized or bombs (chunk upload and legacy release files), and assemble calls with bodies of the
// wrong shape. Each must get a 4xx with a detail, never a 5xx, a reset or memory beyond the per-request cap.
import zlib from "node:zlib";
import { UPLOAD_LIMITS } from "../../src/config/limits";
import { MiB } from "../helpers/compression";
import type { HostileCase, Rng, Target } from "./cases";

type Part = { field?: string; filename?: string; head?: string; data: Uint8Array };

const BOUNDARY = "----faultline-corpus";

function multipart(parts: Part[], close = true): Buffer {
  return Buffer.concat([
    ...parts.flatMap((p) => [
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data${p.field === undefined ? "" : `; name="${p.field}"`}${p.filename === undefined ? "" : `; filename="${p.filename}"`}\r\n${p.head ?? ""}Content-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(p.data),
      Buffer.from("\r\n"),
    ]),
    Buffer.from(close ? `--${BOUNDARY}--\r\n` : ""),
  ]);
}

export function uploadCases(t: Target, rng: Rng): HostileCase[] {
  const cases: HostileCase[] = [];
  const auth = { authorization: `Bearer ${t.token}` };
  const type = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };
  const chunkUpload = `/api/0/organizations/${t.org}/chunk-upload/`;
  const good = zlib.gzipSync(Buffer.from("console.log(1)\n"));
  const zerosGz = zlib.gzipSync(Buffer.alloc(UPLOAD_LIMITS.chunkSize));
  const random = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rng() * 256)));
  const bodies: [string, Buffer, Record<string, string>?][] = [
    [
      "64 gzip parts of zeros (the bomb)",
      multipart(Array.from({ length: UPLOAD_LIMITS.chunksPerRequest }, (_, i) => ({ field: "file_gzip", filename: `z${i}`, data: zerosGz }))),
    ],
    ["one gzip part past the chunk size", multipart([{ field: "file_gzip", filename: "big", data: zlib.gzipSync(Buffer.alloc(UPLOAD_LIMITS.chunkSize + 1)) }])],
    [
      "more parts than a request may carry",
      multipart(Array.from({ length: UPLOAD_LIMITS.chunksPerRequest + 1 }, (_, i) => ({ field: "file_gzip", filename: `p${i}`, data: good }))),
    ],
    ["a gzip part that is not gzip", multipart([{ field: "file_gzip", filename: "a", data: random(4096) }])],
    ["a gzip part cut short", multipart([{ field: "file_gzip", filename: "a", data: good.subarray(0, good.length - 5) }])],
    ["a part without a name", multipart([{ filename: "a", data: good }])],
    ["a part without a filename", multipart([{ field: "file_gzip", data: good }])],
    ["a text field", multipart([{ field: "note", data: Buffer.from("hello") }])],
    ["a part header of 64 KiB", multipart([{ field: "file", filename: "a", head: `X-Pad: ${"a".repeat(64 * 1024)}\r\n`, data: good }])],
    ["a filename of 64 KiB", multipart([{ field: "file", filename: "f".repeat(64 * 1024), data: good }])],
    ["a NUL in the field name", multipart([{ field: "file\u0000", filename: "a", data: good }])],
    ["no closing boundary", multipart([{ field: "file", filename: "a", data: good }], false)],
    ["nothing but the closing boundary", Buffer.from(`--${BOUNDARY}--\r\n`)],
    ["empty", Buffer.alloc(0)],
    ["random bytes", random(64 * 1024)],
    [
      "another boundary than declared",
      multipart([{ field: "file", filename: "a", data: good }]),
      { "content-type": "multipart/form-data; boundary=not-the-one" },
    ],
    ["no boundary", multipart([{ field: "file", filename: "a", data: good }]), { "content-type": "multipart/form-data" }],
    [
      "a boundary of 300 characters",
      multipart([{ field: "file", filename: "a", data: good }]),
      { "content-type": `multipart/form-data; boundary=${"b".repeat(300)}` },
    ],
    ["not multipart", Buffer.from("{}"), { "content-type": "application/json" }],
    ["plain parts past the chunk size", multipart([{ field: "file", filename: "a", data: Buffer.alloc(UPLOAD_LIMITS.chunkSize + MiB) }])],
  ];
  for (const [label, body, headers] of bodies) {
    cases.push({ name: `chunk upload: ${label}`, path: chunkUpload, headers: { ...auth, ...type, ...headers }, body });
    cases.push({
      name: `release files: ${label}`,
      path: `/api/0/organizations/${t.org}/releases/corpus%401.0/files/`,
      headers: { ...auth, ...type, ...headers },
      body,
    });
  }
  cases.push({ name: "chunk upload: without credentials", path: chunkUpload, headers: type, body: bodies[0]![1] });
  cases.push({
    name: "chunk upload: a token that does not exist",
    path: chunkUpload,
    headers: { authorization: `Bearer ${"f".repeat(64)}`, ...type },
    body: bodies[3]![1],
  });
  // Assemble calls with bodies of the wrong shape.
  const assemble = [`/api/0/organizations/${t.org}/artifactbundle/assemble/`, `/api/0/organizations/${t.org}/releases/corpus%401.0/assemble/`];
  for (const [i, body] of [
    "",
    "null",
    "[]",
    '"x"',
    "{",
    '{"checksum":1e300,"chunks":"x"}',
    '{"checksum":"' +
      "a".repeat(40) +
      '","chunks":[' +
      Array(5000)
        .fill('"' + "b".repeat(40) + '"')
        .join(",") +
      "]}",
    '{"checksum":"\u0000","chunks":["\u0000"],"projects":[null]}',
    `{"x":${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
    `{"chunks":["${"c".repeat(40)}"],"checksum":"${"c".repeat(40)}","projects":["${t.project}"],"version":${"9".repeat(400)}}`,
    JSON.stringify({ checksum: "a".repeat(40), chunks: ["a".repeat(40)], projects: Array(10_000).fill(t.project) }),
  ].entries()) {
    for (const url of assemble)
      cases.push({
        name: `assemble: ${url.includes("releases") ? "release" : "bundle"} #${i} ${body.slice(0, 30)}`,
        path: url,
        headers: { ...auth, "content-type": "application/json" },
        body: Buffer.from(body),
      });
  }
  return cases;
}
