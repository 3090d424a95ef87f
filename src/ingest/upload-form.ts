// The body of a multipart upload to the intake (the attachment and minidump endpoints), read as it arrives: busboy
// splits it, each file part is staged on disk as it streams (attachment-staging.ts), and form fields are kept within
// their limits. Content-Encoding gzip, deflate and br are decoded on the way (Crashpad gzips its uploads). What is
// wrong is a ProtocolError the intake answers with a 4xx: no boundary, a truncated body, too many parts, a field or
// file or body over its limit; a client that stops sending or trickles gets 408 (INGEST_LIMITS.bodyDeadline). Files
// staged by a request that fails are removed. Whatever happens, the request stream is left to the caller to drain.
import type http from "node:http";
import { PassThrough, type Readable } from "node:stream";
import zlib from "node:zlib";
import Busboy from "busboy";
import { ATTACHMENT_LIMITS, INGEST_LIMITS } from "../config/limits";
import { BodyBudgetError, parseContentEncoding, pastWholeBody } from "../protocol/content-encoding";
import { ProtocolError } from "../protocol/errors";
import { type StagedFile, discardStaged, stageStream } from "./attachment-staging";

export type StagedPart = StagedFile & { field: string; filename: string; contentType: string };
/** A file part read into memory instead of staged (sentry-native's msgpack parts): null bytes past its limit. */
export type MemoryPart = { field: string; bytes: Buffer | null; size: number };
export type UploadForm = { files: StagedPart[]; fields: [string, string][]; memory: MemoryPart[] };
/**
 * `inMemory`: file fields read into memory (up to ATTACHMENT_LIMITS.maxNativePartBytes each, the rest counted and
 * dropped) rather than staged; `hold` takes their bytes from the intake's read budget (read-budget.ts).
 */
export type UploadFormOptions = { inMemory?: (field: string) => boolean; hold?: (bytes: number) => boolean };

/** The request body decoded as its Content-Encoding says (zstd is not taken here: no SDK compresses uploads with it). */
function decoded(req: http.IncomingMessage): Readable {
  const encoding = parseContentEncoding(req.headers["content-encoding"] as string | undefined);
  if (encoding === "identity") return req;
  if (encoding === "zstd") throw new ProtocolError("unsupported_encoding", "uploads compressed with zstd are not accepted; use gzip");
  const stream = encoding === "gzip" ? zlib.createGunzip() : encoding === "br" ? zlib.createBrotliDecompress() : zlib.createInflate();
  req.pipe(stream);
  return stream;
}

/** Watches how the body arrives: 408 after `idleMs` without a byte, or below the minimum rate past the grace bytes. */
function watchPace(req: http.IncomingMessage, fail: (err: Error) => void): () => void {
  const { idleMs, minBytesPerSecond, rateGraceBytes } = INGEST_LIMITS.bodyDeadline;
  const startedAt = Date.now();
  let size = 0;
  let graced: { at: number; size: number } | null = null;
  const tooSlow = () => fail(new ProtocolError("request_timeout", "the upload arrived too slowly"));
  const idle = setTimeout(tooSlow, idleMs);
  const onData = (chunk: Buffer) => {
    idle.refresh();
    size += chunk.byteLength;
    if (pastWholeBody(INGEST_LIMITS.bodyDeadline, startedAt, size)) return tooSlow();
    if (size <= rateGraceBytes) return;
    const now = Date.now();
    graced ??= { at: now, size };
    const seconds = (now - graced.at) / 1000;
    if (seconds >= 1 && (size - graced.size) / seconds < minBytesPerSecond) tooSlow();
  };
  req.on("data", onData);
  return () => {
    clearTimeout(idle);
    req.off("data", onData);
  };
}

/**
 * Reads a multipart/form-data upload; `sync` syncs each staged file (FAULTLINE_SPOOL_SYNC=full). Files over
 * ATTACHMENT_LIMITS.maxFileBytes, more than maxFiles files or fields, and fields over their bytes are refused (413 or
 * 400), as is a body that decodes to more than maxRequestBytes.
 */
