// A server action's body is read by the listener before Next.js sees it (server/action-body.ts). A client that stops
// sending it, or trickles it a byte at a time, is answered 408 once the idle time or the deadline passes, instead of
// holding its request and socket for Node's 5-minute request timeout; one larger than the limit is a 413 that reaches a
// client still sending, with no reset, and one declared larger is a 413 before it is sent. Real HTTP over a raw
// socket; in place of Next.js, a handler that echoes the body it was handed. The pace is shortened here
// (ACTION_LIMITS: 30 s idle, 60 s in all).
import assert from "node:assert/strict";
import type http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, test } from "node:test";
import { ACTION_LIMITS } from "../../src/config/limits";
import { startListenerServer } from "../helpers/listener-server";
import { rawConnection } from "../helpers/raw-connection";

const IDLE_MS = 300;
const ACTION = "0".repeat(40);
const DEADLINE_MS = 900;

describe("a server action's body that arrives too slowly or is too large", () => {
  let server: Awaited<ReturnType<typeof startListenerServer>>;
  let port: number;

  before(async () => {
    const echo = async (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const answer = `echo:${Buffer.concat(chunks).toString("utf8")}`;
      res.writeHead(200, { "content-type": "text/plain", "content-length": String(Buffer.byteLength(answer)) }).end(answer);
    };
    server = await startListenerServer(echo, { actionBodyPace: { idleMs: IDLE_MS, deadlineMs: DEADLINE_MS }, actionIds: new Set([ACTION]) });
    port = server.port;
  });

  after(() => server.close());

  const head = (length: number, action: string | null = ACTION) =>
    `POST /en/orgs/acme/settings/teams HTTP/1.1\r\nHost: 127.0.0.1\r\n${action ? `Next-Action: ${action}\r\n` : ""}` +
    `Content-Type: text/plain;charset=UTF-8\r\nContent-Length: ${length}\r\n\r\n`;

  /** Waits until the answer's head has come, or `ms` have passed. */
  const answerWithin = async (c: Awaited<ReturnType<typeof rawConnection>>, ms: number) => {
    for (const end = Date.now() + ms; !c.answered() && Date.now() < end; ) await sleep(20);
    return c.answered();
  };

  test("a whole body reaches the action as sent", async () => {
    const c = await rawConnection(port);
    const body = '["en","acme"]';
    await c.write(head(body.length) + body);
    assert.ok(await answerWithin(c, 5_000));
    await c.end();
    assert.match(c.received(), /^HTTP\/1\.1 200 /);
    assert.match(c.received(), /echo:\["en","acme"\]$/);
  });

  test("a body that stops arriving is a 408 once the idle time passes, and the connection closes", async () => {
    const c = await rawConnection(port);
    await c.write(head(100) + '["en",');
    assert.ok(await answerWithin(c, 5_000), "answered, not held for Node's request timeout");
    await c.end();
    assert.equal(c.errored(), null);
    assert.match(c.received(), /^HTTP\/1\.1 408 /);
    assert.match(c.received(), /\r\nconnection: close\r\n/i);
    assert.match(c.received(), /"detail":"No part of the server action's body arrived for 0.3 seconds"/);
  });

  test("a body trickled a byte at a time, never idle, is a 408 once its deadline passes", async () => {
    const c = await rawConnection(port);
    await c.write(head(10_000));
    const started = Date.now();
    while (!c.answered() && Date.now() - started < 5_000) {
      await c.write(" ");
      await sleep(IDLE_MS / 5);
    }
    await c.end();
    assert.equal(c.errored(), null);
    assert.match(c.received(), /^HTTP\/1\.1 408 /);
    assert.match(c.received(), /"detail":"The server action's body did not arrive within 0.9 seconds"/);
  });

  test("a body past the limit is a 413 that reaches a client still sending it, with no reset", { timeout: 60_000 }, async () => {
    const size = 3 * ACTION_LIMITS.maxBodyBytes;
    const c = await rawConnection(port);
    await c.write(head(size));
    const block = Buffer.alloc(64 * 1024, 0x20);
    for (let sent = 0; sent < size && !c.errored(); sent += block.length) await c.write(block);
    await c.end();
    assert.equal(c.errored(), null);
    assert.match(c.received(), /^HTTP\/1\.1 413 /);
    assert.match(c.received(), new RegExp(`"detail":"The server action's body is larger than ${ACTION_LIMITS.maxBodyBytes} bytes"`));
  });

  test("a length declared past the limit is a 413 before any of the body, also to a client that waits for 100-continue", async () => {
    for (const expect of ["", "Expect: 100-continue\r\n"]) {
      const c = await rawConnection(port);
      await c.write(head(3 * ACTION_LIMITS.maxBodyBytes).replace("\r\n\r\n", `\r\n${expect}\r\n`));
      for (const end = Date.now() + 5_000; !/ 413 /.test(c.received()) && Date.now() < end; ) await sleep(20);
      await c.end();
      assert.equal(c.errored(), null);
      assert.match(c.received(), /^(HTTP\/1\.1 100 Continue\r\n\r\n)?HTTP\/1\.1 413 /, `${expect || "no Expect"}: ${c.received().slice(0, 40)}`);
      assert.match(c.received(), /\r\nconnection: close\r\n/i);
    }
  });

  test("a body posted to a page that is no action is read within the same pace: a 408 once it stops arriving", async () => {
    const c = await rawConnection(port);
    await c.write(head(100, null) + '{"a":');
    assert.ok(await answerWithin(c, 5_000), "answered, not held for Node's request timeout");
    await c.end();
    assert.equal(c.errored(), null);
    assert.match(c.received(), /^HTTP\/1\.1 408 /);
    assert.match(c.received(), /"detail":"No part of the request body arrived for 0.3 seconds"/);
    const whole = await rawConnection(port);
    await whole.write(head(8, null) + '{"a":1}\n');
    assert.ok(await answerWithin(whole, 5_000));
    await whole.end();
    assert.match(whole.received(), /^HTTP\/1\.1 200 [^]*echo:\{"a":1\}\n$/);
  });

  test("an action id the build does not have is a 404 from the listener (Next.js logged a stack trace for each)", async () => {
    const c = await rawConnection(port);
    await c.write(head(2, "f".repeat(40)) + "[]");
    assert.ok(await answerWithin(c, 5_000));
    await c.end();
    assert.match(c.received(), /^HTTP\/1\.1 404 /);
    assert.match(c.received(), /"detail":"No such server action: the page may be from another version of Faultline; reload it"/);
  });
});
