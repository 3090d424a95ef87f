// Compressed request bodies: every encoding SDKs use, both limits enforced while decompressing, corrupt data refused.
// zstd inputs are fixtures made with Debian's zstd (Node 20 has no zstd compressor): event.json.zst and
// zeros-2mib.zst (2 MiB of zero bytes in 82 bytes).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import zlib from "node:zlib";
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
    assert.deepEqual(parseContentEncoding(undefined), []);
    assert.deepEqual(parseContentEncoding(""), []);
    assert.deepEqual(parseContentEncoding("UTF-8"), []);
    assert.deepEqual(parseContentEncoding(" GZIP "), ["gzip"]);
    assert.deepEqual(parseContentEncoding("x-gzip"), ["gzip"]);
    assert.deepEqual(parseContentEncoding("br, zstd"), ["br", "zstd"]);
  });
  test("an unknown encoding is refused", () => {
    assert.throws(() => parseContentEncoding("compress"), (e: ProtocolError) => e.reason === "unsupported_encoding");
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
  test("stacked encodings are undone last-applied first", async () => {
    assert.deepEqual(await read(zlib.gzipSync(zlib.brotliCompressSync(event)), "br, gzip"), event);
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
