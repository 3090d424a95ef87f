// Faultline's HTTP servers (the main port, and the metrics' own listener): node:http with the keep-alive SDKs and
// proxies expect, an answer of Faultline's own to a request Node could not parse or would answer without a word, and a
// shutdown that lets the requests in flight finish.
//
// Node's own answer to a parse error (a request line or headers past its 16 KiB limit, a malformed request) writes a
// bare status and destroys the socket at once. A client still sending (a megabyte of query string) then gets a reset,
// which can reach it before the answer does: the bad-input corpus saw `ECONNRESET` instead of 431 under load. Here the
// answer says what was wrong, and the connection closes the way an over-limit body's does (ingest/linger.ts).
import http from "node:http";
import net, { type Socket } from "node:net";
import { CONNECTION_LIMITS, SHUTDOWN_LIMITS } from "../config/limits";
import { closeAfterAnswer, lingeringClose } from "../ingest/linger";
import { ALLOWED_METHODS } from "./guards";

/** Node's parse errors as answers: the status, its reason phrase, and what the client is told. */
function answerFor(code: string | undefined): [number, string, string] {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return [431, "Request Header Fields Too Large", `the request line and headers are larger than ${http.maxHeaderSize} bytes`];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "Payload Too Large", "the chunk extensions are too large"];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "Request Timeout", "the request did not arrive in time"];
    default:
      return [400, "Bad Request", "the request is not valid HTTP/1.1"];
  }
}

const answered = new WeakSet<Socket>();

/**
 * The server's 'clientError' listener. Node calls it again for bytes that arrive after the error (its parser stays in
 * the error state), so a socket is answered once. A response whose headers already went out cannot be followed by
 * another; that connection closes without one.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  if (err.code === "ECONNRESET" || socket.destroyed) return void socket.destroy();
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const [status, reason, detail] = answerFor(err.code);
    const body = JSON.stringify({ detail });
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  lingeringClose(socket);
}

/**
 * The server's 'connect' listener: a CONNECT request (a client taking Faultline for a forward proxy). Without one,
 * Node closes the connection without an answer; Faultline is never a proxy, and says so.
 */
