// An answer of the pages and the web API that closes the connection before the request's body was read (a 413 from
// a route handler, whose `connection: close` comes from web/api/errors.ts) reaches a client still sending that body,
// rather than a reset: the listener closes such connections as the intake does (ingest/linger.ts). Real HTTP over a
// raw socket; in place of Next.js, a handler that answers 413 without reading the body, as a route handler does.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { openIntake } from "../../src/ingest";
import { createHttpServer } from "../../src/server/http-server";
import { createListener } from "../../src/server/listener";
import { testCore, type TestCore } from "../helpers/core";
import { rawConnection } from "../helpers/raw-connection";

describe("answers that leave the body unread", () => {
  let core: TestCore;
  let dataDir: string;
  let server: http.Server;
  let intake: ReturnType<typeof openIntake>;
  let port: number;

  before(async () => {
    core = await testCore();
    dataDir = mkdtempSync(path.join(tmpdir(), "faultline-unread-"));
    intake = openIntake({ dataDir, durability: "normal", lookupKey: (k) => core.store.getIntakeKey(k), log: () => undefined });
    const next = async (_req: http.IncomingMessage, res: http.ServerResponse) => {
      const body = JSON.stringify({ detail: "Request body is larger than 65536 bytes" });
      res.writeHead(413, { "content-type": "application/json", "content-length": String(body.length), connection: "close" }).end(body);
    };
    server = createHttpServer(createListener({ config: { trustProxy: false, publicUrl: "http://localhost:9000" }, basePath: "", intake, next }));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    intake.close();
    rmSync(dataDir, { recursive: true, force: true });
    await core.close();
  });

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
