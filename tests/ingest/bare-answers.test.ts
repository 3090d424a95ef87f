// Requests that Node or Next.js answered with a 4xx and no word (found by a probe of a live server with raw sockets):
// each now gets Faultline's own answer, a {"detail": …} saying what was wrong, with the same status; valid requests
// beside them are served as before. Real HTTP over raw sockets; in place of Next.js, a handler that answers as its
// route handlers do (a bare 405 for a method the route lacks, a bare 400 for one it does not know), through Next's
// own compression wrapper.
import assert from "node:assert/strict";
import type http from "node:http";
import { createRequire } from "node:module";
import { after, before, describe, test } from "node:test";
import { ALLOWED_METHODS } from "../../src/server/guards";
import { startListenerServer } from "../helpers/listener-server";
import { rawConnection } from "../helpers/raw-connection";

type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;
const compression = createRequire(import.meta.url)("next/dist/compiled/compression") as () => Middleware;

/** Next.js's methods of a route handler (server/web/http.js), and those of a route that exports GET alone. */
const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"];
const ROUTE_METHODS = ["GET", "HEAD", "OPTIONS"];

/** The status, the head's fields by lowercase name, and the body (unchunked) of a raw answer. */
function parse(raw: string): { status: number; headers: Map<string, string>; body: string } {
  const end = raw.indexOf("\r\n\r\n");
  const [line, ...fields] = raw.slice(0, end).split("\r\n");
  const headers = new Map(fields.map((f) => [f.slice(0, f.indexOf(":")).toLowerCase(), f.slice(f.indexOf(":") + 1).trim()]));
  let body = raw.slice(end + 4);
  if (headers.get("transfer-encoding") === "chunked") {
    let rest = body;
    for (body = ""; ; ) {
      const size = parseInt(rest, 16);
      if (!(size > 0)) break;
      const start = rest.indexOf("\r\n") + 2;
      body += rest.slice(start, start + size);
      rest = rest.slice(start + size + 2);
    }
  }
  return { status: Number(line!.split(" ")[1]), headers, body };
}

