// Compressed request bodies: every encoding SDKs use, both limits enforced while decompressing, corrupt data refused.
// zstd inputs are fixtures made with Debian's zstd (Node 20 has no zstd compressor): event.json.zst and
// zeros-2mib.zst (2 MiB of zero bytes in 82 bytes).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { describe, test } from "node:test";
import zlib from "node:zlib";
import { INGEST_LIMITS } from "../../src/config/limits";
import { parseContentEncoding, readBody } from "../../src/protocol/content-encoding";
import { ProtocolError } from "../../src/protocol/errors";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const limits = { maxCompressedBytes: 64 * 1024, maxDecompressedBytes: 1024 * 1024 };
async function* chunks(buf: Buffer, size = 1000) {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}
const read = (buf: Buffer, encoding?: string, l = limits) => readBody(chunks(buf), encoding, l);
async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (err) {
    assert.ok(err instanceof ProtocolError, String(err));
    return err.reason;
  }
}

const event = Buffer.from(JSON.stringify({ event_id: "9ec79c33ec9942ab8353589fcb2e04dc", message: "x".repeat(5000) }));

describe("Content-Encoding header", () => {
  test("empty, identity and UTF-8 mean no encoding; names are case-insensitive", () => {
    assert.equal(parseContentEncoding(undefined), "identity");
    assert.equal(parseContentEncoding(""), "identity");
    assert.equal(parseContentEncoding("UTF-8"), "identity");
    assert.equal(parseContentEncoding(" GZIP "), "gzip");
    assert.equal(parseContentEncoding("x-gzip"), "gzip");
    assert.equal(parseContentEncoding("identity, br"), "br");
  });
  // Each layer was another full decode on the event loop: 5,000 layers of br in a 233 KB body held it for 435 ms.
  test("hostile input #4: stacked encodings are refused (one at most, as Relay decodes one)", () => {
    for (const header of ["br, zstd", "gzip,gzip", Array(5000).fill("br").join(",")]) {
      assert.throws(
        () => parseContentEncoding(header),
        (e: ProtocolError) => e.reason === "unsupported_encoding",
        header.slice(0, 20),
      );
    }
  });
  test("an unknown encoding is refused", () => {
    assert.throws(
      () => parseContentEncoding("compress"),
      (e: ProtocolError) => e.reason === "unsupported_encoding",
    );
  });
});

describe("decoding", () => {
  test("identity, gzip, zlib deflate, raw deflate and brotli round-trip", async () => {
    assert.deepEqual(await read(event), event);
    assert.deepEqual(await read(zlib.gzipSync(event), "gzip"), event);
    assert.deepEqual(await read(zlib.deflateSync(event), "deflate"), event);
    assert.deepEqual(await read(zlib.deflateRawSync(event), "deflate"), event);
    assert.deepEqual(await read(zlib.brotliCompressSync(event), "br"), event);
  });
  test("zstd (fixture made by the zstd tool)", async () => {
    assert.equal((await read(fixture("event.json.zst"), "zstd")).toString(), '{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","message":"zstd body"}');
  });
  test("corrupt bodies are refused, not crashed on", async () => {
    for (const enc of ["gzip", "deflate", "br", "zstd"]) assert.equal(await reason(read(Buffer.from("definitely not compressed"), enc)), "bad_encoding", enc);
  });
});

