// How a connection ends when the client does something unusual at the transport level (found by a probe of a live
// server with raw sockets): a client that half-closes after its request still gets its answer; a request answered
// before its body has all come gets one answer and its connection closes (Node read on to the end of a body that may
// trickle for minutes, then answered the same request again with its timeout's 408); a chunked body refused unread
// flows on and is dropped, so the client still sending it reads the answer rather than a broken pipe. Real HTTP over
// raw sockets; in place of Next.js, a handler that answers as a slow page or a route refusing a method does.
import assert from "node:assert/strict";
import type http from "node:http";
import net, { type AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createHttpServer } from "../../src/server/http-server";
import { after, before, describe, test } from "node:test";
import { startListenerServer } from "../helpers/listener-server";
import { rawConnection } from "../helpers/raw-connection";

describe("the transport's unusual clients", () => {
  let server: Awaited<ReturnType<typeof startListenerServer>>;
  let port: number;

  before(async () => {
    server = await startListenerServer(async (req: http.IncomingMessage, res: http.ServerResponse) => {
      const answer = (status: number, text: string) =>
        res.writeHead(status, { "content-type": "text/plain", "content-length": String(Buffer.byteLength(text)) }).end(text);
      // A page that takes a while to render.
      if (req.method === "GET") return void setTimeout(() => answer(200, "rendered"), 200);
      // A route handler refusing a body too large: it has begun to read (as Next.js pipes a body into its Request), then
      // stops and answers.
      if (req.method === "PUT") return void req.once("data", () => (req.pause(), answer(413, "too large")));
      // A route that takes no body: it answers at once, reading none of it.
      answer(405, "method not allowed");
    });
    port = server.port;
  });

  after(() => server.close());

  test("a client that half-closes after its request still gets the answer", async () => {
    for (let round = 0; round < 3; round++) {
      const c = await rawConnection(port);
      await c.write("GET /en/sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      // end(): the client's FIN, then wait for the server to close its side.
      await c.end();
      assert.equal(c.errored(), null, `round ${round}`);
      assert.match(c.received(), /^HTTP\/1\.1 200 [^]*rendered$/, `round ${round}`);
    }
  });

  test("a request answered before its trickling body has come gets one answer, and its connection closes", { timeout: 30_000 }, async () => {
    const live = await rawConnection(port);
    await live.write("POST /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{");
    const started = Date.now();
    // A byte every 100 ms, never idle: the server closes the connection after its lingering close, not after minutes.
    while (!live.errored() && Date.now() - started < 20_000 && !live.closed()) {
      await live.write(" ");
      await sleep(100);
    }
    assert.ok(live.closed(), "the server closed the connection");
    assert.equal(live.received().match(/HTTP\/1\.1 /g)?.length, 1, live.received());
  });

  test("a chunked body refused unread reaches the client still sending it, with no broken pipe", { timeout: 60_000 }, async () => {
    for (let round = 0; round < 3; round++) {
      const c = await rawConnection(port);
      await c.write("PUT /api/0/projects/acme/web/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
      const block = Buffer.alloc(64 * 1024, 0x20);
      const chunk = Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from("\r\n")]);
      // 20 MB, written whole before anything is read, as Python's http.client does.
      for (let sent = 0; sent < 20 * 1024 * 1024 && !c.errored(); sent += block.length) await c.write(chunk);
      await c.write("0\r\n\r\n");
      await c.end();
      assert.equal(c.errored(), null, `round ${round}`);
      assert.match(c.received(), /^HTTP\/1\.1 413 /, `round ${round}`);
    }
  });
});

test("an answer a client never reads is dropped, with its connection, once its writes have waited the stall time", { timeout: 30_000 }, async () => {
  let written = 0;
  let ended: "closed" | "finished" | null = null;
  const server = createHttpServer(
    (_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const block = Buffer.alloc(64 * 1024, 0x61);
      // A large download, written as Next.js pipes one: the next block once the socket has drained.
      const more = () => {
        while (written < 512 * 1024 * 1024) {
          written += block.length;
          if (!res.write(block)) return void res.once("drain", more);
        }
        res.end();
      };
      res.once("close", () => (ended ??= res.writableFinished ? "finished" : "closed"));
      more();
    },
    { sendStallMs: 300 },
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const socket = net.connect((server.address() as AddressInfo).port, "127.0.0.1");
    socket.on("error", () => undefined);
    await new Promise<void>((r) => socket.once("connect", r));
    // A client that sends its request and reads nothing.
    socket.pause();
    socket.write("GET /download HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const started = Date.now();
    while (ended === null && Date.now() - started < 10_000) await sleep(50);
    assert.equal(ended, "closed", "the server gave up on the answer");
    assert.ok(written < 64 * 1024 * 1024, `it stopped producing it: ${written} bytes`);
    socket.destroy();
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
