// The bodies of sentry-cli's uploads, read with their limits (UPLOAD_LIMITS): chunk-upload parts, one at a time, and a
// legacy release file with its form fields. Shared by the routes and their tests.
import { UPLOAD_LIMITS } from "../../config/limits";
import type { ChunkPart } from "../../core/uploads";
import type { ReleaseFileUpload } from "../../core/release-files";
import { AppError } from "../../core/errors";
import { fileParts, formText, formTexts, type MultipartPart, readMultipart } from "./multipart";

/** POST …/chunk-upload/: its `file` and `file_gzip` parts as they are read (nothing else may be in the body). */
export function readChunkParts(req: Request, idleTimeoutMs: number = UPLOAD_LIMITS.bodyIdleTimeoutMs): AsyncIterable<ChunkPart> {
  return fileParts(
    readMultipart(req, {
      maxBodyBytes: UPLOAD_LIMITS.maxRequestSize,
      maxFiles: UPLOAD_LIMITS.chunksPerRequest,
      maxFileBytes: UPLOAD_LIMITS.maxPartSize,
      maxFields: 0,
      maxFieldBytes: 0,
      idleTimeoutMs,
      // Sentry's answers (api/endpoints/chunk.py).
      tooManyFiles: () => new AppError("bad_request", "Too many chunks"),
      fileTooLarge: () => new AppError("bad_request", "Chunk size too large"),
    }),
  );
}

/** POST …/releases/{version}/files/: the one file, plus its form fields: a name, a dist and headers, each small. */
export async function readReleaseFile(req: Request, idleTimeoutMs: number = UPLOAD_LIMITS.bodyIdleTimeoutMs): Promise<ReleaseFileUpload> {
  const parts: MultipartPart[] = [];
  const read = readMultipart(req, {
    maxBodyBytes: UPLOAD_LIMITS.maxFileSize + UPLOAD_LIMITS.maxReleaseFileFields * UPLOAD_LIMITS.maxReleaseFileFieldSize,
    maxFiles: 1,
    maxFileBytes: UPLOAD_LIMITS.maxFileSize,
    maxFields: UPLOAD_LIMITS.maxReleaseFileFields,
    maxFieldBytes: UPLOAD_LIMITS.maxReleaseFileFieldSize,
    idleTimeoutMs,
    tooManyFiles: () => new AppError("bad_request", "Send one file per request"),
    fileTooLarge: () => new AppError("payload_too_large", `The file is larger than ${UPLOAD_LIMITS.maxFileSize} bytes`),
  });
  for await (const part of read) parts.push(part);
  const file = parts.find((p) => p.kind === "file");
  if (file && file.field !== "file") throw new AppError("bad_request", `Unexpected file field ${file.field.slice(0, 60)}: send the file as file`);
  return { file: file?.kind === "file" ? file : null, name: formText(parts, "name"), dist: formText(parts, "dist"), headers: formTexts(parts, "header") };
}