export function answerConnect(_req: http.IncomingMessage, socket: Socket): void {
  const body = JSON.stringify({ detail: "CONNECT is not supported: Faultline is not a proxy" });
  socket.write(
    `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOWED_METHODS}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  lingeringClose(socket);
}

/**
 * Requests Node answered with a bare status and no body, and one Next.js answered with its HTML 400 page, answered
 * here before the request listener: an HTTP/1.1 request without a Host header (Node's own 400: the server is made
 * with `requireHostHeader: false` for this); an Expect other than 100-continue (`expectation`: Node's own 417, from
 * the server's 'checkExpectation' listener; RFC 9110 §10.1.1 lets a server refuse an expectation it does not meet
 * with 417); a request target of `*`. With OPTIONS, `*` asks about the server as a whole (RFC 9110 §9.3.7: the
 * asterisk-form is a valid request, "a ping", answered with what might indicate the server's features, such as
 * Allow, and Content-Length 0 when there is no content): 200, with the methods served. With any other method it is
 * no address at all (RFC 9112 §3.2.4: the asterisk-form is OPTIONS's alone): 400. Returns whether it answered.
 */
function answeredHere(req: http.IncomingMessage, res: http.ServerResponse, expectation: boolean): boolean {
  const refuse = (status: number, detail: string) => {
    const body = JSON.stringify({ detail });
    res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), connection: "close" }).end(body);
    return true;
  };
  if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
    return refuse(400, "the request has no Host header, which HTTP/1.1 requires");
  }
  if (expectation) return refuse(417, "the Expect header asks for something other than 100-continue, the only expectation this server meets");
  if (req.url !== "*") return false;
  if (req.method !== "OPTIONS") return refuse(400, `the request target * is for OPTIONS only, not ${req.method}`);
  res.writeHead(200, { allow: ALLOWED_METHODS, "content-length": "0" }).end();
  return true;
}

/** Servers that are closing: each answer they still give says `Connection: close` (closeHttpServer). */
const draining = new WeakSet<http.Server>();
/** When a closing server last received a request (performance.now()): its idle connections wait for a quiet moment. */
const lastArrival = new WeakMap<http.Server, number>();
const noteArrival = (server: http.Server) => {
  if (draining.has(server)) lastArrival.set(server, performance.now());
};

/** Per server, CONNECTION_LIMITS.sendStallMs or a test's own (createHttpServer). */
const sendStallOf = new WeakMap<http.Server, number>();
const watched = new WeakSet<Socket>();

/**
 * Closes the connection when an answer's writes have waited `ms` for the client to take any of them (Node buffers
 * what a client does not read, and the answer's producer waits: both hold memory for as long as the connection lasts).
 */
function watchStall(socket: Socket, ms: number): void {
  if (watched.has(socket) || socket.destroyed) return;
  watched.add(socket);
  const timer = setTimeout(() => socket.destroy(), ms);
  timer.unref();
  const done = () => {
    clearTimeout(timer);
    watched.delete(socket);
    socket.off("drain", done).off("close", done);
  };
  // First among the socket's drain listeners: Node's own (socketOnDrain) has the answer's producer write again at
  // once, and a write refused then must start a new watch. Heard after it, this one ended that new watch instead (it
  // found this one still running), and an answer that stalled right after a drain was never dropped.
  socket.prependListener("drain", done).on("close", done);
}

/**
 * The server's answers: once the server is closing, an answer whose head has not gone out yet says `Connection:
 * close`, decided as the head is written (Node writes every head through writeHead, an implicit one too), so an
 * answer begun before closing began is covered without keeping a list of answers. An answer given before its
 * request's body has all come closes its connection, and one a client leaves unread is dropped (watchStall).
 */
class ServerResponse extends http.ServerResponse {
  override write(...args: unknown[]): boolean {
    const ok = (super.write as (...a: unknown[]) => boolean).apply(this, args);
    const socket = this.socket as (Socket & { server?: http.Server }) | null;
    if (!ok && socket?.server) watchStall(socket, sendStallOf.get(socket.server) ?? CONNECTION_LIMITS.sendStallMs);
    return ok;
  }

  override writeHead(statusCode: number, ...rest: unknown[]): this {
    const server = (this.socket as (Socket & { server?: http.Server }) | null)?.server;
    if (server && draining.has(server) && !this.headersSent) this.setHeader("connection", "close");
    // An answer given before its request's body has all come (a 404 or 405 that reads none of it, a refusal): the
    // connection closes once it is sent. Node would read on for the next request, to the end of a body that may
    // trickle for minutes, and then answer that same request again with its timeout's 408.
    if (!this.req.complete && !this.headersSent && statusCode >= 200) {
      this.setHeader("connection", "close");
      closeAfterAnswer(this);
    }
    return (super.writeHead as (statusCode: number, ...rest: unknown[]) => this).call(this, statusCode, ...rest);
  }
}

/** An HTTP server for `listener` with the settings above. `sendStallMs`: CONNECTION_LIMITS.sendStallMs, or shorter in tests. */
export function createHttpServer(listener: http.RequestListener, { sendStallMs }: { sendStallMs?: number } = {}): http.Server {
  const server = http.createServer({ ServerResponse, requireHostHeader: false }, (req, res) => {
    noteArrival(server);
    if (!answeredHere(req, res, false)) listener(req, res);
  });
  if (sendStallMs !== undefined) sendStallOf.set(server, sendStallMs);
  // Keep-alive connections from SDKs and proxies outlive Node's 5 s default between requests.
  server.keepAliveTimeout = 65_000;
  // A client that half-closes once it has sent its request (shutdown(SHUT_WR)) still gets its answer: by default Node
  // ends the connection at the client's FIN, and an answer not yet written was lost, though its work was done (an
  // envelope stored and never acknowledged, which the SDK sends again). The connection ends after that answer.
  // (Node's lib/_http_server.js reads `httpAllowHalfOpen` at the client's FIN; @types/node does not declare it.)
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on("clientError", answerClientError);
  server.on("connect", answerConnect);
  server.on("checkExpectation", (req: http.IncomingMessage, res: http.ServerResponse) => {
    noteArrival(server);
    answeredHere(req, res, true);
  });
  return server;
}

/**
 * Closes the server without cutting a request. New connections are refused at once: a proxy in front (nginx) retries
 * such a request on another node, since nothing was sent, and stops picking this node for its fail_timeout. The
 * requests in flight finish, and every answer from now on closes its connection, so the proxy's kept-alive connections
 * leave its pool as it uses them. The connections still idle are closed once no request has come for `quietMs`: the
 * proxy has then met a refused connection and stopped picking the node, so none of them can be carrying a request it
 * has just sent. Closing an idle connection while the proxy still picks the node races with exactly that (Node counts a
 * connection whose request is on its way as idle), and nginx answers such a POST 502 rather than retrying it: closed
 * at a fixed 500 ms, a rolling restart on a machine busy enough that nginx still had pooled connections to use then
 * lost three requests. What is still open `graceMs` after the start is closed.
 */
export async function closeHttpServer(
  server: http.Server,
  { quietMs = SHUTDOWN_LIMITS.idleQuietMs, graceMs = SHUTDOWN_LIMITS.drainMs }: { quietMs?: number; graceMs?: number } = {},
): Promise<void> {
  draining.add(server);
  lastArrival.set(server, performance.now());
  // net.Server's close: the listening socket only (http.Server's also closes the idle connections at once); its
  // callback runs once every connection has ended.
  const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
  const timers: NodeJS.Timeout[] = [];
  const after = (ms: number) => new Promise<void>((resolve) => timers.push(setTimeout(resolve, ms)));
  let over = false;
  const quiet = async () => {
    while (!over) {
      const since = performance.now() - lastArrival.get(server)!;
      if (since >= quietMs) {
        // A timer runs before the event loop reads its sockets: after a stall, requests may wait in their buffers.
        // They are read (and counted) before the check phase, so the quiet is looked at again there.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (performance.now() - lastArrival.get(server)! >= quietMs) return server.closeIdleConnections();
        continue;
      }
      await after(quietMs - since);
    }
  };
  // Both bounds count from the start of the close: everything is closed `graceMs` after it, as README "Restarts" says.
  const grace = after(graceMs);
  await Promise.race([closed, grace, quiet()]);
  await Promise.race([closed, grace]);
  over = true;
  for (const t of timers) clearTimeout(t);
  server.closeAllConnections();
  server.close();
}
