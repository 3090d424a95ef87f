// Next.js decodes a server action's body itself and answers 500 when it cannot. Faultline reads the body first,
// within the same size limit, refuses what cannot be a server-action payload (400, 413) and hands Next.js a fresh
// request carrying the very same bytes (Next reads bodies by events, async iteration and piping alike). A field
// holding a NUL character goes on to the action, which answers it inline (on PostgreSQL, storage/nul-guard.ts).
import http from "node:http";
import Busboy from "busboy";
import { ACTION_LIMITS } from "../config/limits";
import { jsonDepthExceeds } from "../protocol/json";
import { type ActionKind, fetchActionRefusal, formActionRefusal, type Refusal } from "./form-action";

/** How long an action's body may take: ACTION_LIMITS by default, shorter in tests. */
export type BodyPace = { idleMs: number; deadlineMs: number };

/**
 * The body, or why it cannot be had: larger than `limit` or declared so (413), nothing for `idleMs` or not whole
 * within `deadlineMs` (408: a client that stops mid-body or trickles a byte now and then held its request and socket
 * for Node's 5-minute request timeout), or a connection that ended midway (400, the client's doing). A refused body
 * is read on and dropped.
 */
function readBody(req: http.IncomingMessage, limit: number, pace: BodyPace, what: string): Promise<Buffer | Refusal> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | Refusal) => {
      clearTimeout(idle);
      clearTimeout(deadline);
      req.off("data", onData).off("end", onEnd).off("error", onAbort).off("aborted", onAbort);
      if (!Buffer.isBuffer(result)) req.resume();
      resolve(result);
    };
    const timedOut = (detail: string) => () => finish({ status: 408, detail });
    const tooLarge = () => finish({ status: 413, detail: `The ${what} is larger than ${limit} bytes` });
    const idle = setTimeout(timedOut(`No part of the ${what} arrived for ${pace.idleMs / 1000} seconds`), pace.idleMs);
    const deadline = setTimeout(timedOut(`The ${what} did not arrive within ${pace.deadlineMs / 1000} seconds`), pace.deadlineMs);
    const onData = (chunk: Buffer) => {
      idle.refresh();
      size += chunk.length;
      if (size > limit) return tooLarge();
      chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onAbort = () => finish({ status: 400, detail: "The request body ended before it was complete" });
    req.on("data", onData).on("end", onEnd).on("error", onAbort).on("aborted", onAbort);
    // A length declared past the limit is refused before any of the body: a client that sent `Expect: 100-continue`
    // waits for an answer before sending it, and would otherwise wait for the idle time's 408.
    if (Number(req.headers["content-length"]) > limit) tooLarge();
  });
}

type Read = "malformed" | { fields: Map<string, string[]> };

/** The multipart body's fields, or "malformed" if busboy cannot read it whole. Files are read past, unkept. */
function readMultipart(headers: http.IncomingHttpHeaders, body: Buffer): Promise<Read> {
  return new Promise((resolve) => {
    let bb: Busboy.Busboy;
    try {
      bb = Busboy({ headers, limits: { fieldSize: ACTION_LIMITS.maxBodyBytes } });
    } catch {
      resolve("malformed"); // no or malformed boundary
      return;
    }
    const fields = new Map<string, string[]>();
    bb.on("field", (name, value) => {
      const values = fields.get(name);
      if (values) values.push(value);
      else fields.set(name, [value]);
    });
    bb.on("file", (_name, stream) => stream.resume());
    bb.on("error", () => resolve("malformed"));
    // The arguments' JSON (a fetch-style action's part "0", a form's `$ACTION_n:k`) is decoded by React, recursively.
    bb.on("close", () => {
      const args = [...fields].filter(([name]) => name === "0" || /^\$ACTION_\d+:\d+$/.test(name));
      resolve(args.some(([, values]) => values.some(tooDeep)) ? "malformed" : { fields });
    });
    bb.end(body);
  });
}

/** Nested deeper than any action's arguments go (their state objects nest a few levels): React's decoding recurses. */
const tooDeep = (text: string) => jsonDepthExceeds(text, ACTION_LIMITS.maxArgumentDepth);

/** Whether a fetch-style action's arguments are JSON (their fields are not needed: "malformed" or none). */
function readJsonArguments(body: Buffer): Read {
  try {
    const text = body.toString("utf8");
    JSON.parse(text);
    return tooDeep(text) ? "malformed" : { fields: new Map() };
  } catch {
    return "malformed";
  }
}

/** A new request on the same socket, with the same request line and headers, whose body is `body`. */
function replay(req: http.IncomingMessage, body: Buffer): http.IncomingMessage {
  const copy = new http.IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.headers = req.headers;
  copy.rawHeaders = req.rawHeaders;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  copy.push(body);
  copy.push(null);
  copy.complete = true;
  return copy;
}

/**
 * For a server action (server/form-action.ts: a fetch-style one, or a form's without JavaScript) or another body sent
 * to a page ("page"): the request to hand to Next.js (the body read within its pace and replayed), or why it is
 * refused. Other requests pass through untouched. `actionIds`: the build's actions, which an action must name (null:
 * any well-formed id).
 */
export async function checkActionBody(
  req: http.IncomingMessage,
  kind: ActionKind | "page" | null,
  actionIds: ReadonlySet<string> | null,
  pace: BodyPace = { idleMs: ACTION_LIMITS.bodyIdleMs, deadlineMs: ACTION_LIMITS.bodyDeadlineMs },
): Promise<{ request: http.IncomingMessage } | { refusal: Refusal }> {
  if (kind === null) return { request: req };
  const body = await readBody(req, ACTION_LIMITS.maxBodyBytes, pace, kind === "page" ? "request body" : "server action's body");
  if (!Buffer.isBuffer(body)) return { refusal: body };
  if (kind === "page") return { request: replay(req, body) };
  if (kind === "fetch") {
    const refusal = fetchActionRefusal(req, actionIds);
    if (refusal) return { refusal };
  }
  const type = req.headers["content-type"] ?? "";
  const read = type.startsWith("multipart/form-data") ? await readMultipart(req.headers, body) : readJsonArguments(body);
  if (read === "malformed") return { refusal: { status: 400, detail: "Malformed server action payload" } };
  const refusal = kind === "form" ? formActionRefusal(read.fields, actionIds) : null;
  return refusal ? { refusal } : { request: replay(req, body) };
}
