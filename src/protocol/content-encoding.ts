// Request bodies as SDKs compress them: gzip, deflate (zlib, or raw as some clients send it), br and zstd
// (sentry-protocol.md §1, "Content-Encoding"). Both limits are enforced while streaming, so a decompression bomb stops
// at the limit instead of filling memory. An empty or "UTF-8" Content-Encoding (sent by some SDKs) means none.
import zlib from "node:zlib";
import { Decompress as ZstdDecompress } from "fzstd";
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

/** Collects a stream of chunks, refusing it as soon as it passes `limit` bytes. */
export async function collect(chunks: AsyncIterable<Uint8Array>, limit: number, what = "request body"): Promise<Buffer> {
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

async function decodeOne(input: Buffer, encoding: ContentEncoding, limit: number): Promise<Buffer> {
  switch (encoding) {
    case "identity":
      return input;
    case "gzip":
      return inflateNode(input, zlib.createGunzip(), limit);
    case "deflate":
      return inflateNode(input, isZlibWrapped(input) ? zlib.createInflate() : zlib.createInflateRaw(), limit);
    case "br":
      return inflateNode(input, zlib.createBrotliDecompress(), limit);
    case "zstd":
      return unzstd(input, limit);
  }
}

/** Reads a request body within the compressed limit and decodes it within the decompressed limit. */
export async function readBody(chunks: AsyncIterable<Uint8Array>, contentEncoding: string | undefined, limits: BodyLimits): Promise<Buffer> {
  const encodings = parseContentEncoding(contentEncoding);
  let body = await collect(chunks, encodings.length ? limits.maxCompressedBytes : limits.maxDecompressedBytes);
  for (const encoding of [...encodings].reverse()) body = await decodeOne(body, encoding, limits.maxDecompressedBytes);
  return body;
}
