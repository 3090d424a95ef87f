// Event shapes as the real SDKs send them: @sentry/browser 11.5.0 (errors, pageload transactions, sessions, client
// reports) and Debian's sentry-python 1.9.10 (Django errors for /store/, transactions, session aggregates).
// Ids that must be fresh per request are written as the placeholders EID (event_id) and SID (session id);
// mix.mjs replaces them on every send. `rng` is a seeded PRNG so the pool is the same on every run.

export const EID = "e".repeat(31) + "X"; // 32 chars, never produced by real data; replaced per request
export const SID = "5".repeat(31) + "X";
const JS_SDK = { name: "sentry.javascript.browser", version: "11.5.0" };
const PY_SDK = {
  name: "sentry.python",
  version: "1.9.10",
  packages: [{ name: "pypi:sentry-sdk", version: "1.9.10" }],
  integrations: ["argv", "atexit", "dedupe", "django", "excepthook", "logging", "modules", "stdlib", "threading"],
};
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PAGES = ["/checkout", "/products/:id", "/cart", "/account/orders", "/search", "/", "/blog/:slug", "/settings/billing"];
const JS_ERRORS = [
  ["TypeError", "Cannot read properties of undefined (reading 'id')"],
  ["TypeError", "e.map is not a function"],
  ["ReferenceError", "gtag is not defined"],
  ["Error", "Request failed with status code 502"],
  ["SyntaxError", "Unexpected token '<', \"<!DOCTYPE \"... is not valid JSON"],
  ["RangeError", "Maximum call stack size exceeded"],
  ["ChunkLoadError", "Loading chunk 731 failed."],
  ["Error", "Minified React error #418"],
];
const PY_ERRORS = [
  ["ZeroDivisionError", "division by zero"],
  ["KeyError", "'customer_id'"],
  ["ValueError", "invalid literal for int() with base 10: 'abc'"],
  ["IntegrityError", 'duplicate key value violates unique constraint "orders_pkey"'],
  ["AttributeError", "'NoneType' object has no attribute 'email'"],
  ["TimeoutError", "timed out waiting for lock on invoices"],
];
const WORDS = "order invoice customer cart item price total amount coupon tax shipping address user account token session".split(" ");

export const hex = (rng, n) => {
  let s = "";
  while (s.length < n)
    s += Math.floor(rng() * 0x100000000)
      .toString(16)
      .padStart(8, "0");
  return s.slice(0, n);
};
const pick = (rng, a) => a[Math.floor(rng() * a.length)];
const secs = (t) => Math.round(t * 1000) / 1000; // float seconds with ms precision, as JS timestampInSeconds
const pyTime = (t) => new Date(t * 1000).toISOString().replace("Z", "") + "123Z"; // %Y-%m-%dT%H:%M:%S.%fZ

function jsTrace(rng, key, page) {
  return {
    environment: "production",
    release: "web@3.2.0",
    public_key: key,
    trace_id: hex(rng, 32),
    sample_rate: "0.2",
    transaction: page,
    sampled: "false",
    sample_rand: String(rng().toFixed(6)),
  };
}
function jsFrames(rng, n) {
  const frames = [];
  for (let i = 0; i < n; i++) {
    const vendor = i < n / 2;
    frames.push({
      filename: `https://shop.example.com/_next/static/chunks/${vendor ? "framework" : "pages/app"}-${hex(rng, 16)}.js`,
      function: vendor
        ? pick(rng, ["commitRoot", "performSyncWorkOnRoot", "flushSyncCallbacks", "dispatchEvent", "batchedUpdates$1"])
        : `${pick(rng, WORDS)}${pick(rng, ["Handler", "Submit", "Render", "Load"])}`,
      in_app: !vendor,
      lineno: 1,
      colno: 1000 + Math.floor(rng() * 90000),
    });
  }
  return frames;
}
function breadcrumbsJs(rng, t, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const ts = secs(t - (n - i) * 1.7);
    out.push(
      i % 3 === 0
        ? { timestamp: ts, category: "ui.click", message: `button.btn-primary[data-testid="${pick(rng, WORDS)}-submit"]` }
        : i % 3 === 1
          ? {
              timestamp: ts,
              category: "fetch",
              type: "http",
              data: { method: "GET", url: `/api/${pick(rng, WORDS)}s?page=${i}`, status_code: 200, __span: hex(rng, 16) },
            }
          : { timestamp: ts, category: "navigation", data: { from: pick(rng, PAGES), to: pick(rng, PAGES) } },
    );
  }
  return out;
}

