// Next.js decodes a server action's body itself and answers 500 when it cannot. Faultline reads the body first,
// within the same size limit, refuses what cannot be a server-action payload (400, 413) and hands Next.js a fresh
// request carrying the very same bytes (Next reads bodies by events, async iteration and piping alike).
import http from "node:http";
import Busboy from "busboy";
import { ACTION_LIMITS } from "../config/limits";

export type Refusal = { status: 400 | 413; detail: string };

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

/** True when busboy reads the whole multipart body without an error. */
function isWellFormedMultipart(headers: http.IncomingHttpHeaders, body: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    let bb: Busboy.Busboy;
    try {
      bb = Busboy({ headers, limits: { fieldSize: ACTION_LIMITS.maxBodyBytes } });
    } catch {
      resolve(false); // no or malformed boundary
      return;
    }
    bb.on("file", (_name, stream) => stream.resume());
    bb.on("error", () => resolve(false));
    bb.on("close", () => resolve(true));
    bb.end(body);
  });
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
 * For a fetch-style server action (POST with Next-Action): the request to hand to Next.js (the body read and replayed),
 * or why it is refused. Other requests pass through untouched.
 */
export async function checkActionBody(req: http.IncomingMessage): Promise<{ request: http.IncomingMessage } | { refusal: Refusal }> {
  if (req.method !== "POST" || req.headers["next-action"] === undefined) return { request: req };
  const body = await readBody(req, ACTION_LIMITS.maxBodyBytes);
  if (body === null) return { refusal: { status: 413, detail: `Server action body is larger than ${ACTION_LIMITS.maxBodyBytes} bytes` } };
  const type = req.headers["content-type"] ?? "";
  let ok: boolean;
  if (type.startsWith("multipart/form-data")) {
    ok = await isWellFormedMultipart(req.headers, body);
  } else {
    try {
      JSON.parse(body.toString("utf8"));
      ok = true;
    } catch {
      ok = false;
    }
  }
  if (!ok) return { refusal: { status: 400, detail: "Malformed server action payload" } };
  return { request: replay(req, body) };
}
