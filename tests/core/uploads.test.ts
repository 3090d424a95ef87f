// sentry-cli's chunk upload and legacy release files against hostile bodies: the core service with a real SQLite
// store, fed by the routes' own body readers (web/api/upload-bodies.ts) over real fetch Requests. Quotas come before
// any part is read, parts are inflated and stored one at a time within the request's cap, and every malformed body is
// a 4xx AppError with a detail, never anything else.
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { after, before, describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import { UPLOAD_LIMITS } from "../../src/config/limits";
import type { CoreContext } from "../../src/core/context";
import { isAppError } from "../../src/core/errors";
import { strToU8, zipSync } from "fflate";
import { assembleArtifactBundle } from "../../src/core/artifact-assemble";
import { serialGate } from "../../src/core/serial-gate";
import { type ChunkPart, sha1Hex, uploadChunks } from "../../src/core/uploads";
import type { User } from "../../src/storage/ports";
import { readChunkParts, readReleaseFile } from "../../src/web/api/upload-bodies";
import { type TestCore, testCore, uniq } from "../helpers/core";

const BOUNDARY = "----faultline-boundary";
type Part = { field?: string; filename?: string; headers?: string; data: Uint8Array | string };

/** A multipart body as sentry-cli writes one: a part per chunk, named by field and filename (file parts typed). */
function multipart(parts: Part[], boundary = BOUNDARY, close = true): Uint8Array<ArrayBuffer> {
  const out: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data${p.field === undefined ? "" : `; name="${p.field}"`}${p.filename === undefined ? "" : `; filename="${p.filename}"`}`;
    const type = p.filename === undefined ? "" : "Content-Type: application/octet-stream\r\n";
    out.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.headers ?? ""}${type}\r\n`), Buffer.from(p.data), Buffer.from("\r\n"));
  }
  if (close) out.push(Buffer.from(`--${boundary}--\r\n`));
  return new Uint8Array(Buffer.concat(out));
}

const request = (body: BodyInit, type = `multipart/form-data; boundary=${BOUNDARY}`, headers: Record<string, string> = {}) =>
  new Request("http://faultline.test/api/0/organizations/o/chunk-upload/", {
    method: "POST",
    body,
    headers: { "content-type": type, ...headers },
    duplex: "half",
  } as RequestInit);

/**
 * A body whose first bytes arrive, then nothing more: a client that stalls. A Node stream, as Next.js hands a route
 * the IncomingMessage (a read pending on it holds back cancelling it).
 */
function stalled(first: Uint8Array): BodyInit {
  const body = new Readable({ read() {} });
  body.push(first);
  return body as unknown as BodyInit;
}

const ZEROS = new Uint8Array(UPLOAD_LIMITS.chunkSize);
const ZEROS_GZ = gzipSync(ZEROS, { level: 9 });
const ZEROS_SHA1 = sha1Hex(ZEROS);