/** Browser JS error event (~5 KB): envelope text to /envelope/. */
export function browserError(rng, key, t) {
  const page = pick(rng, PAGES),
    [type, value] = pick(rng, JS_ERRORS),
    trace = jsTrace(rng, key, page);
  const event = {
    exception: {
      values: [{ type, value, stacktrace: { frames: jsFrames(rng, 12) }, mechanism: { type: "auto.browser.global_handlers.onerror", handled: false } }],
    },
    level: "error",
    event_id: EID,
    platform: "javascript",
    request: {
      url: `https://shop.example.com${page.replace(":id", "8812").replace(":slug", "spring-sale")}`,
      headers: { "User-Agent": UA, Referer: "https://shop.example.com/" },
    },
    timestamp: secs(t),
    environment: "production",
    release: "web@3.2.0",
    sdk: {
      integrations: [
        "InboundFilters",
        "FunctionToString",
        "BrowserApiErrors",
        "Breadcrumbs",
        "GlobalHandlers",
        "LinkedErrors",
        "Dedupe",
        "HttpContext",
        "BrowserSession",
        "BrowserTracing",
      ],
      name: JS_SDK.name,
      version: JS_SDK.version,
      packages: [{ name: "npm:@sentry/browser", version: "11.5.0" }],
      settings: { infer_ip: "never" },
    },
    user: { id: String(Math.floor(rng() * 100000)), email: `${pick(rng, WORDS)}${Math.floor(rng() * 999)}@example.com` },
    tags: { locale: "en-US", plan: pick(rng, ["free", "pro", "team"]) },
    contexts: { trace: { trace_id: trace.trace_id, span_id: hex(rng, 16) } },
    transaction: page,
    breadcrumbs: breadcrumbsJs(rng, t, 16),
  };
  return [{ event_id: EID, sent_at: new Date(t * 1000).toISOString(), sdk: JS_SDK, trace }, [[{ type: "event" }, event]]];
}

/**
 * A browser error with a 200 KB screenshot attachment (issue 19: 2 % of envelopes), as @sentry/browser sends a hint or
 * scope attachment: an `attachment` item with its length. The bytes stand in for a PNG: random base64 text, as little
 * compressible as an image once gzipped, and text so the pool's templates keep it byte for byte.
 */
export function browserErrorWithScreenshot(rng, key, t) {
  const [headers, items] = browserError(rng, key, t);
  let data = "";
  while (data.length < 200 * 1024) data += Buffer.from(Array.from({ length: 3072 }, () => Math.floor(rng() * 256))).toString("base64");
  return [
    headers,
    [
      ...items,
      [{ type: "attachment", filename: "screenshot.png", content_type: "image/png", attachment_type: "event.attachment" }, { raw: data.slice(0, 200 * 1024) }],
    ],
  ];
}

function pyFrames(rng, n) {
  const frames = [];
  for (let i = 0; i < n; i++) {
    const app = i >= n - 3,
      mod = app
        ? `shop.${pick(rng, ["billing", "orders", "api"])}.${pick(rng, ["views", "services", "models"])}`
        : pick(rng, ["django.core.handlers.exception", "django.core.handlers.base", "django.views.generic.base"]);
    const lines = (k) =>
      Array.from(
        { length: k },
        () => `        ${pick(rng, WORDS)} = self.${pick(rng, WORDS)}_${pick(rng, WORDS)}(${pick(rng, WORDS)}, ${pick(rng, WORDS)}=${Math.floor(rng() * 100)})`,
      );
    frames.push({
      filename: mod.replaceAll(".", "/") + ".py",
      abs_path: `/srv/shop/${app ? "" : "venv/lib/python3.11/site-packages/"}${mod.replaceAll(".", "/")}.py`,
      function: app ? `${pick(rng, ["charge", "create", "refund", "sync"])}_${pick(rng, WORDS)}` : pick(rng, ["inner", "_get_response", "view", "dispatch"]),
      module: mod,
      lineno: 20 + Math.floor(rng() * 400),
      pre_context: lines(5),
      context_line: `        return ${pick(rng, WORDS)}.total / ${pick(rng, WORDS)}.count`,
      post_context: lines(5),
      vars: {
        self: `<${pick(rng, ["Order", "Invoice", "Customer"])}View object at 0x7f${hex(rng, 10)}>`,
        request: "<WSGIRequest: POST '/api/orders/'>",
        [pick(rng, WORDS)]: `'${hex(rng, 12)}'`,
        [pick(rng, WORDS) + "_id"]: String(Math.floor(rng() * 1e6)),
        kwargs: { pk: `'${Math.floor(rng() * 9999)}'` },
      },
      in_app: app,
    });
  }
  return frames;
}

