// bench:ingest's tracing and health payloads as the SDKs send them: transactions (browser pageloads and Django
// requests), streamed spans, sessions and client reports.
import { EID, SID, JS_SDK, PY_SDK, UA, PAGES, WORDS, hex, pick, secs, pyTime, jsTrace } from "./payloads-common.mjs";

export function transaction(rng, key, t, python, nSpans = 30) {
  const trace_id = hex(rng, 32),
    root = hex(rng, 16),
    start = t - 1.5 - rng();
  const spans = Array.from({ length: nSpans }, (_, i) => {
    const s = start + i * 0.03,
      op = python
        ? pick(rng, ["db", "db", "cache.get", "http.client"])
        : pick(rng, ["resource.script", "resource.css", "resource.img", "http.client", "browser"]);
    return {
      span_id: hex(rng, 16),
      parent_span_id: root,
      trace_id,
      op,
      origin: python ? "auto.db.django" : "auto.resource.browser.metrics",
      description:
        op === "db"
          ? `SELECT "shop_${pick(rng, WORDS)}"."id", "shop_${pick(rng, WORDS)}"."${pick(rng, WORDS)}" FROM "shop_${pick(rng, WORDS)}" WHERE "shop_${pick(rng, WORDS)}"."id" = %s LIMIT 21`
          : `https://shop.example.com/_next/static/chunks/${pick(rng, WORDS)}-${hex(rng, 16)}.js`,
      start_timestamp: secs(s),
      timestamp: secs(s + 0.002 + rng() * 0.05),
      status: "ok",
      data: python
        ? { "db.system": "postgresql" }
        : { "http.response_content_length": Math.floor(rng() * 90000), "sentry.op": op, "sentry.origin": "auto.resource.browser.metrics" },
    };
  });
  const page = pick(rng, PAGES);
  const tx = {
    contexts: {
      trace: { span_id: root, trace_id, op: python ? "http.server" : "pageload", origin: python ? "auto.http.django" : "auto.pageload.browser", status: "ok" },
    },
    spans,
    start_timestamp: secs(start),
    timestamp: secs(t),
    transaction: python ? `/api/${pick(rng, WORDS)}s/{pk}/` : page,
    type: "transaction",
    transaction_info: { source: python ? "route" : "url" },
    platform: python ? "python" : "javascript",
    event_id: EID,
    environment: "production",
    release: python ? "shop@2.4.1" : "web@3.2.0",
    sdk: python ? PY_SDK : { ...JS_SDK, packages: [{ name: "npm:@sentry/browser", version: "11.5.0" }] },
    ...(python
      ? {}
      : {
          measurements: {
            fp: { value: 310, unit: "millisecond" },
            fcp: { value: 412, unit: "millisecond" },
            lcp: { value: 980 + Math.floor(rng() * 900), unit: "millisecond" },
            ttfb: { value: 120, unit: "millisecond" },
            cls: { value: 0.02, unit: "" },
          },
          request: { url: `https://shop.example.com${page}`, headers: { "User-Agent": UA } },
        }),
  };
  const header = python
    ? { event_id: EID, sent_at: pyTime(t) }
    : { event_id: EID, sent_at: new Date(t * 1000).toISOString(), sdk: JS_SDK, trace: { ...jsTrace(rng, key, page), sampled: "true" } };
  return [header, [[python ? { type: "transaction", content_type: "application/json" } : { type: "transaction" }, tx]]];
}

/**
 * What @sentry/browser 11.5.0 sends by default (span streaming): a span v2 container of a page load's segment span
 * (its web vitals as `browser.web_vital.*` attributes) and its child spans, typed attributes on each.
 */
