// Request-body decoding under attack, beyond content-encoding.test.ts: a 1 GiB bomb in each encoding against a 1 MiB
// limit (refused while streaming, without the process's peak memory growing), truncated bodies, the exact limits,
// and an upload that never ends. Bombs are built in tests/helpers/compression.ts without inflating them.
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { describe, test } from "node:test";
import zlib from "node:zlib";
import { type BodyLimits, readBody } from "../../src/protocol/content-encoding";
import { ProtocolError } from "../../src/protocol/errors";
import { brotliZeros, deflateRawZeros, gzipZeros, MiB, zlibZeros, zstdFrame, zstdZeros } from "../helpers/compression";

async function* chunks(buf: Buffer, size = 64 * 1024) {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}
async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (err) {
    assert.ok(err instanceof ProtocolError, String(err));
    return err.reason;
  }
}
/** Peak resident memory of this process so far, in MiB (it only grows; node:test runs each file in its own process). */
const peakMiB = () => process.resourceUsage().maxRSS / 1024;
const TIMEOUT = { timeout: 20_000 };

const bombs: [string, string, (mib: number) => Buffer | Promise<Buffer>][] = [
  ["gzip", "gzip", gzipZeros],
  ["deflate with the zlib wrapper", "deflate", zlibZeros],
  ["raw deflate", "deflate", deflateRawZeros],
  ["brotli", "br", brotliZeros],
  ["zstd", "zstd", zstdZeros],
];

describe("a 1 GiB decompression bomb stops at a 1 MiB decompressed limit", () => {
  const limits: BodyLimits = { maxCompressedBytes: 8 * MiB, maxDecompressedBytes: 1 * MiB };
  for (const [name, encoding, make] of bombs) {
    test(`${name}: payload_too_large, and peak memory grows by less than 64 MiB`, TIMEOUT, async () => {
      // The construction is a real body: its 2 MiB version decodes to 2 MiB of zeros.
      assert.deepEqual(await readBody(chunks(await make(2)), encoding, { ...limits, maxDecompressedBytes: 4 * MiB }), Buffer.alloc(2 * MiB));
      const bomb = await make(1024);
      assert.ok(bomb.length < limits.maxCompressedBytes, `the bomb is ${bomb.length} bytes on the wire`);
      const before = peakMiB();
      assert.equal(await reason(readBody(chunks(bomb), encoding, limits)), "payload_too_large");
      const grown = peakMiB() - before;
      assert.ok(grown < 64, `peak RSS grew by ${grown.toFixed(0)} MiB while refusing a 1 GiB ${name} bomb`);
    });
  }
});

describe("zstd frame headers", () => {
  // fzstd allocates the window a frame header declares (up to ~2 GiB) and shifts all of it after every block, so ten
  // bytes on the wire can cost the declared window in memory. libzstd (Relay) refuses windows over 128 MiB by default;
  // output is capped at maxDecompressedBytes anyway, so no window larger than that is ever needed.
  test("a 10-byte frame declaring a 512 MiB window does not make the process allocate it", TIMEOUT, async () => {
    const frame = zstdFrame([{ rle: 0x61, size: 1024 }], 0x98);
    assert.equal(frame.length, 10);
    const before = peakMiB();
    const outcome = await reason(readBody(chunks(frame), "zstd", { maxCompressedBytes: MiB, maxDecompressedBytes: MiB }));
    const grown = peakMiB() - before;
    assert.ok(["ok", "bad_encoding", "payload_too_large"].includes(outcome), outcome);
    assert.ok(grown < 64, `peak RSS grew by ${grown.toFixed(0)} MiB for a 10-byte zstd body (outcome: ${outcome})`);
  });

  test("frames are decoded across blocks and 64 KiB slices: raw and RLE blocks, in order", async () => {
    const text = Buffer.from("x".repeat(100_000));
    const frame = zstdFrame([{ raw: text }, { rle: 0x7a, size: 70_000 }, { raw: Buffer.from("!") }]);
    const out = await readBody(chunks(frame, 1000), "zstd", { maxCompressedBytes: MiB, maxDecompressedBytes: MiB });
    assert.deepEqual(out, Buffer.concat([text, Buffer.alloc(70_000, 0x7a), Buffer.from("!")]));
  });
});

describe("truncated bodies are bad_encoding, never a short result", () => {
  const event = Buffer.from(JSON.stringify({ event_id: "9ec79c33ec9942ab8353589fcb2e04dc", message: "truncated ".repeat(400) }));
  const limits = { maxCompressedBytes: MiB, maxDecompressedBytes: MiB };
  const encoded: [string, string, Buffer][] = [
    ["gzip", "gzip", zlib.gzipSync(event)],
    ["zlib deflate", "deflate", zlib.deflateSync(event)],
    ["raw deflate", "deflate", zlib.deflateRawSync(event)],
    ["brotli", "br", zlib.brotliCompressSync(event)],
    ["zstd", "zstd", zstdFrame([{ raw: event.subarray(0, 2000) }, { raw: event.subarray(2000) }])],
  ];
  for (const [name, encoding, body] of encoded) {
    test(`${name}: every cut, from the first byte to the last trailer byte`, async () => {
      assert.deepEqual(await readBody(chunks(body), encoding, limits), event, "the whole body decodes");
      for (let cut = 1; cut < body.length; cut++) {
        assert.equal(await reason(readBody(chunks(body.subarray(0, cut)), encoding, limits)), "bad_encoding", `${name} cut to ${cut} of ${body.length} bytes`);
      }
    });
  }
});