/** sentry-python 1.9 Django error: plain JSON for /store/ (the caller gzips it). */
export function pythonError(rng, key, t) {
  const [type, value] = pick(rng, PY_ERRORS);
  return {
    level: "error",
    exception: {
      values: [
        {
          module: type === "IntegrityError" ? "django.db.utils" : null,
          type,
          value,
          mechanism: { type: "django", handled: false },
          stacktrace: { frames: pyFrames(rng, 8) },
        },
      ],
    },
    event_id: EID,
    timestamp: pyTime(t),
    breadcrumbs: {
      values: Array.from({ length: 6 }, (_, i) => ({
        ty: "log",
        level: "info",
        category: "django.db.backends",
        message: `SELECT "shop_${pick(rng, WORDS)}"."id" FROM "shop_${pick(rng, WORDS)}" WHERE "id" = %s`,
        timestamp: pyTime(t - 6 + i),
        data: {},
        type: "default",
      })),
    },
    transaction: `/api/${pick(rng, WORDS)}s/{pk}/`,
    transaction_info: { source: "route" },
    contexts: { runtime: { name: "CPython", version: "3.11.2", build: "3.11.2 (main, Apr 28 2025, 14:11:48) [GCC 12.2.0]" } },
    modules: {
      django: "4.1.13",
      "sentry-sdk": "1.9.10",
      psycopg2: "2.9.5",
      celery: "5.2.6",
      redis: "4.3.4",
      requests: "2.28.1",
      urllib3: "1.26.12",
      certifi: "2022.9.24",
      pytz: "2022.7.1",
      sqlparse: "0.4.2",
    },
    extra: { "sys.argv": ["/srv/shop/venv/bin/gunicorn", "shop.wsgi", "-w", "4"] },
    request: {
      url: "https://api.shop.example.com/api/orders/",
      query_string: `page=${Math.floor(rng() * 9)}`,
      method: "POST",
      env: { SERVER_NAME: "web-3", SERVER_PORT: "8000" },
      headers: { Host: "api.shop.example.com", "Content-Type": "application/json", "User-Agent": "python-requests/2.28.1", Accept: "*/*" },
      data: { amount: "[Filtered]", currency: "EUR" },
    },
    release: "shop@2.4.1",
    environment: "production",
    server_name: "web-3",
    sdk: PY_SDK,
    platform: "python",
  };
}

/** A transaction with `nSpans` spans: browser pageload (plain) or Python Django request (gzipped by the caller). */
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

const NODE_SDK = { name: "sentry.javascript.node", version: "11.5.0" };
const LOG_LINES = [
  ["info", "order %s placed by customer %s"],
  ["info", "cache hit for %s"],
  ["debug", "query took %s ms"],
  ["warn", "retrying payment for order %s"],
  ["error", "payment provider answered %s"],
  ["info", "user %s signed in"],
  ["warn", "slow response from inventory: %s ms"],
  ["info", "sent invoice %s"],
];

/** A Node server's `log` item (@sentry/node 11 with enableLogs): 5 to 25 lines of one request, with the SDK's attributes. */
export function logBatch(rng, key, t) {
  const traceId = hex(rng, 32),
    spanId = hex(rng, 16),
    n = 5 + Math.floor(rng() * 21);
  const items = Array.from({ length: n }, (_, i) => {
    const [level, template] = pick(rng, LOG_LINES),
      a = String(1000 + Math.floor(rng() * 9000)),
      b = pick(rng, WORDS);
    return {
      timestamp: t - (n - i) * 0.01,
      level,
      body: template.replace("%s", a).replace("%s", b),
      trace_id: traceId,
      severity_number: { debug: 5, info: 9, warn: 13, error: 17 }[level],
      attributes: {
        "sentry.release": { value: "api@5.1.0", type: "string" },
        "sentry.environment": { value: "production", type: "string" },
        "sentry.sdk.name": { value: NODE_SDK.name, type: "string" },
        "sentry.sdk.version": { value: NODE_SDK.version, type: "string" },
        "sentry.message.template": { value: template, type: "string" },
        "sentry.message.parameter.0": { value: a, type: "string" },
        "sentry.message.parameter.1": { value: b, type: "string" },
        "sentry.trace.parent_span_id": { value: spanId, type: "string" },
        "user.id": { value: String(Math.floor(rng() * 500)), type: "string" },
        "http.route": { value: pick(rng, PAGES), type: "string" },
      },
    };
  });
  return [
    { sdk: NODE_SDK },
    [
      [
        { type: "log", item_count: n, content_type: "application/vnd.sentry.items.log+json" },
        { version: 2, items },
      ],
    ],
  ];
}

/** A cron check-in as @sentry/node's withMonitor sends it (check_in item with the monitor's config); a fresh id per send. */
export function checkIn(rng) {
  const slug = pick(rng, ["nightly-report", "sync-inventory", "send-digests", "cleanup-sessions"]);
  return [
    { sdk: NODE_SDK },
    [
      [
        { type: "check_in" },
        {
          check_in_id: SID,
          monitor_slug: slug,
          status: pick(rng, ["ok", "ok", "ok", "error"]),
          duration: Math.round(rng() * 3000) / 100,
          environment: "production",
          release: "api@5.1.0",
          monitor_config: { schedule: { type: "crontab", value: "*/5 * * * *" }, checkin_margin: 2, max_runtime: 10, timezone: "UTC" },
        },
      ],
    ],
  ];
}
