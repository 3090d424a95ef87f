// Databag trimming (relay-event-normalization trimming.rs `TrimmingProcessor`, with the bags relay-event-schema's
// protocol declares; digest/normalize/databags.ts). The first cases are Relay's own unit tests, the rest cover each
// bag Faultline trims, the notes left in `_meta`, and the shapes a hostile sender would use.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { normalizeEvent, type NormalizeContext } from "../../src/digest/normalize";
import { DATABAGS, MAX_CONTEXT_LINES } from "../../src/digest/normalize/limits";
import { effectiveScrubbing, DEFAULT_SCRUBBING_OPTIONS } from "../../src/scrub";

const ctx = (extra: Partial<NormalizeContext> = {}): NormalizeContext => ({
  receivedAt: 1_767_225_600_000,
  eventId: "52df9022835246eeb317dbd739ccd059",
  itemType: "event",
  ...extra,
});
const run = (input: Record<string, unknown>, extra: Partial<NormalizeContext> = {}) => normalizeEvent(input, ctx(extra)).event;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reading nested test output
const meta = (event: unknown) => (event as Json)._meta as Json;

describe("Relay's trimming.rs tests", () => {
  test("test_databag_array_stripping: 100 extra values of 50,000 characters keep 16 of 16,384 each", () => {
    const extra: Record<string, string> = {};
    for (let i = 0; i < 100; i++) extra[`key_${i}`] = "x".repeat(50_000);
    const event = run({ extra });
    const kept = Object.entries(event.extra);
    // Each value is its own bag of 16,384 bytes (ExtraValue); it costs the extra bag 16,387, whose 262,144 hold 16.
    assert.equal(kept.length, 16);
    for (const [, v] of kept) assert.equal(v, `${"x".repeat(16_381)}...`);
    assert.deepEqual(meta(event).extra[""], { len: 100 });
    assert.deepEqual(meta(event).extra.key_0[""], { rem: [["!limit", "s", 16_381, 16_384]], len: 50_000 });
  });

  test("test_extra_trimming_long_arrays: 200,000 numbers keep 8,192 (each costs two bytes of 16,384)", () => {
    const event = run({ extra: { foo: Array.from({ length: 200_000 }, () => 1) } });
    assert.equal((event.extra.foo as unknown[]).length, 8192);
    assert.deepEqual(meta(event).extra.foo[""], { len: 200_000 });
  });

  test("test_custom_context_trimming: a context is a bag of 8,192 bytes", () => {
    // Relay's objects are sorted maps, so "bar" comes first there; it is sent first here.
    const event = run({ contexts: { despacito1: { bar: "a".repeat(5000), foo: "a".repeat(4000) } } });
    const context = event.contexts!.despacito1!;
    assert.equal((context.bar as string).length, 5000);
    assert.equal((context.foo as string).length, 3189);
    assert.equal(context.type, "despacito1", "the context's type survives the cut");
  });

  test("test_databag_state_leak: many small bags change nothing", () => {
    const crumbs = Array.from({ length: 100 }, () => ({ data: { spamspamspam: "blablabla" } }));
    const frames = Array.from({ length: 200 }, () => ({ function: "importantFunctionName", symbol: "important_symbol", vars: { a: "b" } }));
    const event = run({ breadcrumbs: crumbs, exception: [{ type: "TypeError", value: "important error message", stacktrace: { frames } }] });
    assert.equal(event.breadcrumbs!.values.length, 100);
    for (const c of event.breadcrumbs!.values) assert.deepEqual(c.data, { spamspamspam: "blablabla" });
    const kept = (event.exception!.values[0]!.stacktrace as Json).frames as Json[];
    assert.equal(kept.length, 200);
    assert.equal(meta(event), undefined, "nothing was cut, so nothing is noted");
  });

  test("test_databag_stripping: extra deeper than 7 levels turns its last level into JSON text", () => {
    const nest = (d: number): unknown => (d === 0 ? "max depth" : { [`key${d}`]: nest(d - 1) });
    const event = run({ extra: { key_2: nest(8) } });
    assert.deepEqual(event.extra.key_2, { key8: { key7: { key6: { key5: { key4: '{"key3":{"key2":{"key1":"max depth"}}}' } } } } });
  });
});

