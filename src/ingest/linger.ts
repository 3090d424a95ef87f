// How Faultline ends a connection whose request it did not read to the end (a body over a limit, a request refused
// before its body was read, a request line or headers past Node's limit): the answer goes out with
// `Connection: close`, then the server stops writing, reads and drops whatever the client still sends, and closes once
// the client stops sending, or after INGEST_LIMITS.lingerMs at the latest. nginx calls this a lingering close.
//
// Node itself destroys such a socket as soon as the answer is written (net.Socket#destroySoon, called by the HTTP
// server for a `Connection: close` answer, and its default answer to a parse error). Bytes the client is still sending
// then reach a closed socket, the kernel answers them with a reset, and a reset can discard the answer before the
// client has read it: SDKs saw a network error instead of 413, and retried the same body.
import type http from "node:http";
import type { Socket } from "node:net";
import { INGEST_LIMITS } from "../config/limits";

/** Ends the writing side now (after what was written), reads and drops the rest, and closes as described above. */
export function lingeringClose(socket: Socket): void {
  if (socket.writable) socket.end();
  if (socket.readableEnded) return void socket.destroy();
  const timer = setTimeout(() => socket.destroy(), INGEST_LIMITS.lingerMs);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  // The client has stopped sending: nothing more can arrive, so closing now resets nothing.
  socket.once("end", () => socket.destroy());
  socket.resume();
}

/** Call before the answer is written; the connection then closes gracefully once it has been. */
export function closeAfterAnswer(res: http.ServerResponse): void {
  const socket = res.socket as (Socket & { destroySoon?: () => void }) | null;
  if (!socket || socket.destroyed) return;
  socket.destroySoon = () => {
    // The request's unread body flows on and is dropped: while nothing read it, Node's parser had stopped reading the
    // socket (a chunked body refused by a route handler), the client's writes backed up, and the close cut them (EPIPE).
    res.req?.resume();
    lingeringClose(socket);
  };
}
