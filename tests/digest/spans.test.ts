// The span model (digest/spans.ts) and the performance figures (core/performance-metrics.ts): transaction events and
// span items of both versions become the same rows; web vitals are read where the SDKs put them; percentiles from the
// log-bucketed histogram are within 5%; Apdex and Sentry's performance score.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { apdex, averageScore, bucketOf, performanceScore, quantile, vitalScore } from "../../src/core/performance-metrics";
import { rollupSpans, spanItemSpans, transactionSpans } from "../../src/digest/spans";

const common = { projectId: 1, environment: "prod", release: "1.0", receivedAt: "2026-11-23T10:00:00.000Z" };
const trace = "0123456789abcdef0123456789abcdef";

test("percentiles from the histogram are within 5% of the exact value of that rank (any values)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 0.01, max: 3_600_000, noNaN: true }), { minLength: 1, maxLength: 300 }),
      fc.constantFrom(0.5, 0.75, 0.95),
      (values, q) => {
        const counts = new Map<number, number>();
        for (const v of values) counts.set(bucketOf(v), (counts.get(bucketOf(v)) ?? 0) + 1);
        const estimate = quantile(
          [...counts].map(([bucket, count]) => ({ bucket, count })),
          q,
        )!;
        const exact = [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!;
        assert.ok(Math.abs(estimate - exact) <= exact * 0.05 + 1e-9, `q${q}: ${estimate} vs ${exact}`);
      },
    ),
  );
  assert.equal(quantile([], 0.5), null);
  assert.equal(quantile([{ bucket: bucketOf(0), count: 3 }], 0.95), 0, "zeros (a CLS without shifts) read back as 0");
});

test("Apdex with Sentry's default threshold: satisfied + tolerated / 2 over all", () => {
  assert.equal(apdex(10, 6, 2), (6 + 2 / 2) / 10);
  assert.equal(apdex(0, 0, 0), null);
});

test("performance score: Sentry's weights and log-normal curves (median scores 50, the p90 point 90)", () => {
  assert.ok(Math.abs(vitalScore("lcp", 2400) - 0.5) < 1e-6);
  assert.ok(Math.abs(vitalScore("lcp", 1200) - 0.9) < 1e-3);
  assert.ok(Math.abs(vitalScore("cls", 0.1) - 0.9) < 1e-3);
  assert.equal(vitalScore("cls", 0), 1);
  assert.ok(vitalScore("inp", 5000) < 0.05);
  const all = performanceScore({ lcp: 1, fcp: 0, cls: 1, inp: 0, ttfb: 1 })!;
  assert.ok(Math.abs(all - (30 + 15 + 10)) < 1e-9, "weights lcp 30, fcp 15, inp 30, cls 15, ttfb 10");
  assert.ok(Math.abs(performanceScore({ lcp: 1, fcp: 0 })! - (30 / 45) * 100) < 1e-9, "absent vitals give their weight to the others");
  assert.equal(performanceScore({}), null);
  const s = averageScore("ttfb", [{ bucket: bucketOf(400), count: 2 }])!;
  assert.ok(Math.abs(s - 0.5) < 0.05);
});

