// An answer of the pages and the web API that closes the connection before the request's body was read (a 413 from
// a route handler, whose `connection: close` comes from web/api/errors.ts) reaches a client still sending that body,
// rather than a reset: the listener closes such connections as the intake does (ingest/linger.ts). Real HTTP over a
// raw socket; in place of Next.js, a handler that answers 413 without reading the body, as a route handler does.
import assert from "node:assert/strict";
import type http from "node:http";
import { after, before, describe, test } from "node:test";
import { startListenerServer } from "../helpers/listener-server";
import { rawConnection } from "../helpers/raw-connection";

describe("answers that leave the body unread", () => {
  let server: Awaited<ReturnType<typeof startListenerServer>>;
  let port: number;

  before(async () => {
    server = await startListenerServer(async (_req: http.IncomingMessage, res: http.ServerResponse) => {
      const body = JSON.stringify({ detail: "Request body is larger than 65536 bytes" });
      res.writeHead(413, { "content-type": "application/json", "content-length": String(body.length), connection: "close" }).end(body);
    });
    port = server.port;
  });

  after(() => server.close());

  test("a 413 of the web API reaches a client still sending 5 MB, with no reset, in every round", { timeout: 60_000 }, async () => {
    const size = 5 * 1024 * 1024;
    for (let round = 0; round < 5; round++) {
      const c = await rawConnection(port);
      await c.write(`PUT /api/0/issues/1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`);
      const block = Buffer.alloc(64 * 1024, 0x20);
      // The whole body, as a client that does not read the answer before it has sent its request.
      for (let sent = 0; sent < size && !c.errored(); sent += block.length) await c.write(block);
      await c.end();
      assert.equal(c.errored(), null, `round ${round}: no reset`);
      assert.match(c.received(), /^HTTP\/1\.1 413 /, `round ${round}`);
      assert.match(c.received(), /"detail":"Request body is larger than 65536 bytes"/);
    }
  });
});
