// Fetching sources and maps from public URLs (digest/symbolicate/fetch.ts): only the refusals, which need no network.
// Private, loopback, link-local and other non-public addresses are refused before any connection, whether named
// literally or through a host name that resolves to one.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Symbolicator } from "../../src/digest/symbolicate";
import { isPublicAddress, publicAddresses, publicFetcher, RefusedAddress } from "../../src/digest/symbolicate/fetch";

describe("which addresses are public", () => {
  test("loopback, private, link-local, carrier-grade NAT, unspecified, unique-local and mapped ones are not", () => {
    for (const ip of ["127.0.0.1", "127.8.9.10", "10.0.0.5", "172.16.3.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "255.255.255.255", "224.0.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "not-an-ip"]) {
      assert.equal(isPublicAddress(ip), false, ip);
    }
  });
  test("global unicast addresses are", () => {
    for (const ip of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "::ffff:93.184.216.34"]) assert.equal(isPublicAddress(ip), true, ip);
  });
  test("a host with any non-public address among its answers is refused", async () => {
    const resolve = async () => [{ address: "93.184.216.34", family: 4 }, { address: "10.1.1.1", family: 4 }];
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
    exception: { values: [{ type: "Error", stacktrace: { frames: [{ abs_path: "http://localhost:8000/static/app.js", filename: "/static/app.js", lineno: 1, colno: 120, function: "a" }] } }] },
  });
  test("off (the default): nothing is fetched and nothing is noted without uploads", async () => {
    const asked: string[] = [];
    const s = new Symbolicator({ artifacts: null, fetcher: async (url) => (asked.push(url), { ok: false, type: "js_generic_fetch_error", url }) });
    const e: Record<string, any> = event();
    await s.symbolicate(e, { id: 1, scrapeJavaScript: false });
    assert.deepEqual(asked, []);
    assert.equal(e.errors, undefined);
  });
  test("on: a frame on a loopback URL is refused and noted (restricted_ip), the frame left as sent", async () => {
    const s = new Symbolicator({ artifacts: null, fetcher: publicFetcher() });
    const e: Record<string, any> = event();
    await s.symbolicate(e, { id: 1, scrapeJavaScript: true });
    assert.deepEqual(e.errors, [{ type: "restricted_ip", url: "http://localhost:8000/static/app.js" }]);
    assert.equal(e.exception.values[0].stacktrace.frames[0].function, "a");
  });
});
