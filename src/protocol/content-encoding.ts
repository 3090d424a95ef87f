// Request bodies as SDKs compress them: gzip, deflate (zlib, or raw as some clients send it), br and zstd
// (sentry-protocol.md §1, "Content-Encoding"). Both limits are enforced while streaming, so a decompression bomb stops
// at the limit instead of filling memory. An empty or "UTF-8" Content-Encoding (sent by some SDKs) means none. One
// encoding at most, as Relay decodes one: each stacked layer would be another full decode of the body (5,000 layers of
// br held the event loop for 435 ms), and no SDK stacks them.
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { Decompress as ZstdDecompress } from "fzstd";
import { INGEST_LIMITS } from "../config/limits";
import { BodyBuffer } from "./body-buffer";
import { ProtocolError } from "./errors";

export type ContentEncoding = "identity" | "gzip" | "deflate" | "br" | "zstd";
export type BodyLimits = { maxCompressedBytes: number; maxDecompressedBytes: number };

/** The longest Content-Encoding header read (characters): longer is no encoding an SDK sends. */
const MAX_HEADER_LENGTH = 64;

/** The one encoding a Content-Encoding header names ("identity" for none); a list of several is refused. */
export function parseContentEncoding(header: string | undefined): ContentEncoding {
  if (header !== undefined && header.length > MAX_HEADER_LENGTH) throw new ProtocolError("unsupported_encoding", "the content encoding header is too long");
  let found: ContentEncoding = "identity";
  for (const raw of (header ?? "").split(",")) {
    const token = raw.trim().toLowerCase();
    if (token === "" || token === "identity" || token === "utf-8") continue;
    let encoding: ContentEncoding;
    if (token === "gzip" || token === "x-gzip") encoding = "gzip";
    else if (token === "deflate") encoding = "deflate";
    else if (token === "br") encoding = "br";
    else if (token === "zstd") encoding = "zstd";
    else throw new ProtocolError("unsupported_encoding", `unsupported content encoding "${token.slice(0, 16)}"`);
    if (found !== "identity") throw new ProtocolError("unsupported_encoding", "only one content encoding is accepted");
    found = encoding;
  }
  return found;
}

const tooLarge = (what: string, limit: number) => new ProtocolError("payload_too_large", `${what} is larger than ${limit} bytes`);

/** The server holds as many request bodies in memory as it allows: this one is refused for now (not malformed). */
export class BodyBudgetError extends Error {
  constructor() {
    super("the server is reading too many large requests at once; retry later");
    this.name = "BodyBudgetError";
  }
}

/** How slowly a body may arrive: past either, it is refused with request_timeout (408). */
export type ReadDeadline = {
  /** milliseconds without a byte. */
  idleMs: number;
  /**
   * bytes per second on average once the body is past `rateGraceBytes` (counted from there, so that speed at the start
   * cannot be banked for a trickle later), judged after a second.
   */
  minBytesPerSecond: number;
  rateGraceBytes: number;
  /** milliseconds; the whole body arrives within this plus a second per `minBytesPerSecond` bytes it brought. */
  wholeGraceMs: number;
};

/** Whether a body that began at `startedAt` and has brought `size` bytes is past its deadline's whole-body time. */
export const pastWholeBody = (deadline: ReadDeadline, startedAt: number, size: number, now = Date.now()): boolean =>
  now - startedAt > deadline.wholeGraceMs + (size / deadline.minBytesPerSecond) * 1000;

/** What the server shares between all requests it reads at once. */
export type ReadOptions = {
  deadline?: ReadDeadline;
  /** Takes `bytes` more of the memory all bodies being read share; false when there is none left. */
  hold?: (bytes: number) => boolean;
  /** Runs a decode that goes on past INGEST_LIMITS.maxSyncInflateBytes when the server allows another one. */
  gate?: <T>(run: () => Promise<T>) => Promise<T>;
};

