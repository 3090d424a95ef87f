// Next.js's answers that say nothing: a route handler asked for a method it does not export (DELETE on a route of GET
// alone) is answered a bare 405, no body and no Allow (the framework's app-route/helpers/auto-implement-methods.js).
// Its client is owed what every other refusal of Faultline's gives, {"detail": …}; the status stays. (Which methods
// the route has is known only inside the framework: the answer names the method refused.)
import type http from "node:http";

/** What a bare answer of Next's is told, by status. */
const DETAILS: Partial<Record<number, (method: string) => string>> = {
  405: (method) => `${method} is not supported on this path`,
};

type WriteHead = (statusCode: number, ...rest: unknown[]) => http.ServerResponse;
type End = (...args: unknown[]) => http.ServerResponse;

/**
 * Gives a bare answer of Next's a body. Next sends one as a status and headers set on `res`, then `res.end()` with
 * nothing written (server/send-response.js). Its compression (which wraps `res` after this) writes the head first,
 * from that end(): so the head gets the body's type and length as it is written, and the end its body. An answer
 * with a type of its own, or content, is left as it is.
 */
export function explainBareAnswers(req: http.IncomingMessage, res: http.ServerResponse): void {
  let body: string | null = null;
  const explainable = (r: http.ServerResponse, statusCode: number) => !r.headersSent && !r.hasHeader("content-type") && DETAILS[statusCode];
  const writeHead = res.writeHead as WriteHead;
  res.writeHead = function (this: http.ServerResponse, statusCode: number, ...rest: unknown[]) {
    const explain = explainable(this, statusCode);
    // A head written with headers of its own (writeHead(status, {...})) is an answer that has a body of its own.
    if (explain && rest.every((r) => typeof r === "string")) {
      body = JSON.stringify({ detail: explain(req.method ?? "") });
      this.setHeader("content-type", "application/json");
      this.setHeader("content-length", Buffer.byteLength(body));
    }
    return writeHead.call(this, statusCode, ...rest);
  } as typeof res.writeHead;
  const end = res.end as End;
  res.end = function (this: http.ServerResponse, ...args: unknown[]) {
    const bare = args[0] === undefined || typeof args[0] === "function";
    if (bare && !this.headersSent && explainable(this, this.statusCode)) this.writeHead(this.statusCode);
    if (!bare || body === null || this.writableEnded) return end.apply(this, args);
    return end.call(this, body, ...args.filter((a) => typeof a === "function"));
  } as typeof res.end;
}
