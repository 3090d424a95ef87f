// A request body read chunk by chunk within an idle timeout and a size limit: the web API's JSON bodies
// (handler.ts readCappedBytes) and the upload routes' multipart bodies (multipart.ts). A client that stops sending
// gets a 408 once the timeout passes, instead of holding its request and socket for Node's 5-minute request timeout.
import { AppError } from "../../core/errors";

/**
 * The chunks of a request body, each within the idle timeout and all within `deadlineMs` (a client trickling a byte
 * now and then never idles); 413 once they pass `maxBytes`.
 */
export async function* bodyChunks(req: Request, maxBytes: number, idleTimeoutMs: number, deadlineMs = Infinity): AsyncGenerator<Uint8Array> {
  if (!req.body) return;
  const reader = req.body.getReader();
  const endBy = Date.now() + deadlineMs;
  let size = 0;
  let done = false;
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const left = endBy - Date.now();
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new AppError(
                "request_timeout",
                left < idleTimeoutMs
                  ? `The request body did not arrive within ${Number((deadlineMs / 1000).toFixed(1))} seconds`
                  : `No part of the request body arrived for ${idleTimeoutMs / 1000} seconds`,
              ),
            ),
          Math.max(0, Math.min(idleTimeoutMs, left)),
        );
      });
      // A connection that ends mid-body (the client gave up) is the client's doing: a 400 nobody waits for, not an
      // error of Faultline's in the log.
      const read = reader.read().catch((err: unknown) => {
        throw new AppError("bad_request", `The request body ended before it was complete (${(err as Error)?.message ?? String(err)})`);
      });
      const next = await Promise.race([read, stalled]).finally(() => clearTimeout(timer));
      if (next.done) {
        done = true;
        return;
      }
      size += next.value.byteLength;
      if (size > maxBytes) throw new AppError("payload_too_large", `Request body is larger than ${maxBytes} bytes`);
      yield next.value;
    }
  } finally {
    // Not awaited: with a read still pending on a stalled client, cancelling waits for that read, which never comes.
    if (!done) void reader.cancel().catch(() => undefined);
  }
}
