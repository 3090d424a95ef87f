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

/** What the server shares between all requests it reads at once. */
export type ReadOptions = {
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
function collectStream(stream: ChunkStream, limit: number, what: string, hold: ReadOptions["hold"], then: (body: Buffer) => Buffer | Promise<Buffer> = (b) => b): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const body = new BodyBuffer(limit);
    const done = (settle: () => void) => {
      stream.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      settle();
    };
    const stop = (err: Error) => {
      body.clear();
      done(() => reject(err));
      stream.resume();
    };
    const onData = (chunk: Buffer) => {
      if (hold && !hold(chunk.byteLength)) return stop(new BodyBudgetError());
      if (!body.push(chunk)) stop(tooLarge(what, limit));
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
  });
}

/** Collects a stream of chunks, refusing it as soon as it passes `limit` bytes. */
export async function collect(chunks: AsyncIterable<Uint8Array>, limit: number, what = "request body", hold?: ReadOptions["hold"]): Promise<Buffer> {
  if (isStream(chunks)) return collectStream(chunks, limit, what, hold);
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
const MAX_ZSTD_WINDOW = 8 * 1024 * 1024;

/**
 * The memory a zstd frame asks for (RFC 8878 §3.1.1.1): its window, or for a single-segment frame its content size.
 * Checked before decoding, because the decoder reserves it at once: ten bytes could otherwise claim gigabytes.
 */
function zstdFrameMemory(input: Buffer): { window: number } | { contentSize: number } | null {
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

function unzstd(input: Buffer, limit: number): Buffer {
  if (input.length === 0) throw new ProtocolError("bad_encoding", "the body does not decompress");
  const frame = zstdFrameMemory(input);
  if (frame && "contentSize" in frame && frame.contentSize > limit) throw tooLarge("decompressed body", limit);
  if (frame && "window" in frame && frame.window > MAX_ZSTD_WINDOW) throw new ProtocolError("bad_encoding", `zstd window larger than ${MAX_ZSTD_WINDOW} bytes`);
  const body = new BodyBuffer(limit);
  const d = new ZstdDecompress((chunk) => {
    if (!body.push(chunk)) throw tooLarge("decompressed body", limit);
  });
  try {
    // Feed in slices so that the size check runs while inflating, not after.
    const step = 64 * 1024;
    for (let i = 0; i < input.length; i += step) d.push(input.subarray(i, i + step), i + step >= input.length);
    if (input.length === 0) d.push(new Uint8Array(0), true);
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    throw new ProtocolError("bad_encoding", "the body does not decompress");
  }
  return body.bytes();
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
      return unzstd(input, limit);
  }
}

/**
 * Reads a request body within the compressed limit and decodes it within the decompressed limit. From a stream, the
 * common case (a body that inflates to less than INGEST_LIMITS.maxSyncInflateBytes) costs one promise.
 */
export function readBody(chunks: AsyncIterable<Uint8Array>, contentEncoding: string | undefined, limits: BodyLimits, options: ReadOptions = {}): Promise<Buffer> {
  let encoding: ContentEncoding;
  try {
    encoding = parseContentEncoding(contentEncoding);
  } catch (err) {
    return Promise.reject(err);
  }
  const limit = encoding === "identity" ? limits.maxDecompressedBytes : limits.maxCompressedBytes;
  const decode = (body: Buffer) => decodeOne(body, encoding, limits.maxDecompressedBytes, options.gate);
  if (isStream(chunks)) return collectStream(chunks, limit, "request body", options.hold, decode);
  return collect(chunks, limit, "request body", options.hold).then(decode);
}
