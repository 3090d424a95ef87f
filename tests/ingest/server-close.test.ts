// Issue 21 (a rolling restart behind a proxy): how a stopping node closes its HTTP server (server/http-server.ts
// closeHttpServer). A request in flight finishes, a kept-alive connection a proxy still sends on is answered (with
// `Connection: close`) instead of closed under it, new connections are refused, and what stays idle is closed after the
// grace period. Over real sockets on loopback.
import assert from "node:assert/strict";
import type http from "node:http";
import net, { type AddressInfo } from "node:net";
import { describe, test } from "node:test";
import { closeHttpServer, createHttpServer } from "../../src/server/http-server";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server whose answers take `delayMs` (a slow request in flight), on a free loopback port. */
async function slowServer(delayMs: number): Promise<{ server: http.Server; port: number; answered: () => number }> {
  let answered = 0;
  const server = createHttpServer((_req, res) => {
    res.once("finish", () => answered++);
    // A length, not chunks: the client below reads an answer as whole once its body "ok" ends it.
    setTimeout(() => res.writeHead(200, { "content-type": "text/plain", "content-length": "2" }).end("ok"), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, answered: () => answered };
}

/** A kept-alive client connection, as a proxy holds one: requests in turn, each answer read whole. */
async function keptAlive(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  let buffered = "";
  let failure: Error | null = null;
  let ended = false;
  socket.on("data", (d: Buffer) => (buffered += d.toString("latin1")));
  socket.on("error", (err) => (failure = err));
  socket.on("end", () => (ended = true));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return {
    failure: () => failure,
    /** The server ended the connection (a FIN, not a reset). */
    ended: () => ended,
    closed,
    /** Sends a request and waits for its whole answer (its body is "ok"); the answer's head, lower-cased. */
    async request(): Promise<string> {
      buffered = "";
      socket.write("POST /api/1/envelope/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}");
      for (let i = 0; i < 500 && !buffered.endsWith("\r\n\r\nok") && !failure; i++) await sleep(10);
      assert.equal(failure, null, "no reset");
      assert.ok(buffered.endsWith("\r\n\r\nok"), `a whole answer within 5 s: ${JSON.stringify(buffered)}`);
      return buffered.split("\r\n\r\n", 1)[0]!.toLowerCase();
    },
  };
}

describe("closing the HTTP server (SIGTERM)", () => {
  test("a request in flight finishes with its answer, which closes its connection; closing waits for it", async () => {
    const { server, port, answered } = await slowServer(300);
    const conn = await keptAlive(port);
    const answer = conn.request();
    await sleep(50);
    const closing = closeHttpServer(server, { quietMs: 5000, graceMs: 5000 }).then(() => answered());
    const head = await answer;
    assert.match(head, /^http\/1\.1 200 /);
    assert.match(head, /\r\nconnection: close/);
    assert.equal(await closing, 1, "closing ended after the answer went out");
    await conn.closed;
    assert.ok(conn.ended(), "the server ended the connection after the answer");
  });

  test("a kept-alive connection that was idle when closing began is answered when it is used, not closed under it", async () => {
    const { server, port } = await slowServer(0);
    const conn = await keptAlive(port);
    assert.doesNotMatch(await conn.request(), /connection: close/, "kept alive before closing");
    const closing = closeHttpServer(server, { quietMs: 5000, graceMs: 5000 });
    await sleep(200);
    // A proxy picks its idle connection for the next request, as nginx does from its keepalive pool.
    const head = await conn.request();
    assert.match(head, /^http\/1\.1 200 /);
    assert.match(head, /\r\nconnection: close/);
    await conn.closed;
    assert.ok(conn.ended());
    await closing;
  });

  test("new connections are refused as soon as closing begins", async () => {
    const { server, port } = await slowServer(0);
    const conn = await keptAlive(port);
    await conn.request();
    const closing = closeHttpServer(server, { quietMs: 2000, graceMs: 2000 });
    const refused = await new Promise<string>((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      s.once("connect", () => {
        s.destroy();
        resolve("connected");
      });
      s.once("error", (err: Error & { code?: string }) => resolve(err.code ?? err.message));
    });
    assert.equal(refused, "ECONNREFUSED");
    await conn.request();
    await closing;
  });

  test(
    "a connection still idle once no request has come for quietMs is closed, and closing ends without waiting for the grace period",
    { timeout: 10_000 },
    async () => {
      const { server, port } = await slowServer(0);
      const conn = await keptAlive(port);
      await conn.request();
      // A grace period past the test's time limit: closing must end once the idle connection is closed.
      await closeHttpServer(server, { quietMs: 300, graceMs: 60_000 });
      await conn.closed;
      assert.equal(conn.failure(), null);
      assert.equal(server.listening, false);
    },
  );

  test("idle connections stay open while a proxy still sends requests, and are closed once they stop", { timeout: 20_000 }, async () => {
    // As nginx under load, before it has met a refused connection: it takes one pooled connection after another
    // (each answer closes its own), every 100 ms here; the last one it takes is used 600 ms after closing began.
    const { server, port } = await slowServer(0);
    const pool = [];
    for (let i = 0; i < 7; i++) pool.push(await keptAlive(port));
    for (const conn of pool) await conn.request();
    let done = false;
    // A quiet period well past the requests' spacing: a loaded machine's stalls do not make a quiet moment of them.
    const closing = closeHttpServer(server, { quietMs: 1500, graceMs: 60_000 }).then(() => (done = true));
    for (const conn of pool.slice(0, 6)) {
      await sleep(100);
      assert.match(await conn.request(), /\r\nconnection: close/, "answered, and closed after its answer");
      assert.equal(done, false, "still closing while requests come");
    }
    const last = pool[6]!;
    await closing;
    await last.closed;
    assert.ok(last.ended(), "the connection left idle is closed with a FIN once requests stopped");
    assert.equal(last.failure(), null);
  });
});
