// The web API's one error table: core errors and malformed requests become {"detail": …} with their status.
import { ERROR_STATUS, isAppError } from "../../core/errors";

export function errorResponse(status: number, detail: string, extra?: Record<string, unknown>): Response {
  return Response.json({ detail, ...extra }, { status });
}

/** Maps a thrown value to a response. Unknown errors are logged and answered 500 without internals. */
export function toErrorResponse(err: unknown): Response {
  if (isAppError(err)) return errorResponse(ERROR_STATUS[err.code], err.message, err.fields ? { errors: err.fields } : undefined);
  console.error("faultline: unhandled error in API route", err);
  return errorResponse(500, "Internal error");
}