describe("the limits are exact", () => {
  test("a compressed body of exactly maxCompressedBytes is read; one byte less of limit refuses it", async () => {
    const gz = zlib.gzipSync(Buffer.from("exact".repeat(1000)));
    assert.equal((await readBody(chunks(gz, 7), "gzip", { maxCompressedBytes: gz.length, maxDecompressedBytes: MiB })).length, 5000);
    assert.equal(await reason(readBody(chunks(gz, 7), "gzip", { maxCompressedBytes: gz.length - 1, maxDecompressedBytes: MiB })), "payload_too_large");
  });

  test("output of exactly maxDecompressedBytes is accepted, one byte more is payload_too_large, in every encoding", async () => {
    const limit = 200_000;
    const make: [string, (b: Buffer) => Buffer][] = [
      ["gzip", (b) => zlib.gzipSync(b)],
      ["deflate", (b) => zlib.deflateSync(b)],
      ["deflate", (b) => zlib.deflateRawSync(b)],
      ["br", (b) => zlib.brotliCompressSync(b)],
      [
        "zstd",
        (b) =>
          zstdFrame([
            { rle: 0x62, size: 131_072 },
            { rle: 0x62, size: b.length - 131_072 },
          ]),
      ],
    ];
    for (const [encoding, compress] of make) {
      const exact = Buffer.alloc(limit, 0x62);
      const l = { maxCompressedBytes: MiB, maxDecompressedBytes: limit };
      assert.deepEqual(await readBody(chunks(compress(exact)), encoding, l), exact, encoding);
      assert.equal(await reason(readBody(chunks(compress(Buffer.alloc(limit + 1, 0x62))), encoding, l)), "payload_too_large", encoding);
    }
  });
});

describe("an upload that never ends", () => {
  for (const encoding of ["gzip", "zstd", undefined]) {
    test(`is refused at the compressed limit and its source is closed (${encoding ?? "no encoding"})`, TIMEOUT, async () => {
      let pulled = 0;
      let closed = false;
      async function* endless() {
        try {
          for (;;) {
            pulled++;
            yield Buffer.alloc(64 * 1024, 0x41);
          }
        } finally {
          closed = true;
        }
      }
      const limits = { maxCompressedBytes: MiB, maxDecompressedBytes: MiB };
      assert.equal(await reason(readBody(endless(), encoding, limits)), "payload_too_large");
      assert.ok(pulled >= 17 && pulled <= 18, `reading stops just past 1 MiB (${pulled} chunks of 64 KiB pulled)`);
      assert.ok(closed, "the body's iterator is returned, so the request stream can be destroyed");
    });
  }
});

// The event loop must not be held while a bomb inflates: gzip, deflate and brotli inflate in zlib's thread pool past
// the synchronous size; zstd (fzstd, JavaScript) hands the loop back after every step. Counted in turns of the loop
// that other work got while one bomb was decoded, not timed.
describe("hostile input #4 (the class): inflating a bomb gives the event loop back", () => {
  for (const [name, encoding, make] of bombs) {
    test(`${name}: other work runs while 32 MiB are inflated`, TIMEOUT, async () => {
      const bomb = await make(40);
      let turns = 0;
      let decoding = true;
      const spin = () => {
        if (!decoding) return;
        turns++;
        setImmediate(spin);
      };
      setImmediate(spin);
      const outcome = await reason(
        readBody(chunks(bomb), encoding, { maxCompressedBytes: 8 * MiB, maxDecompressedBytes: 32 * MiB }).finally(() => (decoding = false)),
      );
      assert.equal(outcome, "payload_too_large");
      assert.ok(turns >= 16, `the loop turned ${turns} times while 32 MiB were inflated`);
    });
  }
});

// A body held is memory every request shares (ingest/read-budget.ts): one arriving too slowly is refused, not waited on.
describe("hostile input #8: a body that arrives too slowly is refused (request_timeout)", () => {
  const deadline = { idleMs: 200, minBytesPerSecond: 64 * 1024, rateGraceBytes: MiB, wholeGraceMs: 10_000 };
  const limits = { maxCompressedBytes: 8 * MiB, maxDecompressedBytes: 8 * MiB };

  test("nothing more for the idle time", TIMEOUT, async () => {
    const stream = new PassThrough();
    stream.write(Buffer.from('{"event_id":"'));
    assert.equal(await reason(readBody(stream, undefined, limits, { deadline })), "request_timeout");
  });

  test("a trickle past the grace size, below the minimum rate", TIMEOUT, async () => {
    const stream = new PassThrough();
    stream.write(Buffer.alloc(MiB + 1));
    const trickle = setInterval(() => stream.write(Buffer.alloc(1024)), 20);
    try {
      assert.equal(await reason(readBody(stream, undefined, limits, { deadline })), "request_timeout");
    } finally {
      clearInterval(trickle);
    }
  });

  test("a trickle that never idles and never passes the grace size, once its whole-body time is over", TIMEOUT, async () => {
    const stream = new PassThrough();
    const started = Date.now();
    const trickle = setInterval(() => stream.write(Buffer.from(" ")), 20);
    try {
      // 300 ms, plus a second per 64 KiB: a few bytes add next to nothing.
      assert.equal(await reason(readBody(stream, undefined, limits, { deadline: { ...deadline, wholeGraceMs: 300 } })), "request_timeout");
      assert.ok(Date.now() - started < 5_000);
    } finally {
      clearInterval(trickle);
    }
  });

  test("a body that keeps coming at a good pace, with pauses shorter than the idle time, is read whole", TIMEOUT, async () => {
    const stream = new PassThrough();
    const read = readBody(stream, undefined, limits, { deadline });
    for (let i = 0; i < 4; i++) {
      stream.write(Buffer.alloc(256 * 1024, 0x61));
      await new Promise((r) => setTimeout(r, 50));
    }
    stream.end();
    assert.equal((await read).length, MiB);
  });
});