type ChunkStream = AsyncIterable<Uint8Array> & Pick<Readable, "on" | "off" | "resume">;
const isStream = (chunks: AsyncIterable<Uint8Array>): chunks is ChunkStream => typeof (chunks as Partial<Readable>).on === "function";

/**
 * A readable stream (a request) through its events: no async iterator, and so no promise per chunk. Past `limit`, or
 * when `hold` refuses more memory, what was read is dropped and the rest is read and discarded, not destroyed: the
 * request's answer (413) must reach the client before its connection closes (ingest/linger.ts), and destroying the
 * socket would reset it first. `then` runs on the whole body before the promise settles.
 */
function collectStream(
  stream: ChunkStream,
  limit: number,
  what: string,
  options: ReadOptions,
  then: (body: Buffer) => Buffer | Promise<Buffer> = (b) => b,
): Promise<Buffer> {
  const { hold, deadline } = options;
  return new Promise((resolve, reject) => {
    const body = new BodyBuffer(limit);
    const startedAt = Date.now();
    let idle: NodeJS.Timeout | null = null;
    let graced: { at: number; size: number } | null = null;
    const done = (settle: () => void) => {
      if (idle) clearTimeout(idle);
      stream.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      settle();
    };
    const stop = (err: Error) => {
      body.clear();
      done(() => reject(err));
      stream.resume();
    };
    const tooSlow = () => stop(new ProtocolError("request_timeout", `the ${what} arrived too slowly`));
    const watch = () => {
      if (!deadline) return;
      if (idle) idle.refresh();
      else idle = setTimeout(tooSlow, deadline.idleMs);
    };
    const onData = (chunk: Buffer) => {
      if (hold && !hold(chunk.byteLength)) return stop(new BodyBudgetError());
      if (!body.push(chunk)) return stop(tooLarge(what, limit));
      if (deadline && pastWholeBody(deadline, startedAt, body.size)) return tooSlow();
      if (deadline && body.size > deadline.rateGraceBytes) {
        const now = Date.now();
        graced ??= { at: now, size: body.size };
        const seconds = (now - graced.at) / 1000;
        if (seconds >= 1 && (body.size - graced.size) / seconds < deadline.minBytesPerSecond) return tooSlow();
      }
      watch();
    };
    const onEnd = () =>
      done(() => {
        try {
          resolve(then(body.bytes()));
        } catch (err) {
          reject(err);
        }
      });
    const onError = (err: Error) => done(() => reject(err));
    // A request whose client went away closes without "end" (and may not emit "error" first).
    const onClose = () => done(() => reject(Object.assign(new Error("aborted"), { code: "ECONNRESET" })));
    stream.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
    watch();
  });
}

/** Collects a stream of chunks, refusing it as soon as it passes `limit` bytes. */
export async function collect(chunks: AsyncIterable<Uint8Array>, limit: number, what = "request body", options: ReadOptions = {}): Promise<Buffer> {
  const { hold } = options;
  if (isStream(chunks)) return collectStream(chunks, limit, what, options);
  const body = new BodyBuffer(limit);
  for await (const chunk of chunks) {
    if (hold && !hold(chunk.byteLength)) throw new BodyBudgetError();
    if (!body.push(chunk)) throw tooLarge(what, limit);
  }
  return body.bytes();
}

/** zlib-wrapped deflate starts with a CMF byte for method 8 whose header checksum holds (RFC 1950). */
const isZlibWrapped = (b: Buffer) => b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0;

function inflateNode(input: Buffer, stream: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const body = new BodyBuffer(limit);
    stream.on("data", (chunk: Buffer) => {
      if (body.push(chunk)) return;
      body.clear();
      stream.destroy();
      reject(tooLarge("decompressed body", limit));
    });
    stream.on("error", () => reject(new ProtocolError("bad_encoding", "the body does not decompress")));
    stream.on("end", () => resolve(body.bytes()));
    stream.end(input);
  });
}

