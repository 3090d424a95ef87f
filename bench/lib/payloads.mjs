// Event shapes as the real SDKs send them: @sentry/browser 11.5.0 (errors, pageload transactions, sessions, client
// reports) and Debian's sentry-python 1.9.10 (Django errors for /store/, transactions, session aggregates).
// Ids that must be fresh per request are written as the placeholders EID (event_id) and SID (session id);
// mix.mjs replaces them on every send. `rng` is a seeded PRNG so the pool is the same on every run.

import { EID, JS_SDK, PY_SDK, UA, PAGES, JS_ERRORS, PY_ERRORS, WORDS, hex, pick, secs, pyTime, jsTrace } from "./payloads-common.mjs";

export { EID, SID, hex } from "./payloads-common.mjs";
export { clientReport, session, streamedSpans, transaction } from "./payloads-tracing.mjs";
export { checkIn, logBatch } from "./payloads-node.mjs";

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