describe("limits, enforced while streaming", () => {
  test("a compressed body over its limit is refused before decompressing", async () => {
    const big = zlib.gzipSync(Buffer.from(Array.from({ length: 200_000 }, (_, i) => String(i)).join(",")));
    assert.ok(big.length > limits.maxCompressedBytes);
    assert.equal(await reason(read(big, "gzip")), "payload_too_large");
  });
  test("decompression bombs stop at the decompressed limit (gzip, brotli, zstd)", async () => {
    const zeros = Buffer.alloc(50 * 1024 * 1024);
    for (const [enc, bomb] of [
      ["gzip", zlib.gzipSync(zeros)],
      ["br", zlib.brotliCompressSync(zeros)],
      ["zstd", fixture("zeros-2mib.zst")],
    ] as const) {
      assert.ok(bomb.length < limits.maxCompressedBytes, `${enc} bomb is small on the wire`);
      assert.equal(await reason(read(bomb, enc)), "payload_too_large", enc);
    }
  });
  test("an uncompressed body is held to the decompressed limit", async () => {
    assert.equal(await reason(read(Buffer.alloc(limits.maxDecompressedBytes + 1))), "payload_too_large");
    assert.equal((await read(Buffer.alloc(limits.maxDecompressedBytes))).length, limits.maxDecompressedBytes);
  });
});

describe("one call for small bodies, a stream for large ones", () => {
  const sync = INGEST_LIMITS.maxSyncInflateBytes;
  const wide = { maxCompressedBytes: 8 * 1024 * 1024, maxDecompressedBytes: 8 * 1024 * 1024 };
  const text = (bytes: number) =>
    Buffer.from(
      Array.from({ length: Math.ceil(bytes / 7) }, (_, i) => (i * 7919).toString(36).padStart(7, "0"))
        .join("")
        .slice(0, bytes),
    );
  const encoders: [string, (b: Buffer) => Buffer][] = [
    ["gzip", (b) => zlib.gzipSync(b)],
    ["deflate", (b) => zlib.deflateSync(b)],
    ["deflate", (b) => zlib.deflateRawSync(b)],
    ["br", (b) => zlib.brotliCompressSync(b)],
  ];
  test("bodies just under, at and over the synchronous cap decode the same in every zlib encoding", async () => {
    for (const size of [sync - 1, sync, sync + 1, 3 * sync]) {
      const body = text(size);
      for (const [enc, encode] of encoders) assert.deepEqual(await read(encode(body), enc, wide), body, `${enc}, ${size} bytes`);
    }
  });
  test("the decompressed limit holds on both paths: below the synchronous cap, and above it", async () => {
    const small = { maxCompressedBytes: 64 * 1024, maxDecompressedBytes: 1000 };
    assert.equal(await reason(read(zlib.gzipSync(text(1001)), "gzip", small)), "payload_too_large");
    assert.equal((await read(zlib.gzipSync(text(1000)), "gzip", small)).length, 1000);
    assert.equal(await reason(read(zlib.gzipSync(text(2 * sync + 1)), "gzip", { ...wide, maxDecompressedBytes: 2 * sync })), "payload_too_large");
  });
});

describe("a request stream, read through its events", () => {
  test("the body arrives whole and decoded", async () => {
    const gz = zlib.gzipSync(event);
    assert.deepEqual(await readBody(Readable.from([gz.subarray(0, 100), gz.subarray(100)]), "gzip", limits), event);
    assert.deepEqual(await readBody(Readable.from([event]), undefined, limits), event);
  });
  test("past the limit the stream is destroyed and the body refused", async () => {
    const stream = Readable.from(
      (function* () {
        for (let i = 0; i < 100; i++) yield Buffer.alloc(64 * 1024);
      })(),
    );
    assert.equal(await reason(readBody(stream, undefined, limits)), "payload_too_large");
    assert.ok(stream.destroyed);
  });
  test("a stream that ends in an error, or closes early, rejects with the connection's error", async () => {
    const failing = new Readable({ read() {} });
    const p1 = readBody(failing, undefined, limits);
    failing.push(Buffer.from("partial"));
    failing.destroy(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
    await assert.rejects(p1, (e: { code?: string }) => e.code === "ECONNRESET");
    const closing = new Readable({ read() {} });
    const p2 = readBody(closing, undefined, limits);
    closing.destroy();
    await assert.rejects(p2, (e: { code?: string }) => e.code === "ECONNRESET");
  });
});