type ZlibFormat = "gzip" | "zlib" | "raw" | "br";
const SYNC_DECODERS: Record<ZlibFormat, (input: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: zlib.gunzipSync,
  zlib: zlib.inflateSync,
  raw: zlib.inflateRawSync,
  br: zlib.brotliDecompressSync,
};
const STREAM_DECODERS: Record<ZlibFormat, () => zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress> = {
  gzip: zlib.createGunzip,
  zlib: zlib.createInflate,
  raw: zlib.createInflateRaw,
  br: zlib.createBrotliDecompress,
};

/**
 * Small bodies in one synchronous call that stops at INGEST_LIMITS.maxSyncInflateBytes of output; a body that inflates
 * to more is decoded again as a stream, which enforces the real limit off the event loop.
 */
function inflate(input: Buffer, format: ZlibFormat, limit: number, gate: ReadOptions["gate"]): Promise<Buffer> | Buffer {
  const syncCap = Math.min(limit, INGEST_LIMITS.maxSyncInflateBytes);
  try {
    return SYNC_DECODERS[format](input, { maxOutputLength: syncCap });
  } catch (err) {
    if ((err as { code?: string }).code !== "ERR_BUFFER_TOO_LARGE") throw new ProtocolError("bad_encoding", "the body does not decompress");
    if (syncCap >= limit) throw tooLarge("decompressed body", limit);
  }
  const run = () => inflateNode(input, STREAM_DECODERS[format](), limit);
  return gate ? gate(run) : run();
}

/** bytes (8 MiB, windowLog 23); zstd's own level-19 window. fzstd allocates the declared window up front. */
export const MAX_ZSTD_WINDOW = 8 * 1024 * 1024;

/**
 * The memory a zstd frame asks for (RFC 8878 §3.1.1.1): its window, or for a single-segment frame its content size.
 * Checked before decoding, because the decoder reserves it at once: ten bytes could otherwise claim gigabytes.
 */
export function zstdFrameMemory(input: Buffer): { window: number } | { contentSize: number } | null {
  if (input.length < 6 || input.readUInt32LE(0) !== 0xfd2fb528) return null;
  const descriptor = input[4]!;
  if ((descriptor & 0x20) === 0) {
    const wd = input[5]!;
    const base = 2 ** (10 + (wd >> 3));
    return { window: base + (base / 8) * (wd & 0x07) };
  }
  const dictIdBytes = [0, 1, 2, 4][descriptor & 0x03]!;
  const sizeBytes = [1, 2, 4, 8][descriptor >> 6]!;
  const at = 5 + dictIdBytes;
  if (input.length < at + sizeBytes) return null;
  if (sizeBytes === 1) return { contentSize: input[at]! };
  if (sizeBytes === 2) return { contentSize: input.readUInt16LE(at) + 256 };
  if (sizeBytes === 4) return { contentSize: input.readUInt32LE(at) };
  return { contentSize: Number(input.readBigUInt64LE(at)) };
}

/** bytes; what one step of the zstd decoder may produce at most before it hands the event loop back. */
const ZSTD_OUTPUT_PER_STEP = 1024 * 1024;

/**
 * A zstd frame decoded a slice of input at a time (fzstd is synchronous JavaScript). Each slice is sized from what the
 * last one produced, so a step makes about ZSTD_OUTPUT_PER_STEP however the frame is built: an RLE block of 4 bytes
 * produces 128 KiB, so a bomb is fed a few bytes a step, ordinary data up to 64 KiB.
 */
class ZstdSteps {
  private readonly body: BodyBuffer;
  private readonly decoder: ZstdDecompress;
  private at = 0;
  /** Starts small: 16 bytes hold at most 4 RLE blocks (512 KiB); it doubles while steps produce little. */
  private slice = 16;

