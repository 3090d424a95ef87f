// The pieces bench:ingest's SDK payloads share (payloads.mjs): placeholders for fresh ids, the SDKs' names, pages,
// error kinds, and the seeded helpers.

export const EID = "e".repeat(31) + "X"; // 32 chars, never produced by real data; replaced per request
export const SID = "5".repeat(31) + "X";
export const JS_SDK = { name: "sentry.javascript.browser", version: "11.5.0" };
export const PY_SDK = {
  name: "sentry.python",
  version: "1.9.10",
  packages: [{ name: "pypi:sentry-sdk", version: "1.9.10" }],
  integrations: ["argv", "atexit", "dedupe", "django", "excepthook", "logging", "modules", "stdlib", "threading"],
};
export const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
export const PAGES = ["/checkout", "/products/:id", "/cart", "/account/orders", "/search", "/", "/blog/:slug", "/settings/billing"];
export const JS_ERRORS = [
  ["TypeError", "Cannot read properties of undefined (reading 'id')"],
  ["TypeError", "e.map is not a function"],
  ["ReferenceError", "gtag is not defined"],
  ["Error", "Request failed with status code 502"],
  ["SyntaxError", "Unexpected token '<', \"<!DOCTYPE \"... is not valid JSON"],
  ["RangeError", "Maximum call stack size exceeded"],
  ["ChunkLoadError", "Loading chunk 731 failed."],
  ["Error", "Minified React error #418"],
];
export const PY_ERRORS = [
  ["ZeroDivisionError", "division by zero"],
  ["KeyError", "'customer_id'"],
  ["ValueError", "invalid literal for int() with base 10: 'abc'"],
  ["IntegrityError", 'duplicate key value violates unique constraint "orders_pkey"'],
  ["AttributeError", "'NoneType' object has no attribute 'email'"],
  ["TimeoutError", "timed out waiting for lock on invoices"],
];
export const WORDS = "order invoice customer cart item price total amount coupon tax shipping address user account token session".split(" ");

export const hex = (rng, n) => {
  let s = "";
  while (s.length < n)
    s += Math.floor(rng() * 0x100000000)
      .toString(16)
      .padStart(8, "0");
  return s.slice(0, n);
};
export const pick = (rng, a) => a[Math.floor(rng() * a.length)];
export const secs = (t) => Math.round(t * 1000) / 1000; // float seconds with ms precision, as JS timestampInSeconds
export const pyTime = (t) => new Date(t * 1000).toISOString().replace("Z", "") + "123Z"; // %Y-%m-%dT%H:%M:%S.%fZ

export function jsTrace(rng, key, page) {
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