export function readUploadForm(req: http.IncomingMessage, dir: string, sync: boolean, options: UploadFormOptions = {}): Promise<UploadForm> {
  const type = String(req.headers["content-type"] ?? "");
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new ProtocolError("invalid_multipart", "expected a multipart/form-data body");
  let bb: Busboy.Busboy;
  try {
    bb = Busboy({
      headers: { "content-type": type },
      // File names as SDKs and Crashpad write them: UTF-8 (busboy's default reads them as Latin-1).
      defParamCharset: "utf8",
      limits: {
        files: ATTACHMENT_LIMITS.maxFiles,
        fields: ATTACHMENT_LIMITS.maxFields,
        fieldSize: ATTACHMENT_LIMITS.maxFieldBytes + 1,
        fieldNameSize: ATTACHMENT_LIMITS.maxFieldNameBytes,
        fileSize: ATTACHMENT_LIMITS.maxFileBytes + 1,
        headerPairs: 64,
      },
    });
  } catch {
    throw new ProtocolError("invalid_multipart", "the multipart/form-data body has no boundary");
  }
  const body = decoded(req);
  const files: StagedPart[] = [];
  const fields: [string, string][] = [];
  const memory: MemoryPart[] = [];
  const staging: Promise<unknown>[] = [];
  /** Parts still being staged: ended with the request's failure, so their staging files go too. */
  const active = new Set<Readable>();
  const budget = { left: ATTACHMENT_LIMITS.maxRequestBytes };
  let fieldBytes = 0;
  return new Promise<UploadForm>((resolve, reject) => {
    let failed: Error | null = null;
    const fail = (err: Error) => {
      if (failed) return;
      failed = err;
      stopPace();
      for (const part of active) part.destroy(err);
      body.unpipe(bb);
      if (body !== req) req.unpipe(body as unknown as NodeJS.WritableStream);
      // The rest of the body is read and dropped (the answer goes out with a lingering close).
      req.resume();
      void Promise.allSettled(staging).then(() => discardStaged(files));
      reject(err);
    };
    const stopPace = watchPace(req, fail);
    bb.on("file", (field, stream, info) => {
      if (failed) return void stream.resume();
      if (options.inMemory?.(field)) {
        active.add(stream);
        stream.on("close", () => active.delete(stream));
        return void staging.push(readToMemory(field, stream, budget, options.hold, fail, memory));
      }
      const part = new PassThrough();
      active.add(part);
      part.on("close", () => active.delete(part));
      // Errors reach the staging pipeline (or the request's failure); none may go unheard before it is piped.
      part.on("error", () => undefined);
      stream.on("error", (err: Error) => part.destroy(err));
      stream.on("limit", () => part.destroy(new ProtocolError("payload_too_large", `an attachment is larger than ${ATTACHMENT_LIMITS.maxFileBytes} bytes`)));
      stream.pipe(part);
      const staged = stageStream(dir, part, ATTACHMENT_LIMITS.maxFileBytes, sync, budget).then(
        (file) => {
          const entry = { ...file, field, filename: info.filename ?? field, contentType: info.mimeType };
          if (failed) void discardStaged([entry]);
          else files.push(entry);
        },
        (err: Error) => {
          stream.resume();
          fail(err);
        },
      );
      staging.push(staged);
    });
    bb.on("field", (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated)
        return fail(new ProtocolError("payload_too_large", `a form field is larger than ${ATTACHMENT_LIMITS.maxFieldBytes} bytes`));
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (fieldBytes > ATTACHMENT_LIMITS.maxFieldBytes)
        return fail(new ProtocolError("payload_too_large", `the form fields are larger than ${ATTACHMENT_LIMITS.maxFieldBytes} bytes together`));
      fields.push([name, value]);
    });
    bb.on("filesLimit", () => fail(new ProtocolError("too_many_items", `an upload may hold at most ${ATTACHMENT_LIMITS.maxFiles} files`)));
    bb.on("fieldsLimit", () => fail(new ProtocolError("too_many_items", `an upload may hold at most ${ATTACHMENT_LIMITS.maxFields} form fields`)));
    bb.on("partsLimit", () => fail(new ProtocolError("too_many_items", "the upload has too many parts")));
    bb.on("error", (err: Error) => fail(new ProtocolError("invalid_multipart", `the multipart/form-data body is malformed: ${err.message.slice(0, 100)}`)));
    body.on("error", () => fail(new ProtocolError("bad_encoding", "the body does not decompress")));
    req.on("close", () => {
      if (!req.complete) fail(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
    });
    bb.on("close", () => {
      void Promise.allSettled(staging).then(() => {
        if (failed) return;
        stopPace();
        resolve({ files, fields, memory });
      });
    });
    body.pipe(bb);
  });
}

/** A file part into memory, up to its limit; past it the rest is read and dropped and the part's bytes are null. */
function readToMemory(
  field: string,
  stream: Readable,
  budget: { left: number },
  hold: ((bytes: number) => boolean) | undefined,
  fail: (err: Error) => void,
  into: MemoryPart[],
): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise<void>((resolve) => {
    stream.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      budget.left -= chunk.byteLength;
      if (budget.left < 0)
        return fail(new ProtocolError("payload_too_large", `the attachments are larger than ${ATTACHMENT_LIMITS.maxRequestBytes} bytes together`));
      if (size > ATTACHMENT_LIMITS.maxNativePartBytes) return void (chunks.length = 0);
      if (hold && !hold(chunk.byteLength)) return fail(new BodyBudgetError());
      chunks.push(chunk);
    });
    stream.on("limit", () => undefined);
    // Ended by the request's failure (destroyed) or broken: nothing to keep.
    stream.on("error", () => resolve());
    stream.on("close", () => resolve());
    stream.on("end", () => {
      into.push({ field, bytes: size > ATTACHMENT_LIMITS.maxNativePartBytes ? null : Buffer.concat(chunks), size });
      resolve();
    });
  });
}

/** A raw minidump body (Content-Type application/octet-stream or application/x-dmp), staged as one file. */
export async function readRawUpload(req: http.IncomingMessage, dir: string, sync: boolean): Promise<StagedPart> {
  let failed: Error | null = null;
  const source = decoded(req);
  const part = new PassThrough();
  const stopPace = watchPace(req, (err) => {
    failed = err;
    part.destroy(err);
    req.unpipe();
    req.resume();
  });
  source.on("error", () => part.destroy(new ProtocolError("bad_encoding", "the body does not decompress")));
  source.pipe(part);
  try {
    const file = await stageStream(dir, part, ATTACHMENT_LIMITS.maxFileBytes, sync, { left: ATTACHMENT_LIMITS.maxRequestBytes });
    return { ...file, field: "upload_file_minidump", filename: "Minidump", contentType: "application/octet-stream" };
  } catch (err) {
    throw failed ?? err;
  } finally {
    stopPace();
  }
}
