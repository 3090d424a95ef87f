// A TCP connection to a test server that records what it receives and whether it failed (a reset, EPIPE): for
// requests fetch cannot send, or bodies still being sent when the answer comes.
import net from "node:net";

export async function rawConnection(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  let received = "";
  let errored: Error | null = null;
  socket.on("data", (d: Buffer) => (received += d.toString("latin1")));
  socket.on("error", (err) => (errored = err));
  let isClosed = false;
  const closed = new Promise<void>((resolve) => socket.once("close", () => ((isClosed = true), resolve())));
  return {
    received: () => received,
    errored: () => errored,
    /** The connection has closed (the server closed it, or end() was called and it has). */
    closed: () => isClosed,
    /** The answer's head has arrived. */
    answered: () => received.includes("\r\n\r\n"),
    async write(chunk: string | Buffer) {
      // A failed connection never drains: its close ends the wait.
      if (!socket.write(chunk)) await Promise.race([new Promise<void>((resolve) => socket.once("drain", resolve)), closed]);
    },
    /** Stops sending, and waits until the connection has closed. */
    async end() {
      socket.end();
      await closed;
    },
  };
}