export function streamedSpans(rng, key, t, nSpans = 20) {
  const trace_id = hex(rng, 32),
    root = hex(rng, 16),
    start = t - 1.5 - rng(),
    page = pick(rng, PAGES);
  const attr = (value) => ({ value, type: typeof value === "string" ? "string" : Number.isInteger(value) ? "integer" : "double" });
  const common = {
    "sentry.segment.name": attr(page),
    "sentry.segment.id": attr(root),
    "sentry.sdk.name": attr(JS_SDK.name),
    "sentry.sdk.version": attr(JS_SDK.version),
    "sentry.release": attr("web@3.2.0"),
    "sentry.environment": attr("production"),
    "sentry.trace_lifecycle": attr("stream"),
  };
  const children = Array.from({ length: nSpans }, (_, i) => {
    const s = start + i * 0.03,
      op = pick(rng, ["resource.script", "resource.css", "resource.img", "http.client", "browser"]);
    return {
      trace_id,
      span_id: hex(rng, 16),
      parent_span_id: root,
      name: `https://shop.example.com/_next/static/chunks/${pick(rng, WORDS)}-${hex(rng, 16)}.js`,
      start_timestamp: secs(s),
      end_timestamp: secs(s + 0.002 + rng() * 0.05),
      is_segment: false,
      status: "ok",
      attributes: {
        ...common,
        "sentry.op": attr(op),
        "sentry.origin": attr("auto.resource.browser.metrics"),
        "http.response_content_length": attr(Math.floor(rng() * 90000)),
      },
    };
  });
  const segment = {
    trace_id,
    span_id: root,
    name: page,
    start_timestamp: secs(start),
    end_timestamp: secs(t),
    is_segment: true,
    status: "ok",
    attributes: {
      ...common,
      "sentry.op": attr("pageload"),
      "sentry.origin": attr("auto.pageload.browser"),
      "browser.web_vital.ttfb.value": attr(120.5),
      "browser.web_vital.fcp.value": attr(412.3),
      "browser.web_vital.fp.value": attr(310.1),
    },
  };
  const lcp = {
    trace_id,
    span_id: hex(rng, 16),
    parent_span_id: root,
    name: "largest contentful paint",
    start_timestamp: secs(start + 1),
    end_timestamp: secs(start + 1),
    is_segment: false,
    status: "ok",
    attributes: { ...common, "sentry.op": attr("ui.webvital.lcp"), "browser.web_vital.lcp.value": attr(980.5 + Math.floor(rng() * 900)) },
  };
  const items = [...children, lcp, segment];
  return [
    { sent_at: new Date(t * 1000).toISOString(), sdk: JS_SDK, trace: { ...jsTrace(rng, key, page), sampled: "true" } },
    [
      [
        { type: "span", item_count: items.length, content_type: "application/vnd.sentry.items.span.v2+json" },
        { version: 2, ingest_settings: { infer_ip: "never", infer_user_agent: "never" }, items },
      ],
    ],
  ];
}

/** Browser `session` item (init on page load) or Python `sessions` aggregates (header {} and gzipped). */
export function session(rng, key, t, python) {
  if (python) {
    const minute = Math.floor(t / 60) * 60;
    const aggregates = Array.from({ length: 3 }, (_, i) => ({
      started: pyTime(minute - 60 * i).replace(/\.\d+Z$/, ".000000Z"),
      exited: 20 + Math.floor(rng() * 200),
      errored: Math.floor(rng() * 3),
    }));
    return [
      {},
      [
        [
          { type: "sessions", content_type: "application/json" },
          { attrs: { release: "shop@2.4.1", environment: "production" }, aggregates },
        ],
      ],
    ];
  }
  const iso = new Date(t * 1000).toISOString();
  return [
    { sent_at: iso, sdk: JS_SDK },
    [
      [
        { type: "session" },
        {
          sid: SID,
          init: true,
          started: iso,
          timestamp: iso,
          status: pick(rng, ["ok", "ok", "exited"]),
          errors: 0,
          duration: 0,
          attrs: { release: "web@3.2.0", environment: "production", user_agent: UA },
        },
      ],
    ],
  ];
}

/** Browser client report: discarded events counted by reason and category. */
export function clientReport(rng, key, t) {
  return [
    {},
    [
      [
        { type: "client_report" },
        {
          timestamp: secs(t),
          discarded_events: [
            { reason: "sample_rate", category: "transaction", quantity: 1 + Math.floor(rng() * 4) },
            ...(rng() < 0.3 ? [{ reason: "before_send", category: "error", quantity: 1 }] : []),
          ],
        },
      ],
    ],
  ];
}
