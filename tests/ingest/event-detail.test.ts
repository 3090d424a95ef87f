// One event as the event API serves it (Sentry's EventSerializer): the interfaces as `entries` in display order, frames
// in the camelCase API shape with their context lines, and processing errors listed, for an event sent over real HTTP
// and digested by the real worker.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { serializeEventDetail } from "../../src/web/api/event-serializers";
import { type TestIntake, startTestIntake } from "../helpers/intake";
import type { TestJson } from "../helpers/json";

const hex = () => crypto.randomUUID().replace(/-/g, "");

describe("event detail", () => {
  let t: TestIntake;
  before(async () => {
    t = await startTestIntake();
  });
  after(() => t.close());

  test("entries: message, exception with context lines, breadcrumbs and request, in Sentry's order and shapes; processing errors listed", async () => {
    const p = t.projects[0];
    const id = hex();
    const now = Date.now() / 1000;
    const event = {
      platform: "python",
      logentry: { message: "charging %s failed", params: ["order-7"] },
      exception: {
        values: [
          {
            type: "ValueError",
            value: "bad amount",
            mechanism: { type: "generic", handled: false },
            stacktrace: {
              frames: [
                { filename: "site-packages/django/core/handlers.py", function: "inner", lineno: 55, in_app: false },
                {
                  filename: "shop/payments.py",
                  abs_path: "/srv/shop/payments.py",
                  function: "charge",
                  lineno: 42,
                  colno: 7,
                  pre_context: ["def charge(order):", "    amount = order.total"],
                  context_line: "    raise ValueError('bad amount')",
                  post_context: ["", "def refund():"],
                  vars: { order: "<Order 7>" },
                  in_app: true,
                },
              ],
            },
          },
        ],
      },
      breadcrumbs: { values: [{ timestamp: now - 5, category: "http", message: "GET /cart", level: "info" }] },
      request: { url: "https://shop.example/checkout", method: "POST", query_string: "step=2" },
      contexts: { runtime: { name: "CPython", version: "3.11.2" } },
      sdk: { name: "sentry.python", version: "1.9.10" },
      extra: { attempt: 3 },
      release: "shop@1.4.0",
      fingerprint: ["{{ default }}"],
      level: 42,
    };
    const res = await fetch(t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`), {
      method: "POST",
      body: `{"event_id":"${id}"}\n{"type":"event"}\n${JSON.stringify(event)}\n`,
    });
    assert.equal(res.status, 200);
    await t.settle();
    const stored = await t.core.store.getEvent(p.id, id);
    assert.ok(stored, "digested");
    const detail = serializeEventDetail({ event: stored, next: null, previous: null });

    assert.deepEqual(
      detail.entries.map((e) => e.type),
      ["message", "exception", "breadcrumbs", "request"],
    );
    const [message, exception, crumbs, request] = detail.entries as { type: string; data: Record<string, TestJson> }[];
    assert.deepEqual(message!.data, { formatted: "charging order-7 failed", message: "charging %s failed", params: ["order-7"] });
    const frames = exception!.data.values[0].stacktrace.frames;
    assert.equal(exception!.data.hasSystemFrames, true);
    assert.deepEqual(exception!.data.values[0].mechanism, { type: "generic", handled: false });
    assert.deepEqual(
      {
        absPath: frames[1].absPath,
        function: frames[1].function,
        lineNo: frames[1].lineNo,
        colNo: frames[1].colNo,
        inApp: frames[1].inApp,
        vars: frames[1].vars,
      },
      { absPath: "/srv/shop/payments.py", function: "charge", lineNo: 42, colNo: 7, inApp: true, vars: { order: "<Order 7>" } },
    );
    assert.deepEqual(frames[1].context, [
      [40, "def charge(order):"],
      [41, "    amount = order.total"],
      [42, "    raise ValueError('bad amount')"],
      [43, ""],
      [44, "def refund():"],
    ]);
    assert.deepEqual(frames[0].context, [], "a frame without source lines has no context");
    assert.equal(crumbs!.data.values[0].message, "GET /cart");
    assert.equal(crumbs!.data.values[0].timestamp, new Date((now - 5) * 1000).toISOString());
    assert.deepEqual(
      [request!.data.url, request!.data.method, request!.data.query],
      ["https://shop.example/checkout", "POST", [["step", "2"]]],
      "the query as pairs, as Relay normalizes it",
    );

    assert.deepEqual(detail.release, { version: "shop@1.4.0" });
    assert.deepEqual(detail.context, { attempt: 3 });
    assert.equal((detail.contexts as TestJson).runtime.name, "CPython");
    assert.equal((detail.sdk as TestJson).name, "sentry.python");
    assert.ok(
      detail.fingerprints.length >= 1 && detail.fingerprints.every((h: unknown) => typeof h === "string" && /^[0-9a-f]{32}$/.test(h)),
      "the grouping hashes",
    );
    const levelError = detail.errors.find((e) => e.data.name === "level");
    assert.ok(levelError, `a level of the wrong type is listed as a processing error: ${JSON.stringify(detail.errors)}`);
    assert.match(levelError.message, /level/);
  });
});