describe("hostile input: chunk upload and release files", () => {
  let t: TestCore;
  let ctx: CoreContext;
  let owner: User;
  let org: { id: number; slug: string };

  before(async () => {
    t = await testCore();
    owner = await t.accounts.createUser({ email: `${uniq("ci")}@example.com`, password: "password123", name: "CI" });
    ctx = t.as(owner);
    org = await t.store.createOrganization({ slug: uniq("org"), name: "Org", ownerUserId: owner.id });
  });
  after(() => t.close());

  /** The AppError a call fails with, as [code, message]. */
  async function refusal(run: () => Promise<unknown>): Promise<[string, string]> {
    try {
      await run();
    } catch (err) {
      if (isAppError(err)) return [err.code, err.message];
      throw err;
    }
    assert.fail("expected a refusal");
  }

  test("hostile input #9: 64 gzip parts of 8 MiB of zeros (511 KB sent) stop at the request's inflate cap with 413, one part at a time", async () => {
    const parts: ChunkPart[] = Array.from({ length: 64 }, () => ({ field: "file_gzip", filename: ZEROS_SHA1, data: ZEROS_GZ }));
    assert.ok(parts.reduce((n, p) => n + p.data.byteLength, 0) < 600_000, "the whole attack is small on the wire");
    const [code, message] = await refusal(() => uploadChunks(ctx, org.slug, parts));
    assert.equal(code, "payload_too_large");
    assert.match(message, /inflate to more than 67108864 bytes/);

    // Pulled through an iterable, as the route reads parts: each chunk is stored before the next part is read, and no
    // part beyond the cap is read at all.
    const org2 = await t.store.createOrganization({ slug: uniq("org"), name: "Org 2", ownerUserId: owner.id });
    let pulled = 0;
    const distinct = Array.from({ length: 64 }, (_, i) => {
      const data = new Uint8Array(UPLOAD_LIMITS.chunkSize);
      data[0] = i;
      return { field: "file_gzip", filename: sha1Hex(data), data: gzipSync(data) };
    });
    async function* oneByOne(): AsyncGenerator<ChunkPart> {
      for (const [i, part] of distinct.entries()) {
        if (i > 0)
          assert.deepEqual(
            [...(await t.store.presentChunks(org2.id, [distinct[i - 1]!.filename]))],
            [distinct[i - 1]!.filename],
            `chunk ${i - 1} is stored before part ${i} is read`,
          );
        pulled++;
        yield part;
      }
    }
    assert.equal((await refusal(() => uploadChunks(ctx, org2.slug, oneByOne())))[0], "payload_too_large");
    const fit = UPLOAD_LIMITS.maxRequestChunkBytes / UPLOAD_LIMITS.chunkSize;
    assert.equal(pulled, fit + 1, "the part past the cap is read, then refused before it is inflated whole");
    assert.equal(await t.store.pendingChunkBytes(org2.id), fit * UPLOAD_LIMITS.chunkSize, "the chunks before it are whole and stored");
  });

  test("hostile input #9: an organization at its pending-chunk quota is refused before any part is read", async () => {
    const full = await t.store.createOrganization({ slug: uniq("org"), name: "Full", ownerUserId: owner.id });
    await t.db.kysely
      .insertInto("upload_chunks")
      .values({
        organization_id: full.id,
        checksum: "f".repeat(40),
        data: new Uint8Array(1),
        size: UPLOAD_LIMITS.maxPendingChunkBytes,
        created_at: new Date().toISOString(),
      })
      .execute();
    let pulled = 0;
    async function* parts(): AsyncGenerator<ChunkPart> {
      pulled++;
      yield { field: "file_gzip", filename: ZEROS_SHA1, data: ZEROS_GZ };
    }
    assert.equal((await refusal(() => uploadChunks(ctx, full.slug, parts())))[0], "rate_limited");
    assert.equal(pulled, 0);
  });

  test("hostile input #9: malformed chunk-upload bodies get a 4xx with a detail, through the route's reader", async () => {
    const chunk = Buffer.from(uniq("chunk"));
    const good = { field: "file", filename: sha1Hex(chunk), data: chunk };
    const upload = (req: Request, idleTimeoutMs?: number) => refusal(() => uploadChunks(ctx, org.slug, readChunkParts(req, idleTimeoutMs)));
    const cases: [string, () => Promise<[string, string]>, string, RegExp][] = [
      ["not multipart", () => upload(request("{}", "application/json")), "bad_request", /Expected a multipart\/form-data body/],
      ["no boundary", () => upload(request(multipart([good]), "multipart/form-data; charset=utf-8")), "bad_request", /no boundary/],
      ["truncated", () => upload(request(multipart([good]).subarray(0, 120))), "bad_request", /malformed: unexpected end of (form|file)/],
      ["no closing boundary", () => upload(request(multipart([good], BOUNDARY, false))), "bad_request", /malformed: unexpected end of (form|file)/],
      ["another boundary than declared", () => upload(request(multipart([good], "other-boundary"))), "bad_request", /malformed: unexpected end of form/],
      ["a part without a name", () => upload(request(multipart([{ ...good, field: undefined }]))), "bad_request", /a part has no name/],
      [
        "a 20 KiB part header",
        () => upload(request(multipart([{ ...good, headers: `X-Padding: ${"a".repeat(20 * 1024)}\r\n` }]))),
        "bad_request",
        /malformed part header/,
      ],
      ["a text field", () => upload(request(multipart([{ field: "note", data: "hello" }]))), "bad_request", /Unexpected form field/],
      ["a gzip part that is not gzip", () => upload(request(multipart([{ ...good, field: "file_gzip" }]))), "bad_request", /is not valid gzip/],
      [
        "a gzip part that inflates past the chunk size",
        () => upload(request(multipart([{ field: "file_gzip", filename: ZEROS_SHA1, data: gzipSync(new Uint8Array(UPLOAD_LIMITS.chunkSize + 1)) }]))),
        "bad_request",
        /Chunk size too large/,
      ],
      [
        "a part over the chunk size as sent",
        () => upload(request(multipart([{ field: "file", filename: ZEROS_SHA1, data: new Uint8Array(UPLOAD_LIMITS.maxPartSize + 1) }]))),
        "bad_request",
        /Chunk size too large/,
      ],
      [
        "more parts than chunksPerRequest",
        () => upload(request(multipart(Array.from({ length: UPLOAD_LIMITS.chunksPerRequest + 1 }, () => good)))),
        "bad_request",
        /Too many chunks/,
      ],
      [
        "a declared length over maxRequestSize",
        () => upload(request(multipart([good]), undefined, { "content-length": String(UPLOAD_LIMITS.maxRequestSize + 1) })),
        "payload_too_large",
        /larger than 33554432 bytes/,
      ],
      [
        "a streamed body over maxRequestSize",
        () =>
          upload(
            request(multipart(Array.from({ length: 5 }, () => ({ field: "file", filename: ZEROS_SHA1, data: new Uint8Array(UPLOAD_LIMITS.maxPartSize) })))),
            1000,
          ),
        "payload_too_large",
        /larger than 33554432 bytes/,
      ],
      [
        "a client that stops sending",
        () => upload(request(stalled(multipart([good]).subarray(0, 150))), 50),
        "request_timeout",
        /No part of the request body arrived for 0.05 seconds/,
      ],
    ];
    for (const [what, run, code, detail] of cases) {
      const [gotCode, gotMessage] = await run();
      assert.equal(gotCode, code, `${what}: ${gotMessage}`);
      assert.match(gotMessage, detail, what);
    }
  });

  test("hostile input #9: bundles are assembled one at a time, the calls arriving meanwhile wait in a bounded line", async () => {
    const gate = serialGate(2, () => new Error("full"));
    let running = 0;
    let most = 0;
    const order: string[] = [];
    let releaseFirst = () => {};
    const task = (name: string, hold?: Promise<void>) => async () => {
      most = Math.max(most, ++running);
      order.push(`start ${name}`);
      await hold;
      await new Promise(setImmediate);
      order.push(`end ${name}`);
      running--;
      return name;
    };
    const first = gate(task("a", new Promise<void>((r) => (releaseFirst = r))));
    while (!order.includes("start a")) await new Promise(setImmediate);
    const waiting = [gate(task("b")), gate(task("c"))];
    await assert.rejects(gate(task("d")), /full/, "a third call while two wait is refused at once");
    releaseFirst();
    assert.deepEqual(await Promise.all([first, ...waiting]), ["a", "b", "c"]);
    assert.deepEqual([most, order], [1, ["start a", "end a", "start b", "end b", "start c", "end c"]]);
    assert.equal(await gate(task("e")), "e", "the line is free again");
  });

  test("assemble calls arriving together each get their bundle; the same bundle twice is stored once", async () => {
    const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("web"), name: "Web", platform: "javascript" });
    const bundles = Array.from({ length: 4 }, (_, i) =>
      Buffer.from(
        zipSync({
          "manifest.json": strToU8(JSON.stringify({ files: { "files/_/_/app.js": { type: "minified_source", url: `~/app-${i}.js` } } })),
          "files/_/_/app.js": strToU8(uniq(`bundle ${i}`)),
        }),
      ),
    );
    for (const b of bundles) await uploadChunks(ctx, org.slug, [{ field: "file_gzip", filename: sha1Hex(b), data: gzipSync(b) }]);
    const calls = [...bundles, bundles[0]!].map((b) =>
      assembleArtifactBundle(ctx, org.slug, { checksum: sha1Hex(b), chunks: [sha1Hex(b)], projects: [project.slug] }, ["artifact_bundles"]),
    );
    assert.deepEqual(
      await Promise.all(calls),
      Array.from({ length: 5 }, () => ({ state: "ok", missingChunks: [], detail: null })),
    );
    const stored = await t.db.kysely.selectFrom("artifact_bundles").select("checksum").where("organization_id", "=", org.id).execute();
    assert.deepEqual(stored.map((r) => r.checksum).sort(), bundles.map(sha1Hex).sort());
  });

  test("a chunk upload as sentry-cli sends it is stored: gzip and plain parts, in one request", async () => {
    const a = Buffer.from(uniq("first half of a bundle"));
    const b = Buffer.from(uniq("second half"));
    await uploadChunks(
      ctx,
      org.slug,
      readChunkParts(
        request(
          multipart([
            { field: "file_gzip", filename: sha1Hex(a), data: gzipSync(a) },
            { field: "file", filename: sha1Hex(b), data: b },
          ]),
        ),
      ),
    );
    assert.deepEqual([...(await t.store.presentChunks(org.id, [sha1Hex(a), sha1Hex(b)]))].sort(), [sha1Hex(a), sha1Hex(b)].sort());
  });

  test("hostile input #9: legacy release-file bodies: one file with small fields, else a 4xx", async () => {
    const read = (parts: Part[], idle?: number) => refusal(() => readReleaseFile(request(multipart(parts)), idle));
    const file = { field: "file", filename: "app.js", data: "console.log(1)" };
    const ok = await readReleaseFile(request(multipart([file, { field: "name", data: "~/app.js" }, { field: "header", data: "Sourcemap:app.js.map" }])));
    assert.deepEqual([ok.file?.filename, ok.name, ok.dist, ok.headers], ["app.js", "~/app.js", null, ["Sourcemap:app.js.map"]]);
    assert.deepEqual(await read([file, file]), ["bad_request", "Send one file per request"]);
    assert.deepEqual(await read([file, { field: "name", data: "a" }, { field: "name", data: "b" }]), ["bad_request", "name is given more than once"]);
    assert.deepEqual(await read([file, { field: "name", data: "x".repeat(UPLOAD_LIMITS.maxReleaseFileFieldSize + 1) }]), [
      "payload_too_large",
      "The form field name is longer than 65536 bytes",
    ]);
    assert.deepEqual(await read([file, ...Array.from({ length: UPLOAD_LIMITS.maxReleaseFileFields + 1 }, () => ({ field: "header", data: "A:b" }))]), [
      "bad_request",
      "More than 64 form fields",
    ]);
    assert.deepEqual(await read([{ ...file, field: "upload" }]), ["bad_request", "Unexpected file field upload: send the file as file"]);
    assert.equal((await read([{ ...file, data: new Uint8Array(UPLOAD_LIMITS.maxFileSize + 1) }]))[0], "payload_too_large");
    assert.equal((await refusal(() => readReleaseFile(request(stalled(multipart([file]).subarray(0, 100))), 50)))[0], "request_timeout");
  });
});
