// sentry-cli's chunk upload (sentry-protocol.md §6, Sentry's api/endpoints/chunk.py): the options it asks for first,
// then chunks of a file, each named by its SHA-1, kept per organization until an assemble call builds the file from
// them (core/artifact-assemble.ts). A chunk whose bytes do not hash to its name is refused.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { ChunkUploadKind } from "../config/env";
import { UPLOAD_LIMITS } from "../config/limits";
import { requireOrg } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";

export type ChunkUploadOptions = {
  url: string;
  chunkSize: number;
  chunksPerRequest: number;
  maxFileSize: number;
  maxRequestSize: number;
  concurrency: number;
  hashAlgorithm: "sha1";
  compression: string[];
  accept: string[];
  maxWait: number;
};

export const SHA1_HEX = /^[0-9a-f]{40}$/;

export const sha1Hex = (data: Uint8Array): string => createHash("sha1").update(data).digest("hex");

/**
 * GET …/chunk-upload/: where and how to send chunks. `accept` empty means this server offers no chunk upload: 404,
 * which sentry-cli 2.x takes as "upload release files one by one".
 */
export async function chunkUploadOptions(
  ctx: CoreContext,
  orgSlug: string,
  uploadUrl: string,
  accept: readonly ChunkUploadKind[],
): Promise<ChunkUploadOptions> {
  await requireOrg(ctx, orgSlug, "release:write");
  if (accept.length === 0) throw notFound("Chunk upload");
  return {
    url: uploadUrl,
    chunkSize: UPLOAD_LIMITS.chunkSize,
    chunksPerRequest: UPLOAD_LIMITS.chunksPerRequest,
    maxFileSize: UPLOAD_LIMITS.maxBundleSize,
    maxRequestSize: UPLOAD_LIMITS.maxRequestSize,
    concurrency: UPLOAD_LIMITS.concurrency,
    hashAlgorithm: "sha1",
    compression: ["gzip"],
    accept: [...accept],
    // seconds; 0 lets sentry-cli wait its default 5 minutes. Assembly here finishes within the assemble request.
    maxWait: 0,
  };
}

/** One multipart part as the route read it: its field name, its filename (the chunk's SHA-1) and its bytes. */
export type ChunkPart = { field: string; filename: string; data: Uint8Array };

const gunzipWithin = promisify(gunzip);

/**
 * A part's chunk, inflated if it came gzip'd, refused unless it hashes to its name. `room` is what the request may
 * still inflate to (UPLOAD_LIMITS.maxRequestChunkBytes): inflating stops there, in zlib's thread pool.
 */
async function decodeChunk(part: ChunkPart, room: number): Promise<{ checksum: string; data: Uint8Array }> {
  const checksum = part.filename.trim().toLowerCase();
  if (!SHA1_HEX.test(checksum)) throw new AppError("bad_request", `Chunk name must be its SHA-1 in hex, got "${part.filename.slice(0, 60)}"`);
  const requestFull = () =>
    new AppError("payload_too_large", `The chunks of one request inflate to more than ${UPLOAD_LIMITS.maxRequestChunkBytes} bytes; send fewer per request`);
  const limit = Math.min(UPLOAD_LIMITS.chunkSize, room);
  let data = part.data;
  if (part.field === "file_gzip") {
    try {
      data = await gunzipWithin(part.data, { maxOutputLength: Math.max(limit, 1) });
    } catch (err) {
      if ((err as { code?: string }).code !== "ERR_BUFFER_TOO_LARGE") throw new AppError("bad_request", `Chunk ${checksum} is not valid gzip`);
      throw limit < UPLOAD_LIMITS.chunkSize ? requestFull() : new AppError("bad_request", "Chunk size too large");
    }
  } else if (part.field !== "file") {
    throw new AppError("bad_request", `Unknown field "${part.field.slice(0, 60)}": send chunks as file or file_gzip`);
  }
  if (data.byteLength > UPLOAD_LIMITS.chunkSize) throw new AppError("bad_request", "Chunk size too large");
  if (data.byteLength > room) throw requestFull();
  if (sha1Hex(data) !== checksum) throw new AppError("bad_request", `Chunk ${checksum} does not match its SHA-1`);
  return { checksum, data };
}

const pendingFull = () =>
  new AppError(
    "rate_limited",
    `The organization holds more than ${UPLOAD_LIMITS.maxPendingChunkBytes} bytes of chunks not assembled yet; assemble them or wait for their cleanup`,
  );

/**
 * POST …/chunk-upload/: access and the organization's pending bytes are checked before any part is read; then each
 * part is read, inflated, checked and stored before the next is read, so a request holds one part and one chunk at
 * a time and inflates at most UPLOAD_LIMITS.maxRequestChunkBytes. The chunks stored before a refused part stay: each
 * is whole and checked, and counts towards the pending bytes until assembly or cleanup removes it.
 */
export async function uploadChunks(ctx: CoreContext, orgSlug: string, parts: AsyncIterable<ChunkPart> | Iterable<ChunkPart>): Promise<void> {
  const access = await requireOrg(ctx, orgSlug, "release:write");
  let pending = await ctx.store.pendingChunkBytes(access.org.id);
  if (pending >= UPLOAD_LIMITS.maxPendingChunkBytes) throw pendingFull();
  let count = 0;
  let inflated = 0;
  for await (const part of parts) {
    if (++count > UPLOAD_LIMITS.chunksPerRequest) throw new AppError("bad_request", "Too many chunks");
    const chunk = await decodeChunk(part, UPLOAD_LIMITS.maxRequestChunkBytes - inflated);
    inflated += chunk.data.byteLength;
    if (pending + chunk.data.byteLength > UPLOAD_LIMITS.maxPendingChunkBytes) throw pendingFull();
    await ctx.store.putChunks(access.org.id, [chunk], new Date().toISOString());
    pending += chunk.data.byteLength;
  }
}