describe("answers Node and Next.js gave without a word", () => {
  let server: Awaited<ReturnType<typeof startListenerServer>>;
  const compress = compression();

  before(async () => {
    server = await startListenerServer(async (req, res) => {
      // As Next.js serves: its compression wraps the response (unless a test asks for none), then a route handler
      // answers, or the framework answers for it with a status and an end() that writes nothing (send-response.js).
      if (req.headers["x-test-no-compression"] === undefined) compress(req, res, () => undefined);
      const bare = (status: number) => void ((res.statusCode = status), res.end());
      if (!HTTP_METHODS.includes(req.method!)) return bare(400);
      if (!ROUTE_METHODS.includes(req.method!)) return bare(405);
      const text = `served ${req.url}`;
      res.writeHead(200, { "content-type": "text/plain", "content-length": String(Buffer.byteLength(text)) }).end(text);
    });
  });

  after(() => server.close());

  /** Sends `request`, half-closes, and returns the answer once the server has closed the connection. */
  async function exchange(request: string) {
    const c = await rawConnection(server.port);
    await c.write(request);
    await c.end();
    assert.equal(c.errored(), null, "no reset");
    return { raw: c.received(), ...parse(c.received()) };
  }

  test("an HTTP/1.1 request without a Host header is a 400 saying so (Node's own 400 had no body); HTTP/1.0 needs none", async () => {
    const r = await exchange("GET /api/health HTTP/1.1\r\n\r\n");
    assert.equal(r.status, 400, r.raw);
    assert.equal(r.headers.get("content-type"), "application/json");
    assert.equal(r.headers.get("connection"), "close");
    assert.deepEqual(JSON.parse(r.body), { detail: "the request has no Host header, which HTTP/1.1 requires" });
    assert.match((await exchange("GET /api/health HTTP/1.0\r\n\r\n")).raw, /^HTTP\/1\.1 200 [^]*served \/api\/health$/);
    assert.match((await exchange("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")).raw, /^HTTP\/1\.1 200 [^]*served \/api\/health$/);
  });

  test("a target in absolute form is served as its path, the Host its authority (RFC 9112 §3.2.2); one that is no URL is a 400 saying so", async () => {
    assert.match((await exchange("GET http://127.0.0.1/api/health?x=1 HTTP/1.1\r\nHost: other\r\n\r\n")).raw, /^HTTP\/1\.1 200 [^]*served \/api\/health\?x=1$/);
    for (const target of ["ftp://127.0.0.1/x", "http://"]) {
      const r = await exchange(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      assert.equal(r.status, 400, r.raw);
      assert.match(JSON.parse(r.body).detail, /^The request target /);
    }
  });

  test("a method other than GET or HEAD on the build's static files is a 405 with their Allow (Next.js answered an HTML page)", async () => {
    for (const method of ["DELETE", "POST", "PUT", "OPTIONS"]) {
      const r = await exchange(`${method} /_next/static/chunks/main.js HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`);
      assert.equal(r.status, 405, r.raw);
      assert.equal(r.headers.get("allow"), "GET, HEAD");
      assert.deepEqual(JSON.parse(r.body), { detail: `${method} is not supported on the build's static files` });
    }
    assert.match((await exchange("GET /_next/static/chunks/main.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")).raw, /^HTTP\/1\.1 200 /);
  });

  test("an Expect other than 100-continue is a 417 saying so (Node's own 417 had no body); 100-continue goes on", async () => {
    for (const expect of ["200-ok", "x-custom"]) {
      const r = await exchange(`POST /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: ${expect}\r\nContent-Length: 2\r\n\r\n{}`);
      assert.equal(r.status, 417, r.raw);
      assert.equal(r.headers.get("content-type"), "application/json");
      assert.match(JSON.parse(r.body).detail, /^the Expect header asks for something other than 100-continue/);
    }
    // No Host as well: the Host is what is missing first, as in Node's own order.
    assert.equal((await exchange("GET / HTTP/1.1\r\nExpect: 200-ok\r\n\r\n")).status, 400);
    const r = await exchange("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n\r\n");
    assert.match(r.raw, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 [^]*served \/api\/health$/);
  });

  test("a route handler's bare 405 for a method the route lacks gets a {\"detail\"} naming the method, through Next's compression as without it; HEAD gets the head alone", async () => {
    for (const compressed of [true, false]) {
      const no = compressed ? "" : "X-Test-No-Compression: 1\r\n";
      for (const method of ["DELETE", "POST", "PATCH"]) {
        const r = await exchange(`${method} /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n${no}Content-Length: 0\r\n\r\n`);
        assert.equal(r.status, 405, r.raw);
        assert.equal(r.headers.get("content-type"), "application/json", r.raw);
        assert.equal(r.headers.get("content-length"), String(Buffer.byteLength(r.body)), r.raw);
        assert.deepEqual(JSON.parse(r.body), { detail: `${method} is not supported on this path` });
      }
    }
    const head = await exchange("HEAD /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    assert.match(head.raw, /^HTTP\/1\.1 200 /, "HEAD is one of the route's");
    assert.equal(head.body, "");
  });

  test("OPTIONS * asks about the server as a whole: 200 with Allow and no content (RFC 9110 §9.3.7); * with another method is a 400 (Next answered its HTML 400 page)", async () => {
    const r = await exchange("OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    assert.equal(r.status, 200, r.raw);
    assert.equal(r.headers.get("allow"), ALLOWED_METHODS);
    assert.equal(r.headers.get("content-length"), "0");
    assert.equal(r.body, "");
    for (const method of ["GET", "POST", "DELETE"]) {
      const refused = await exchange(`${method} * HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`);
      assert.equal(refused.status, 400, refused.raw);
      assert.equal(refused.headers.get("content-type"), "application/json");
      assert.deepEqual(JSON.parse(refused.body), { detail: `the request target * is for OPTIONS only, not ${method}` });
    }
    // An address's own OPTIONS is its route's, as before.
    assert.match((await exchange("OPTIONS /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")).raw, /^HTTP\/1\.1 200 [^]*served \/api\/health$/);
  });

  test("a method Faultline serves nowhere (PROPFIND, SEARCH, PURGE) is a 405 with Allow before Next.js (a route handler answered a bare 400)", async () => {
    for (const [method, path] of [
      ["PROPFIND", "/api/0/"],
      ["SEARCH", "/api/health"],
      ["PURGE", "/_next/static/css/app.css"],
      ["PROPFIND", "/en/orgs"],
    ]) {
      const r = await exchange(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      assert.equal(r.status, 405, r.raw);
      assert.equal(r.headers.get("allow"), ALLOWED_METHODS);
      assert.deepEqual(JSON.parse(r.body), { detail: `${method} is not supported` });
    }
  });
});
