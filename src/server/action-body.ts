// Next.js decodes a server action's body itself and answers 500 when it cannot. Faultline reads the body first,
// within the same size limit, refuses what cannot be a server-action payload (400, 413) and hands Next.js a fresh
// request carrying the very same bytes (Next reads bodies by events, async iteration and piping alike). A field
// holding a NUL character goes on to the action, which answers it inline (on PostgreSQL, storage/nul-guard.ts).
import http from "node:http";
import Busboy from "busboy";
import { ACTION_LIMITS } from "../config/limits";
import { jsonDepthExceeds } from "../protocol/json";
import { type ActionKind, formActionRefusal, type Refusal } from "./form-action";

async function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
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
 * For a server action (server/form-action.ts: a fetch-style one, or a form's without JavaScript): the request to hand
 * to Next.js (the body read and replayed), or why it is refused. Other requests pass through untouched. `actionIds`:
 * the build's actions, which a form's must name (null: any well-formed id).
 */
export async function checkActionBody(
  req: http.IncomingMessage,
  kind: ActionKind | null,
  actionIds: ReadonlySet<string> | null,
): Promise<{ request: http.IncomingMessage } | { refusal: Refusal }> {
  if (kind === null) return { request: req };
  const body = await readBody(req, ACTION_LIMITS.maxBodyBytes);
  if (body === null) return { refusal: { status: 413, detail: `Server action body is larger than ${ACTION_LIMITS.maxBodyBytes} bytes` } };
  const type = req.headers["content-type"] ?? "";
  const read = type.startsWith("multipart/form-data") ? await readMultipart(req.headers, body) : readJsonArguments(body);
  if (read === "malformed") return { refusal: { status: 400, detail: "Malformed server action payload" } };
  const refusal = kind === "form" ? formActionRefusal(read.fields, actionIds) : null;
  return refusal ? { refusal } : { request: replay(req, body) };
}