test("a transaction event becomes its segment and child spans, its duration and its measurements' vitals", () => {
  const event = {
    transaction: "/checkout",
    start_timestamp: 1_795_000_000,
    timestamp: 1_795_000_001.5,
    contexts: { trace: { trace_id: trace, span_id: "1111111111111111", op: "pageload", status: "deadline_exceeded" } },
    spans: [
      { span_id: "2222222222222222", start_timestamp: 1_795_000_000.1, timestamp: 1_795_000_000.6, op: "resource.script", description: "app.js" },
      { span_id: "nope" },
      "junk",
    ],
    measurements: { lcp: { value: 2100, unit: "millisecond" }, cls: { value: 0.3 }, fp: { value: 10 }, inp: { value: -1 }, ttfb: { value: "x" } },
  };
  const out = transactionSpans(event, "e".repeat(32), common);
  assert.deepEqual(
    out.spans.map((s) => [s.spanId, s.parentSpanId, s.segmentId, s.isSegment, s.op, s.description, s.durationMs]),
    [
      ["1111111111111111", null, "1111111111111111", true, "pageload", "/checkout", 1500],
      ["2222222222222222", "1111111111111111", "1111111111111111", false, "resource.script", "app.js", 500],
    ],
  );
  assert.deepEqual(
    out.values.map((v) => [v.metric, v.value, v.failed]),
    [
      ["duration", 1500, true],
      ["lcp", 2100, false],
      ["cls", 0.3, false],
    ],
    "only web vitals with sane values",
  );
  assert.deepEqual(transactionSpans({ transaction: "x" }, "e".repeat(32), common), { spans: [], values: [] }, "no trace context: nothing");
  const roll = rollupSpans(out.values);
  assert.deepEqual(
    roll.hours.filter((h) => h.metric === "duration").map((h) => [h.transaction, h.count, h.failures, h.good, h.poor]),
    [
      ["/checkout", 1, 1, 0, 1],
      ["", 1, 1, 0, 1],
    ],
    "1.5 s is frustrated (> 4 × 300 ms)",
  );
  assert.deepEqual(
    roll.hours.filter((h) => h.metric === "cls").map((h) => h.poor),
    [1, 1],
  );
  assert.deepEqual(
    roll.hours.filter((h) => h.metric === "duration@day").map((h) => [h.transaction, h.hour, h.count]),
    [
      ["/checkout", `${new Date(1_795_000_000_000).toISOString().slice(0, 10)}T00:00:00Z`, 1],
      ["", `${new Date(1_795_000_000_000).toISOString().slice(0, 10)}T00:00:00Z`, 1],
    ],
    "and per UTC day, for the long periods",
  );
});

test("span items: v2 containers with typed attributes (vitals in browser.web_vital.*), v1 single spans, and junk", () => {
  const v2 = spanItemSpans(
    {
      version: 2,
      items: [
        {
          trace_id: trace,
          span_id: "3333333333333333",
          name: "/home",
          start_timestamp: 10,
          end_timestamp: 11.2,
          status: "error",
          is_segment: true,
          attributes: {
            "sentry.op": { type: "string", value: "pageload" },
            "browser.web_vital.ttfb.value": { type: "double", value: 120 },
            "sentry.release": { type: "string", value: "web@2" },
          },
        },
        {
          trace_id: trace,
          span_id: "4444444444444444",
          parent_span_id: "3333333333333333",
          name: "interaction",
          start_timestamp: 12,
          end_timestamp: 12.08,
          status: "ok",
          attributes: {
            "sentry.segment.name": { type: "string", value: "/home" },
            "sentry.segment.id": { type: "string", value: "3333333333333333" },
            "browser.web_vital.inp.value": { type: "integer", value: 80 },
          },
        },
        { trace_id: "short", span_id: "5555555555555555", start_timestamp: 1 },
      ],
    },
    1,
    common.receivedAt,
  );
  assert.deepEqual(
    v2.spans.map((s) => [s.isSegment, s.transaction, s.op, s.status, s.segmentId, s.release, Math.round(s.durationMs)]),
    [
      [true, "/home", "pageload", "error", "3333333333333333", "web@2", 1200],
      [false, "/home", "default", "ok", "3333333333333333", null, 80],
    ],
  );
  assert.deepEqual(
    v2.values.map((v) => [v.metric, v.transaction, v.value, v.failed]),
    [
      ["duration", "/home", 1200, true],
      ["ttfb", "/home", 120, false],
      ["inp", "/home", 80, false],
    ],
  );
  const v1 = spanItemSpans(
    {
      trace_id: trace,
      span_id: "6666666666666666",
      op: "ui.interaction.click",
      description: "body > button",
      start_timestamp: 5,
      timestamp: 5.3,
      data: { transaction: "/cart" },
      measurements: { inp: { value: 300 } },
    },
    1,
    common.receivedAt,
  );
  assert.deepEqual(
    v1.spans.map((s) => [s.transaction, s.op, s.description]),
    [["/cart", "ui.interaction.click", "body > button"]],
  );
  assert.deepEqual(
    v1.values.map((v) => [v.metric, v.value]),
    [["inp", 300]],
  );
  for (const junk of [null, 3, "x", [], { items: "no" }, { items: [null, 1, {}] }])
    assert.deepEqual(spanItemSpans(junk, 1, common.receivedAt), { spans: [], values: [] });
});