describe("each bag", () => {
  test("breadcrumb data: 2,048 bytes and 5 levels; the kept crumbs' notes are at their kept index", () => {
    const crumbs = Array.from({ length: 150 }, (_, i) => ({ message: `m${i}`, data: i === 149 ? { big: "y".repeat(5000), after: 1 } : { i } }));
    const event = run({ breadcrumbs: { values: crumbs } });
    const last = event.breadcrumbs!.values[99]!;
    assert.equal(last.message, "m149");
    assert.equal(last.data, undefined === last.data ? undefined : last.data);
    assert.equal((last.data as Json).big, `${"y".repeat(DATABAGS.breadcrumbData.maxBytes - 3)}...`);
    assert.equal((last.data as Json).after, undefined, "nothing is left for the key after the cut string");
    assert.deepEqual(meta(event).breadcrumbs.values["99"].data[""], { len: 2 });
    assert.ok(meta(event).breadcrumbs.values["99"].data.big[""].rem);
    const deep = run({ breadcrumbs: [{ data: { a: { b: { c: { d: { e: 1 } } } } } }] });
    assert.deepEqual(deep.breadcrumbs!.values[0]!.data, { a: { b: { c: { d: '{"e":1}' } } } });
  });

  test("request: headers large, cookies medium, query string small, body large", () => {
    const headers = Array.from({ length: 2000 }, (_, i) => [`X-Header-${i}`, "v".repeat(20)]);
    const event = run({
      request: {
        url: "https://example.com/",
        headers,
        cookies: Array.from({ length: 500 }, (_, i) => [`c${i}`, "v".repeat(10)]),
        query_string: Array.from({ length: 500 }, (_, i) => [`q${i}`, "1"]),
        data: { text: "d".repeat(20_000) },
      },
    });
    const r = event.request as Json;
    // A pair costs its brackets and two strings: ["X-Header-N", "v"×20] is 3 + (12 to 15 + 3) + 23 bytes of 8,192.
    assert.ok(r.headers.length > 180 && r.headers.length <= 215, String(r.headers.length));
    // ["cN", "v"×10]: 3 + 5 to 7 + 13 bytes of 2,048; ["qN", "1"]: 3 + 5 to 7 + 4 bytes of 1,024.
    assert.ok(r.cookies.length > 80 && r.cookies.length <= 100, String(r.cookies.length));
    assert.ok(r.query_string.length > 70 && r.query_string.length <= 85, String(r.query_string.length));
    // The body's object is charged its brackets after its keys: the string has the whole 8,192 to be cut to.
    assert.equal(r.data.text, `${"d".repeat(DATABAGS.request.data!.maxBytes - 3)}...`);
    assert.deepEqual(meta(event).request.headers[""], { len: 2000 });
    assert.deepEqual(meta(event).request.cookies[""], { len: 500 });
  });

  test("frame vars: 2,048 bytes; source context: the nearest lines, the count noted", () => {
    const vars: Record<string, number> = {};
    for (let i = 0; i < 5000; i++) vars[`v${i}`] = i;
    const pre = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
    const event = run({
      exception: { values: [{ type: "E", stacktrace: { frames: [{ function: "f", vars, pre_context: pre, context_line: "x", post_context: pre }] } }] },
    });
    const frame = ((event.exception!.values[0]!.stacktrace as Json).frames as Json[])[0]!;
    // A number costs its digits and one: 2,048 bytes hold 10 one-digit, 90 two-digit and 3-digit ones after.
    assert.ok(Object.keys(frame.vars).length > 400 && Object.keys(frame.vars).length < 600, String(Object.keys(frame.vars).length));
    assert.equal(frame.pre_context.length, MAX_CONTEXT_LINES);
    assert.equal(frame.pre_context[MAX_CONTEXT_LINES - 1], "line 999", "pre_context keeps the lines just above");
    assert.equal(frame.post_context[0], "line 0", "post_context keeps the lines just below");
    const m = meta(event).exception.values["0"].stacktrace.frames["0"];
    assert.deepEqual(m.pre_context[""], { len: 1000 });
    assert.deepEqual(m.vars[""], { len: 5000 });
  });

  test("a megabyte of [0,0,…] source context stores 50 nulls, not a megabyte of them", () => {
    const zeros = Array.from({ length: 500_000 }, () => 0);
    const event = run({ exception: [{ type: "E", stacktrace: { frames: [{ function: "f", pre_context: zeros }] } }] });
    const frame = ((event.exception!.values[0]!.stacktrace as Json).frames as Json[])[0]!;
    assert.equal(frame.pre_context.length, MAX_CONTEXT_LINES);
    assert.ok(JSON.stringify(event).length < 50_000);
  });

  test("mechanism data, logentry params and modules", () => {
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, "value"]));
    const event = run({
      exception: [{ type: "E", mechanism: { type: "generic", data: many } }],
      logentry: { message: "%s", params: Array.from({ length: 5000 }, () => "p") },
      modules: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`mod${i}`, "1.0.0"])),
    });
    // "value" costs 8 bytes of 2,048; "p" 4 of 2,048; "1.0.0" 8 of 8,192.
    assert.equal(Object.keys((event.exception!.values[0]!.mechanism as Json).data).length, 256);
    assert.equal((event.logentry!.params as unknown[]).length, 512);
    assert.equal(Object.keys(event.modules as Json).length, 1024);
  });

  test("spans: 819,200 bytes in all", () => {
    const spans = Array.from({ length: 3000 }, (_, i) => ({
      span_id: i.toString(16).padStart(16, "0"),
      trace_id: "a".repeat(32),
      start_timestamp: 1_767_225_500,
      timestamp: 1_767_225_501,
      description: "s".repeat(400),
    }));
    const event = run({ type: "transaction", transaction: "/", start_timestamp: 1_767_225_500, timestamp: 1_767_225_501, spans }, { itemType: "transaction" });
    const kept = (event as Json).spans as unknown[];
    assert.ok(kept.length > 1000 && kept.length < 3000, String(kept.length));
    assert.deepEqual(meta(event).spans[""], { len: 3000 });
    // Under the limit, a payload's size alone says no span can be cut: they are not walked.
    const small = run({ type: "transaction", spans: spans.slice(0, 10) }, { itemType: "transaction", payloadBytes: 10_000 });
    assert.equal(((small as Json).spans as unknown[]).length, 10);
  });
});

