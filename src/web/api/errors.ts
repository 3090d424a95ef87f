// The web API's one error table: core errors and malformed requests become {"detail": …} with their status.
import { STORAGE_FULL_LIMITS } from "../../config/limits";
import { ERROR_STATUS, isAppError } from "../../core/errors";
import { isStorageFull, reportStorageFull, STORAGE_FULL_MESSAGE } from "../../storage/storage-full";

/**
 * A body too large (413) or one that stopped arriving (408) was not read to its end: the connection closes after the
 * answer, rather than waiting for the rest of a body nobody reads.
 */
const UNREAD_BODY = new Set([408, 413]);

export function errorResponse(status: number, detail: string, extra?: Record<string, unknown>): Response {
  return Response.json({ detail, ...extra }, { status, headers: UNREAD_BODY.has(status) ? { connection: "close" } : undefined });
}

/**
 * Maps a thrown value to a response. A write the disk had no room for is the server's condition, and passes: 503 with
 * Retry-After, as the intake answers it. Unknown errors are logged and answered 500 without internals.
 */
export function toErrorResponse(err: unknown): Response {
  if (isAppError(err)) return errorResponse(ERROR_STATUS[err.code], err.message, err.fields ? { errors: err.fields } : undefined);
  if (isStorageFull(err)) {
    reportStorageFull("webApi");
    return Response.json({ detail: STORAGE_FULL_MESSAGE }, { status: 503, headers: { "retry-after": String(STORAGE_FULL_LIMITS.retryAfterSeconds) } });
  }
  console.error("faultline: unhandled error in API route", err);
  return errorResponse(500, "Internal error");
}
