// A typical @sentry/browser 11.5.0 error event (~5 KB as sent): an unhandled error in a Next.js shop, caught by the
// GlobalHandlers integration, with an 18-frame stack across the bundle's chunks, 10 breadcrumbs (clicks, fetches,
// navigations, console), the request, the trace context, a user and two tags, in the shape the SDK's event builder
// and `eventFromError` give it. Events of the same error share their stack, as in real traffic; ids, times, the user
// and the breadcrumbs vary. `rng` is a seeded PRNG (mix.mjs `prng`), so a seed always gives the same events.

const SDK = {
  name: "sentry.javascript.browser",
  version: "11.5.0",
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
  packages: [{ name: "npm:@sentry/browser", version: "11.5.0" }],
  settings: { infer_ip: "never" },
};
const ORIGIN = "https://shop.example.com";
const CHUNKS = {
  framework: `${ORIGIN}/_next/static/chunks/framework-2c79e2a64abdb08b.js`,
  main: `${ORIGIN}/_next/static/chunks/main-e0f1a6bd2a4c3f13.js`,
  app: `${ORIGIN}/_next/static/chunks/pages/_app-8f2b1d3c9e7a6b54.js`,
  page: `${ORIGIN}/_next/static/chunks/pages/checkout-5b7c0f3e2d1a9c84.js`,
  vendor: `${ORIGIN}/_next/static/chunks/1789-4f0c2d7e8a9b3c61.js`,
};
const UAS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
];
const ERRORS = [
  ["TypeError", "Cannot read properties of undefined (reading 'price')", "calculateTotals"],
  ["TypeError", "items.map is not a function", "CartSummary"],
  ["ReferenceError", "gtag is not defined", "trackCheckout"],
  ["Error", "Request failed with status code 502", "submitOrder"],
  ["SyntaxError", "Unexpected token '<', \"<!DOCTYPE \"... is not valid JSON", "loadShippingRates"],
  ["RangeError", "Invalid time value", "formatDeliveryDate"],
];
const WORDS = "order invoice customer cart item price total amount coupon tax shipping address account session".split(" ");
const PAGES = ["/checkout", "/cart", "/products/8812", "/account/orders", "/search?q=lamp", "/"];

const pick = (rng, a) => a[Math.floor(rng() * a.length)];
const hex = (rng, n) => {
  let s = "";
  while (s.length < n)
    s += Math.floor(rng() * 0x100000000)
      .toString(16)
      .padStart(8, "0");
  return s.slice(0, n);
};
const secs = (t) => Math.round(t * 1000) / 1000;

/** The stack of one error kind: the same frames (outermost first, as Sentry stores them) every time it happens. */
function frames(kind) {
  const [, , fn] = ERRORS[kind];
  const f = (file, func, colno, inApp = false) => ({ filename: CHUNKS[file], function: func, in_app: inApp, lineno: 1, colno });
  return [
    f("framework", "HTMLUnknownElement.callCallback", 12853 + kind),
    f("framework", "Object.invokeGuardedCallbackDev", 12902),
    f("framework", "invokeGuardedCallback", 12961),
    f("framework", "invokeGuardedCallbackAndCatchFirstError", 12975),
    f("framework", "executeDispatch", 16634),
    f("framework", "processDispatchQueueItemsInOrder", 16660),
    f("framework", "processDispatchQueue", 16673),
    f("framework", "dispatchEventsForPlugins", 16684),
    f("framework", "batchedUpdates$1", 27891),
    f("main", "sentryWrapped", 4721),
    f("vendor", "dispatch", 40712),
    f("vendor", "Object.next", 38129),
    f("app", "handleSubmit", 22418 + 17 * kind, true),
    f("app", "useCheckout.submit", 19305, true),
    f("page", "CheckoutPage.onPay", 5810, true),
    f("page", "placeOrder", 6233, true),
    f("page", "validateCart", 7140 + kind, true),
    f("page", fn, 7702 + 31 * kind, true),
  ];
}

function breadcrumbs(rng, t, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const ts = secs(t - (n - i) * (0.4 + rng() * 2));
    const word = pick(rng, WORDS);
    switch (i % 4) {
      case 0:
        out.push({ timestamp: ts, category: "ui.click", message: `button.btn-primary[data-testid="${word}-submit"]` });
        break;
      case 1:
        out.push({
          timestamp: ts,
          category: "fetch",
          type: "http",
          data: { method: pick(rng, ["GET", "POST"]), url: `/api/${word}s?page=${i}`, status_code: pick(rng, [200, 200, 200, 304, 502]), __span: hex(rng, 16) },
        });
        break;
      case 2:
        out.push({ timestamp: ts, category: "navigation", data: { from: pick(rng, PAGES), to: pick(rng, PAGES) } });
        break;
      default:
        out.push({
          timestamp: ts,
          category: "console",
          level: "warning",
          message: `[${word}] stale ${word} data, refetching`,
          data: { arguments: [`[${word}] stale ${word} data, refetching`], logger: "console" },
        });
    }
  }
  return out;
}

/** One event as @sentry/browser sends it in an envelope's event item: a JSON-ready object. */
export function browserErrorEvent(rng, t) {
  const kind = Math.floor(rng() * ERRORS.length);
  const [type, value] = ERRORS[kind];
  const page = pick(rng, PAGES);
  return {
    exception: { values: [{ type, value, stacktrace: { frames: frames(kind) }, mechanism: { type: "auto.browser.global_handlers.onerror", handled: false } }] },
    level: "error",
    event_id: hex(rng, 32),
    platform: "javascript",
    request: { url: `${ORIGIN}${page}`, headers: { "User-Agent": pick(rng, UAS), Referer: `${ORIGIN}/cart` } },
    timestamp: secs(t),
    environment: "production",
    release: "shop-web@4.18.2",
    sdk: SDK,
    user: { id: String(10000 + Math.floor(rng() * 90000)), email: `${pick(rng, WORDS)}.${Math.floor(rng() * 999)}@example.com` },
    tags: { locale: pick(rng, ["en-US", "de-DE", "fr-FR"]), plan: pick(rng, ["free", "pro", "team"]) },
    contexts: { trace: { trace_id: hex(rng, 32), span_id: hex(rng, 16) } },
    transaction: page.split("?")[0],
    breadcrumbs: breadcrumbs(rng, t, 10),
  };
}