describe("hostile shapes", () => {
  test("43,000 password-like keys: bounded keys, bounded scrubbing notes", () => {
    const extra = Object.fromEntries(Array.from({ length: 43_000 }, (_, i) => [`password_${i}`, "hunter2"]));
    const event = run({ extra });
    // Each value is one small bag: "hunter2" costs 10 bytes of the extra bag's 262,144.
    assert.ok(Object.keys(event.extra).length <= 262_144 / 10 + 1);
    effectiveScrubbing(DEFAULT_SCRUBBING_OPTIONS, DEFAULT_SCRUBBING_OPTIONS).scrubEvent(event);
    assert.ok(Object.values(event.extra).every((v) => v === "[Filtered]"));
    assert.ok(JSON.stringify(meta(event)).length < 2_000_000, String(JSON.stringify(meta(event)).length));
  });

  test("keys named like Object.prototype's own are data, in bags and in cuts", () => {
    const extra = JSON.parse(`{"__proto__": {"x": "${"z".repeat(20_000)}"}, "constructor": 1, "toString": "a"}`) as Record<string, unknown>;
    const event = run({ extra, contexts: { constructor: { a: 1 }, __proto__x: { b: 2 } } });
    assert.ok(Object.hasOwn(event.extra, "__proto__"));
    assert.equal(event.extra.constructor, 1);
    assert.equal(Object.getPrototypeOf(event.extra), Object.prototype);
    assert.deepEqual(event.contexts!.constructor, { a: 1, type: "constructor" });
  });

  test("trimmed output normalizes to itself", () => {
    const extra: Record<string, string> = {};
    for (let i = 0; i < 40; i++) extra[`key_${i}`] = "é".repeat(20_000);
    const once = run({
      extra,
      breadcrumbs: [{ data: { a: "ü".repeat(3000), b: 2 } }],
      request: { headers: Array.from({ length: 900 }, (_, i) => [`h${i}`, "x".repeat(30)]) },
    });
    const twice = normalizeEvent(JSON.parse(JSON.stringify(once)), ctx()).event;
    const strip = (e: Json) => ({ ...e, errors: [] });
    assert.deepEqual(strip(twice), strip(once));
  });
});

