// Event normalization of events shaped as real SDKs send them (fixtures under fixtures/normalize/).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { normalizeEvent } from "../../src/digest/normalize";

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`fixtures/normalize/${name}.json`, import.meta.url), "utf8"));
const RECEIVED = 1_767_225_600;
const ctx = (itemType = "event") => ({ receivedAt: RECEIVED * 1000 + 700, eventId: "0c9e8e0f-7f5a-4d2b-9a1c-3e5f7a9b1d3f", clientIp: "203.0.113.7", itemType });

describe("SDK-shaped events", () => {
  test("JavaScript browser error: URL frames, inferred IP, breadcrumbs, URL split", () => {
    const { event, errors } = normalizeEvent(fixture("js-browser"), ctx());
    assert.deepEqual(errors, []);
    assert.equal(event.type, "error");
    assert.equal(event.level, "error");
    assert.equal(event.timestamp, 1767225600.123);
    const frames = (event.exception?.values[0]?.stacktrace as { frames: Record<string, unknown>[] }).frames;
    assert.deepEqual(frames[1], {
      filename: "/static/js/main.91c3.js",
      abs_path: "https://shop.example.com/static/js/main.91c3.js",
      function: "onCheckout",
      in_app: true,
      lineno: 1,
      colno: 18233,
    });
    assert.deepEqual(event.exception?.values[0]?.mechanism, { type: "onerror", handled: false });
    assert.deepEqual(event.user, { ip_address: "203.0.113.7" });
    assert.equal(event.request?.url, "https://shop.example.com/checkout");
    assert.deepEqual(event.request?.query_string, [["step", "2"]]);
    assert.deepEqual(event.tags, [["page", "checkout"]]);
    assert.equal(event.breadcrumbs?.values.length, 2);
    assert.deepEqual(event.breadcrumbs?.values[1], {
      timestamp: 1767225599.002,
      category: "fetch",
      data: { method: "POST", url: "/api/cart", status_code: 500 },
      type: "http",
      level: "info",
    });
    assert.equal(event.contexts?.trace?.type, "trace");
    assert.equal((event.sdk as Record<string, unknown>).name, "sentry.javascript.browser");
    assert.equal(event.event_id, "0c9e8e0f7f5a4d2b9a1c3e5f7a9b1d3f");
  });

  test("Python error whose NaN was repaired to null: nulls kept where Relay keeps them", () => {
    const { event, errors } = normalizeEvent(fixture("python-nan"), ctx());
    assert.deepEqual(errors, []);
    assert.equal(event.timestamp, RECEIVED + 0.25);
    const frame = (event.exception?.values[0]?.stacktrace as { frames: Record<string, unknown>[] }).frames[0];
    assert.deepEqual(frame?.post_context, ["", null]);
    assert.deepEqual(frame?.vars, { total: null, count: 0, score: null });
    assert.equal(frame?.filename, "shop/views.py");
    assert.equal(event.exception?.values[0]?.module, undefined);
    assert.deepEqual(event.extra, { "sys.argv": ["manage.py", "runserver"], measured: null });
    assert.deepEqual(event.user, { ip_address: "203.0.113.7" });
    assert.deepEqual(event.tags, [["server_name", "web-1"]]);
    assert.equal(event.contexts?.runtime?.type, "runtime");
    assert.equal(event.breadcrumbs?.values[0]?.timestamp, RECEIVED - 0.5);
  });

  test("Go event with bare arrays: exception and breadcrumbs wrapped, tags from pairs, empty message dropped", () => {
    const { event, errors } = normalizeEvent(fixture("go-bare"), ctx());
    assert.deepEqual(errors, []);
    assert.equal(event.exception?.values.length, 1);
    const frames = (event.exception?.values[0]?.stacktrace as { frames: Record<string, unknown>[] }).frames;
    assert.equal(frames[0]?.filename, "/app/main.go");
    assert.equal(event.breadcrumbs?.values[0]?.level, "warning");
    assert.equal(event.breadcrumbs?.values[0]?.timestamp, RECEIVED - 2);
    assert.deepEqual(event.tags, [
      ["component", "db"],
      ["region", "eu-west-1"],
      ["server_name", "api-7d9c"],
    ]);
    assert.equal(event.logentry, undefined);
    assert.equal(event.user, undefined);
    assert.equal(event.release, "api@0.9.1");
  });

  test("raven-ruby event: naïve timestamp as UTC, numeric level, message and logentry both kept", () => {
    const { event, errors } = normalizeEvent(fixture("ruby-raven"), ctx());
    assert.deepEqual(errors, []);
    assert.equal(event.timestamp, RECEIVED);
    assert.equal(event.level, "error");
    assert.equal(event.release, "a1b2c3d");
    assert.equal(event.environment, "default");
    assert.deepEqual(event.logentry, { message: "Payment job failed for %s", params: ["17"], formatted: "Payment job failed for 17" });
    assert.equal(event.message, "Payment job failed for 17");
    assert.equal(event.type, "default");
    assert.equal(event.tags?.length, 1);
  });
});
