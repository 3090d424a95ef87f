// Properties of readBody over generated bodies (fast-check): under every Content-Encoding it either returns at most
// maxDecompressedBytes or refuses with bad_encoding / payload_too_large, whatever the bytes and however they are
// sliced into chunks, and it never hangs (each test has a timeout). Valid bodies decode back to what was encoded.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import zlib from "node:zlib";
import fc from "fast-check";
import { type BodyLimits, readBody } from "../../src/protocol/content-encoding";
import type { ProtocolError } from "../../src/protocol/errors";
import { type ZstdBlock, zstdFrame } from "../helpers/compression";
import { mutate, mutations } from "../helpers/mutation";

const RUNS = { numRuns: 500 };
const TIMEOUT = { timeout: 20_000 };
const LIMITS: BodyLimits = { maxCompressedBytes: 64 * 1024, maxDecompressedBytes: 256 * 1024 };
const HEADERS = ["gzip", "x-gzip", "deflate", "br", "zstd", "identity", "", "UTF-8", "gzip, br", "br, zstd", "deflate, gzip"];

async function* chunks(buf: Uint8Array, size: number) {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function decodeOrRefuse(body: Uint8Array, encoding: string, slice = 4096): Promise<Buffer | ProtocolError> {
  let out: Buffer;
  try {
    out = await readBody(chunks(body, slice), encoding, LIMITS);
  } catch (err) {
    assert.ok(err instanceof Error && (err as ProtocolError).isProtocolError === true, `not a ProtocolError: ${String(err)}`);
    const { reason } = err as ProtocolError;
    const stacked = encoding.split(",").filter((t) => !["", "identity", "utf-8"].includes(t.trim().toLowerCase())).length > 1;
    assert.ok(reason === "bad_encoding" || reason === "payload_too_large" || (stacked && reason === "unsupported_encoding"), `unexpected reason ${reason}`);
    return err as ProtocolError;
  }
  assert.ok(Buffer.isBuffer(out));
  assert.ok(out.length <= LIMITS.maxDecompressedBytes, `returned ${out.length} bytes, over the limit`);
  return out;
}

/** A zstd frame of raw and RLE blocks holding exactly `data` (runs of one byte become RLE blocks). */
function zstdOf(data: Uint8Array, rawSize: number): Buffer {
  const blocks: ZstdBlock[] = [];
  for (let i = 0; i < data.length; ) {
    let run = 1;
    while (i + run < data.length && data[i + run] === data[i] && run < 128 * 1024) run++;
    if (run >= 8) {
      blocks.push({ rle: data[i]!, size: run });
    } else {
      run = Math.min(rawSize, data.length - i);
      blocks.push({ raw: data.subarray(i, i + run) });
    }
    i += run;
  }
  return zstdFrame(blocks.length ? blocks : [{ raw: new Uint8Array(0) }]);
}

const encoders: Record<string, (b: Uint8Array, n: number) => Buffer> = {
  gzip: (b, n) => zlib.gzipSync(b, { level: 1 + (n % 9) }),
  deflate: (b, n) => zlib.deflateSync(b, { level: 1 + (n % 9) }),
  "deflate (raw)": (b, n) => zlib.deflateRawSync(b, { level: 1 + (n % 9) }),
  br: (b, n) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: n % 12 } }),
  zstd: (b, n) => zstdOf(b, 1 + (n % 500)),
};
const headerFor = (name: string) => name.replace(" (raw)", "");
/** Payloads that compress (runs from a small alphabet) as well as ones that do not (random bytes). */
const payload = fc.oneof(
  fc.uint8Array({ maxLength: 3000 }),
  fc
    .array(fc.record({ byte: fc.constantFrom(0, 0x0a, 0x41, 0x7b, 0xff), times: fc.integer({ min: 1, max: 300 }) }), { maxLength: 30 })
    .map((runs) => Buffer.concat(runs.map(({ byte, times }) => Buffer.alloc(times, byte)))),
);

describe("readBody refuses bad bodies only with bad_encoding or payload_too_large, and never hangs", () => {
  test("arbitrary bytes under every Content-Encoding, in chunks of any size", TIMEOUT, async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), fc.constantFrom(...HEADERS), fc.integer({ min: 1, max: 5000 }), async (body, encoding, slice) => {
        await decodeOrRefuse(body, encoding, slice);
      }),
      RUNS,
    );
  });

  test("arbitrary bytes behind a valid gzip, zlib or zstd header, so the decoders get past the magic number", TIMEOUT, async () => {
    // zstd: a frame header declaring a window of at most 240 KiB. Larger windows are the subject of the zstd frame
    // header test in content-encoding-cases.test.ts; here they would only make runs slow.
    const prefix = fc.oneof(
      fc.constant({ encoding: "gzip", head: [0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff] }),
      fc.constantFrom(0x01, 0x5e, 0x9c, 0xda).map((flg) => ({ encoding: "deflate", head: [0x78, flg] })),
      fc.integer({ min: 0, max: 0x3f }).map((window) => ({ encoding: "zstd", head: [0x28, 0xb5, 0x2f, 0xfd, 0x00, window] })),
    );
    await fc.assert(
      fc.asyncProperty(prefix, fc.uint8Array({ maxLength: 2048 }), async ({ encoding, head }, rest) => {
        await decodeOrRefuse(Buffer.concat([Buffer.from(head), rest]), encoding);
      }),
      RUNS,
    );
  });

  test("valid compressed bodies with random byte flips, truncations and insertions", TIMEOUT, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(encoders)), payload, fc.nat(), mutations, async (name, data, n, list) => {
        // zstd keeps its 6-byte frame header intact, for the same reason as above.
        const body = mutate(encoders[name]!(data, n), list, name === "zstd" ? 6 : 0);
        await decodeOrRefuse(body, headerFor(name), 1 + (n % 700));
      }),
      RUNS,
    );
  });
});

describe("decoding undoes encoding", () => {
  test("every encoder and level, raw deflate included, in chunks of any size", TIMEOUT, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(encoders)), payload, fc.nat(), async (name, data, n) => {
        const out = await decodeOrRefuse(encoders[name]!(data, n), headerFor(name), 1 + (n % 700));
        assert.ok(!(out instanceof Error), `refused (${out instanceof Error ? out.reason : ""})`);
        assert.deepEqual(out, Buffer.from(data));
      }),
      RUNS,
    );
  });

  test("hostile input #4: two or more stacked encodings are refused before any is undone", TIMEOUT, async () => {
    const names = Object.keys(encoders);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...names), { minLength: 2, maxLength: 6 }), payload, fc.nat(), async (layers, data, n) => {
        let body: Uint8Array = data;
        for (const name of layers) body = encoders[name]!(body, n);
        const out = await decodeOrRefuse(body, layers.map(headerFor).join(", "));
        assert.ok(out instanceof Error && out.reason === "unsupported_encoding", "refused as an unsupported encoding");
      }),
      { numRuns: 200 },
    );
  });
});