describe("found in review", () => {
  test("a key named __proto__ on a cut path is noted as an own key, and Object.prototype is left alone", () => {
    const input = JSON.parse(
      `{"extra":{"__proto__":{"isAdmin":"${"z".repeat(20_000)}"}},"breadcrumbs":[{"data":{"__proto__":"${"y".repeat(5000)}"}}],"contexts":{"__proto__":{"a":"${"x".repeat(9000)}"}}}`,
    ) as Record<string, unknown>;
    const event = run(input);
    assert.equal(Object.getOwnPropertyNames(Object.prototype).includes("isAdmin"), false);
    assert.equal(Object.getOwnPropertyNames(Object.prototype).includes(""), false);
    const m = meta(event);
    assert.ok(Object.hasOwn(m.extra, "__proto__") && Object.hasOwn(m.extra.__proto__, "isAdmin"));
    assert.equal(m.extra.__proto__.isAdmin[""].len, 20_000);
    assert.ok(Object.hasOwn(m.breadcrumbs.values["0"].data, "__proto__"));
    assert.ok(Object.hasOwn(m.contexts, "__proto__"));
  });

  test("a context's type is never cut or charged", () => {
    const os = run({ contexts: { os: { name: "Linux", note: "x".repeat(8180) } } }).contexts!.os!;
    assert.equal(os.type, "os");
    const response = run({ contexts: { response: { a: "x".repeat(8183), type: "response" } } });
    assert.equal(response.contexts!.response!.type, "response");
    assert.equal(meta(response), undefined, "the type is not charged: the rest fits, nothing is cut");
  });

  test("normalizing trimmed output again notes nothing twice", () => {
    let event: Json = run({ breadcrumbs: [{ data: { a: "x".repeat(2044), b: "hello" } }] });
    const first = JSON.stringify(meta(event));
    for (let i = 0; i < 3; i++) event = normalizeEvent(JSON.parse(JSON.stringify(event)), ctx()).event;
    assert.equal(JSON.stringify(meta(event)), first);
  });

  test("a pair list whose first key does not fit is removed, and stays removed", () => {
    const once = run({ request: { url: "https://x/", query_string: [["k".repeat(1013), "v"]] } });
    assert.equal((once.request as Json).query_string, undefined);
    assert.deepEqual(meta(once).request.query_string[""], { len: 1 });
    const twice = normalizeEvent(JSON.parse(JSON.stringify(once)), ctx()).event;
    assert.deepEqual(twice.request, once.request);
  });

  test("spans of numbers printed longer than they were sent are walked: the payload's size is no bound for them", () => {
    const spans = Array.from({ length: 156 }, (_, i) => ({ span_id: i.toString(16).padStart(16, "0"), data: { v: Array.from({ length: 1000 }, () => 1e20) } }));
    // As an SDK may write them: "1e20", which JavaScript prints with 21 digits.
    const payload = JSON.stringify({ type: "transaction", spans }).replaceAll("100000000000000000000", "1e20");
    assert.ok(payload.length < DATABAGS.spans.maxBytes, String(payload.length));
    const event = run(JSON.parse(payload) as Json, { itemType: "transaction", payloadBytes: payload.length });
    assert.ok(((event as Json).spans as unknown[]).length < 60, String(((event as Json).spans as unknown[]).length));
  });

  test("a lone surrogate costs the three bytes it is stored as, in short strings as in long ones", () => {
    // 700 lone surrogates in short strings cost 3 + 2 + 1 bytes each: the 2,048 of a breadcrumb's data keep 342 (the last
    // one taken while 2 bytes are left).
    const data = Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`k${i}`, "\ud800"]));
    const event = run({ breadcrumbs: [{ data }] });
    const kept = Object.keys(event.breadcrumbs!.values[0]!.data as Json).length;
    assert.equal(kept, Math.ceil(DATABAGS.breadcrumbData.maxBytes / 6));
  });
});
