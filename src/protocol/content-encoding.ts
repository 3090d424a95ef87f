// Request bodies as SDKs compress them: gzip, deflate (zlib, or raw as some clients send it), br and zstd
// (sentry-protocol.md §1, "Content-Encoding"). Both limits are enforced while streaming, so a decompression bomb stops
// at the limit instead of filling memory. An empty or "UTF-8" Content-Encoding (sent by some SDKs) means none.
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { Decompress as ZstdDecompress } from "fzstd";
import { INGEST_LIMITS } from "../config/limits";
import { ProtocolError } from "./errors";

export type ContentEncoding = "identity" | "gzip" | "deflate" | "br" | "zstd";
export type BodyLimits = { maxCompressedBytes: number; maxDecompressedBytes: number };

/** The encoding a Content-Encoding header names; a list ("gzip, br") is decoded outermost last, as HTTP says. */
export function parseContentEncoding(header: string | undefined): ContentEncoding[] {
  const out: ContentEncoding[] = [];
  for (const raw of (header ?? "").split(",")) {
    const token = raw.trim().toLowerCase();
    if (token === "" || token === "identity" || token === "utf-8") continue;
    if (token === "gzip" || token === "x-gzip") out.push("gzip");
    else if (token === "deflate") out.push("deflate");
    else if (token === "br") out.push("br");
    else if (token === "zstd") out.push("zstd");
    else throw new ProtocolError("unsupported_encoding", `unsupported content encoding "${token}"`);
  }
  return out;
}

const tooLarge = (what: string, limit: number) => new ProtocolError("payload_too_large", `${what} is larger than ${limit} bytes`);

type ChunkStream = AsyncIterable<Uint8Array> & Pick<Readable, "on" | "off" | "destroy">;
const isStream = (chunks: AsyncIterable<Uint8Array>): chunks is ChunkStream => typeof (chunks as Partial<Readable>).on === "function";

/**
 * A readable stream (a request) through its events: no async iterator, and so no promise per chunk. Past `limit`, the
 * stream is destroyed, as leaving a for-await loop destroys it. `then` runs on the whole body before the promise settles.
 */
function collectStream(stream: ChunkStream, limit: number, what: string, then: (body: Buffer) => Buffer | Promise<Buffer> = (b) => b): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    const done = (settle: () => void) => {
      stream.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limit) return void parts.push(chunk);
      done(() => reject(tooLarge(what, limit)));
      stream.destroy();
    };
    const onEnd = () =>
      done(() => {
        try {
          resolve(then(parts.length === 1 ? parts[0]! : Buffer.concat(parts, size)));
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
export async function collect(chunks: AsyncIterable<Uint8Array>, limit: number, what = "request body"): Promise<Buffer> {
  if (isStream(chunks)) return collectStream(chunks, limit, what);
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(what, limit);
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/** zlib-wrapped deflate starts with a CMF byte for method 8 whose header checksum holds (RFC 1950). */
const isZlibWrapped = (b: Buffer) => b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0;

function inflateNode(input: Buffer, stream: zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stream.destroy();
        reject(tooLarge("decompressed body", limit));
        return;
      }
      parts.push(chunk);
    });
    stream.on("error", () => reject(new ProtocolError("bad_encoding", "the body does not decompress")));
    stream.on("end", () => resolve(Buffer.concat(parts)));
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
function inflate(input: Buffer, format: ZlibFormat, limit: number): Promise<Buffer> | Buffer {
  const syncCap = Math.min(limit, INGEST_LIMITS.maxSyncInflateBytes);
  try {
    return SYNC_DECODERS[format](input, { maxOutputLength: syncCap });
  } catch (err) {
    if ((err as { code?: string }).code !== "ERR_BUFFER_TOO_LARGE") throw new ProtocolError("bad_encoding", "the body does not decompress");
    if (syncCap >= limit) throw tooLarge("decompressed body", limit);
  }
  return inflateNode(input, STREAM_DECODERS[format](), limit);
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
  const parts: Uint8Array[] = [];
  let size = 0;
  const d = new ZstdDecompress((chunk) => {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge("decompressed body", limit);
    parts.push(chunk);
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
  return Buffer.concat(parts);
}

function decodeOne(input: Buffer, encoding: ContentEncoding, limit: number): Buffer | Promise<Buffer> {
  switch (encoding) {
    case "identity":
      return input;
    case "gzip":
      return inflate(input, "gzip", limit);
    case "deflate":
      return inflate(input, isZlibWrapped(input) ? "zlib" : "raw", limit);
    case "br":
      return inflate(input, "br", limit);
    case "zstd":
      return unzstd(input, limit);
  }
}

/** Undoes the encodings, outermost (listed last) first; synchronous unless a body is too large to inflate at once. */
function decodeAll(body: Buffer, encodings: ContentEncoding[], limit: number): Buffer | Promise<Buffer> {
  for (let i = encodings.length - 1; i >= 0; i--) {
    const decoded = decodeOne(body, encodings[i]!, limit);
    if (decoded instanceof Promise) return decoded.then((b) => decodeAll(b, encodings.slice(0, i), limit));
    body = decoded;
  }
  return body;
}

/**
 * Reads a request body within the compressed limit and decodes it within the decompressed limit. From a stream, the
 * common case (a body that inflates to less than INGEST_LIMITS.maxSyncInflateBytes) costs one promise.
 */
export function readBody(chunks: AsyncIterable<Uint8Array>, contentEncoding: string | undefined, limits: BodyLimits): Promise<Buffer> {
  let encodings: ContentEncoding[];
  try {
    encodings = parseContentEncoding(contentEncoding);
  } catch (err) {
    return Promise.reject(err);
  }
  const limit = encodings.length ? limits.maxCompressedBytes : limits.maxDecompressedBytes;
  const decode = (body: Buffer) => decodeAll(body, encodings, limits.maxDecompressedBytes);
  if (isStream(chunks)) return collectStream(chunks, limit, "request body", decode);
  return collect(chunks, limit).then(decode);
}
