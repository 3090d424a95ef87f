// Fetching sources and maps from public URLs (digest/symbolicate/fetch.ts). Private, loopback, link-local and other
// non-public addresses are refused before any connection, whether named literally or through a host name that
// resolves to one. There is no network here: the following of redirects, the size limit and the scraping path of the
// symbolicator are checked against real HTTP servers on 127.0.0.1, with an address policy that admits 127.0.0.1 only
// (standing in for "public") and refuses every other address, 127.0.0.2 included.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { SYMBOLICATION_LIMITS } from "../../src/config/limits";
import { normalizeEvent } from "../../src/digest/normalize";
import { Symbolicator } from "../../src/digest/symbolicate";
import { isPublicAddress, publicAddresses, publicFetcher, RefusedAddress } from "../../src/digest/symbolicate/fetch";
import { type Bundle, buildBundle, crashFrames, jsEvent } from "../helpers/js-bundles";
import type { TestJson } from "../helpers/json";

describe("which addresses are public", () => {
  test("loopback, private, link-local, carrier-grade NAT, unspecified, unique-local and mapped ones are not", () => {
    for (const ip of [
      "127.0.0.1",
      "127.8.9.10",
      "10.0.0.5",
      "172.16.3.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "224.0.0.1",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "not-an-ip",
    ]) {
      assert.equal(isPublicAddress(ip), false, ip);
    }
  });
  test("global unicast addresses are", () => {
    for (const ip of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:93.184.216.34"]) assert.equal(isPublicAddress(ip), true, ip);
  });
  test("a host with any non-public address among its answers is refused", async () => {
    const resolve = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.1.1.1", family: 4 },
    ];
    await assert.rejects(publicAddresses("mixed.example", resolve), RefusedAddress);
  });
});

describe("the fetcher refuses before connecting", () => {
  const fetcher = publicFetcher();
  for (const url of [
    "http://127.0.0.1/static/app.js",
    "http://10.0.0.7:8080/app.js.map",
    "http://[::1]/app.js",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::ffff:127.0.0.1]/app.js",
    "http://localhost:3000/static/app.js",
  ]) {
    test(`${url}: restricted_ip`, async () => {
      const result = await fetcher(url);
      assert.deepEqual(result.ok ? "fetched" : result.type, "restricted_ip");
    });
  }
  test("a host name resolving to loopback is refused (resolver answering 127.0.0.1)", async () => {
    const result = await publicFetcher(async () => [{ address: "127.0.0.1", family: 4 }])("https://cdn.example.com/app.js");
    assert.equal(result.ok ? "fetched" : result.type, "restricted_ip");
  });
  test("other schemes and URLs with credentials are not fetched", async () => {
    for (const url of ["file:///etc/passwd", "ftp://cdn.example.com/app.js", "https://user:secret@cdn.example.com/app.js"]) {
      const result = await fetcher(url);
      assert.equal(result.ok ? "fetched" : result.type, "js_generic_fetch_error", url);
    }
  });
});

describe("fetching is per project", () => {
  const event = () => ({
    event_id: "e".repeat(32),
    platform: "javascript",
    exception: {
      values: [
        {
          type: "Error",
          stacktrace: { frames: [{ abs_path: "http://localhost:8000/static/app.js", filename: "/static/app.js", lineno: 1, colno: 120, function: "a" }] },
        },
      ],
    },
  });
  test("off (the default): nothing is fetched and nothing is noted without uploads", async () => {
    const asked: string[] = [];
    const s = new Symbolicator({ artifacts: null, fetcher: async (url) => (asked.push(url), { ok: false, type: "js_generic_fetch_error", url }) });
    const e: Record<string, TestJson> = event();
    await s.symbolicate(e, { id: 1, scrapeJavaScript: false });
    assert.deepEqual(asked, []);
    assert.equal(e.errors, undefined);
  });
  test("on: a frame on a loopback URL is refused and noted (restricted_ip), the frame left as sent", async () => {
    const s = new Symbolicator({ artifacts: null, fetcher: publicFetcher() });
    const e: Record<string, TestJson> = event();
    await s.symbolicate(e, { id: 1, scrapeJavaScript: true });
    assert.deepEqual(e.errors, [{ type: "restricted_ip", url: "http://localhost:8000/static/app.js" }]);
    assert.equal(e.exception.values[0].stacktrace.frames[0].function, "a");
  });
});

describe("fetching over real HTTP (127.0.0.1 admitted as if public, every other address refused)", () => {
  const onlyFirstLoopback = (ip: string) => ip === "127.0.0.1";
  const fetcher = publicFetcher(undefined, onlyFirstLoopback);
  let server: Server;
  let origin: string;
  let dir: string;
  let bundle: Bundle;
  const served: string[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "faultline-fetch-"));
    bundle = await buildBundle(dir, "a");
    server = createServer((req, res) => {
      served.push(req.url ?? "");
      const port = (server.address() as AddressInfo).port;
      if (req.url === "/static/app.js") res.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(bundle.js));
      else if (req.url === "/static/app.js.map") res.writeHead(200, { "content-type": "application/json" }).end(readFileSync(bundle.map));
      else if (req.url === "/hop") res.writeHead(302, { location: "/static/app.js.map" }).end();
      else if (req.url === "/to-private") res.writeHead(302, { location: `http://127.0.0.2:${port}/static/app.js.map` }).end();
      else if (req.url === "/huge") res.writeHead(200, { "content-length": String(SYMBOLICATION_LIMITS.fetchMaxBytes + 1) }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a file is fetched with its headers; a redirect to an admitted host is followed", async () => {
    const direct = await fetcher(`${origin}/static/app.js.map`);
    assert.ok(direct.ok);
    assert.equal(direct.file.headers["content-type"], "application/json");
    const hop = await fetcher(`${origin}/hop`);
    assert.ok(hop.ok);
    assert.equal(Buffer.from(hop.file.bytes).toString("utf8"), readFileSync(bundle.map, "utf8"));
  });

  test("a redirect to a refused address is not followed (restricted_ip, naming where it pointed)", async () => {
    const before = served.length;
    const result = await fetcher(`${origin}/to-private`);
    assert.equal(result.ok ? "fetched" : result.type, "restricted_ip");
    assert.match(result.ok ? "" : result.url, /^http:\/\/127\.0\.0\.2:/);
    assert.deepEqual(served.slice(before), ["/to-private"], "nothing was asked of the refused host");
  });

  test("an error status and a file over the size limit are notes, not failures", async () => {
    const missing = await fetcher(`${origin}/nothing-here.js`);
    assert.deepEqual(missing.ok ? null : [missing.type, missing.value], ["js_invalid_http_code", "404"]);
    const huge = await fetcher(`${origin}/huge`);
    assert.equal(huge.ok ? "fetched" : huge.type, "js_too_large");
  });

  test("a project that allows fetching gets its frames mapped from the minified file's sourceMappingURL", async () => {
    const url = `${origin}/static/app.js`;
    const event = normalizeEvent(jsEvent(crashFrames(bundle, url)), {
      receivedAt: Date.now(),
      eventId: "f".repeat(32),
      clientIp: null,
      itemType: "event",
      ownsInput: true,
    }).event as Record<string, TestJson>;
    await new Symbolicator({ artifacts: null, fetcher }).symbolicate(event, { id: 1, scrapeJavaScript: true });
    const top = event.exception.values[0].stacktrace.frames.at(-1);
    assert.equal(top.filename, "/src/cart.ts");
    assert.equal(top.data.resolved_with, "scraping");
    assert.equal(top.data.sourcemap, `${origin}/static/app.js.map`);
  });
});