  constructor(
    private readonly input: Buffer,
    private readonly limit: number,
  ) {
    this.body = new BodyBuffer(limit);
    this.decoder = new ZstdDecompress((chunk) => {
      if (!this.body.push(chunk)) throw tooLarge("decompressed body", limit);
    });
  }

  get done(): boolean {
    return this.at >= this.input.length;
  }

  get size(): number {
    return this.body.size;
  }

  /** Feeds the next slice; returns how many bytes it produced. */
  step(): number {
    const before = this.body.size;
    const end = Math.min(this.input.length, this.at + this.slice);
    try {
      this.decoder.push(this.input.subarray(this.at, end), end >= this.input.length);
    } catch (err) {
      this.body.clear();
      if (err instanceof ProtocolError) throw err;
      throw new ProtocolError("bad_encoding", "the body does not decompress");
    }
    this.at = end;
    const produced = this.body.size - before;
    if (produced > ZSTD_OUTPUT_PER_STEP) this.slice = Math.max(16, Math.floor((this.slice * ZSTD_OUTPUT_PER_STEP) / produced));
    else if (produced < ZSTD_OUTPUT_PER_STEP / 4) this.slice = Math.min(64 * 1024, this.slice * 2);
    return produced;
  }

  bytes(): Buffer {
    return this.body.bytes();
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * zstd as the other encodings: synchronously up to INGEST_LIMITS.maxSyncInflateBytes of output, then in the gate's
 * turn, handing the event loop back after every step, so a 1 KB bomb cannot hold the loop while it inflates 100 MiB.
 */
function unzstd(input: Buffer, limit: number, gate: ReadOptions["gate"]): Buffer | Promise<Buffer> {
  if (input.length === 0) throw new ProtocolError("bad_encoding", "the body does not decompress");
  const frame = zstdFrameMemory(input);
  if (frame && "contentSize" in frame && frame.contentSize > limit) throw tooLarge("decompressed body", limit);
  if (frame && "window" in frame && frame.window > MAX_ZSTD_WINDOW) throw new ProtocolError("bad_encoding", `zstd window larger than ${MAX_ZSTD_WINDOW} bytes`);
  const steps = new ZstdSteps(input, limit);
  while (!steps.done && steps.size <= INGEST_LIMITS.maxSyncInflateBytes) steps.step();
  if (steps.done) return steps.bytes();
  const run = async () => {
    while (!steps.done) {
      steps.step();
      await nextTurn();
    }
    return steps.bytes();
  };
  return gate ? gate(run) : run();
}

function decodeOne(input: Buffer, encoding: ContentEncoding, limit: number, gate: ReadOptions["gate"]): Buffer | Promise<Buffer> {
  switch (encoding) {
    case "identity":
      return input;
    case "gzip":
      return inflate(input, "gzip", limit, gate);
    case "deflate":
      return inflate(input, isZlibWrapped(input) ? "zlib" : "raw", limit, gate);
    case "br":
      return inflate(input, "br", limit, gate);
    case "zstd":
      return unzstd(input, limit, gate);
  }
}

/**
 * Reads a request body within the compressed limit and decodes it within the decompressed limit. From a stream, the
 * common case (a body that inflates to less than INGEST_LIMITS.maxSyncInflateBytes) costs one promise.
 */
export function readBody(
  chunks: AsyncIterable<Uint8Array>,
  contentEncoding: string | undefined,
  limits: BodyLimits,
  options: ReadOptions = {},
): Promise<Buffer> {
  let encoding: ContentEncoding;
  try {
    encoding = parseContentEncoding(contentEncoding);
  } catch (err) {
    return Promise.reject(err);
  }
  const limit = encoding === "identity" ? limits.maxDecompressedBytes : limits.maxCompressedBytes;
  const decode = (body: Buffer) => decodeOne(body, encoding, limits.maxDecompressedBytes, options.gate);
  if (isStream(chunks)) return collectStream(chunks, limit, "request body", options, decode);
  return collect(chunks, limit, "request body", options).then(decode);
}
