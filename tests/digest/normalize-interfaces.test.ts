// Event normalization of the interfaces: message/logentry, exceptions, frames, user and IP backfill, request,
// contexts and breadcrumbs. Cases come from Relay's own unit tests where it has them.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { normalizeEvent, type NormalizeContext } from "../../src/digest/normalize";
import { formatMessage } from "../../src/digest/normalize/logentry";
import { fixFramePaths } from "../../src/digest/normalize/stacktrace";

const RECEIVED = 1_767_225_600;
const ctx = (extra: Partial<NormalizeContext> = {}): NormalizeContext => ({
  receivedAt: RECEIVED * 1000,
  eventId: "52df9022835246eeb317dbd739ccd059",
  itemType: "event",
  ...extra,
});
const run = (input: unknown, extra: Partial<NormalizeContext> = {}) => normalizeEvent(input, ctx(extra));
const types = (errors: { type: string; name: string }[]) => errors.map((e) => `${e.type}:${e.name}`);

describe("logentry (logentry.rs tests)", () => {
  test("format_message: python, named, java, dotnet", () => {
    assert.equal(formatMessage("hello, %s!", ["world"]), "hello, world!");
    assert.equal(formatMessage("hello, %(name)s!", { name: "world" }), "hello, world!");
    assert.equal(formatMessage("hello, {}!", ["world"]), "hello, world!");
    assert.equal(formatMessage("hello, {0}!", ["world"]), "hello, world!");
    assert.equal(formatMessage("%d%% of %s", [50.7, "x"]), "50% of x");
    assert.equal(formatMessage("hello, %s %s!", ["one"]), undefined);
    assert.equal(formatMessage("plain", ["x"]), undefined);
  });
  test("a message string becomes logentry.formatted", () => {
    const { event } = run({ message: "hello, world!" });
    assert.deepEqual(event.logentry, { formatted: "hello, world!" });
    assert.equal(event.message, undefined);
  });
  test("message with params computes formatted; no params keeps the template as formatted", () => {
    assert.deepEqual(run({ logentry: { message: "hello, %s!", params: ["world"] } }).event.logentry, {
      message: "hello, %s!",
      params: ["world"],
      formatted: "hello, world!",
    });
    assert.deepEqual(run({ logentry: { message: "hello, %s!" } }).event.logentry, { formatted: "hello, %s!" });
  });
  test("equal message and formatted collapse into formatted; a sent formatted wins", () => {
    assert.deepEqual(run({ logentry: { message: "hi", formatted: "hi" } }).event.logentry, { formatted: "hi" });
    assert.deepEqual(run({ logentry: { message: "a %s", params: ["b"], formatted: "given" } }).event.logentry, {
      message: "a %s",
      params: ["b"],
      formatted: "given",
    });
  });
  test("params without any message: removed with invalid_data; an empty logentry silently", () => {
    const { event, errors } = run({ logentry: { params: [0] } });
    assert.equal(event.logentry, undefined);
    assert.deepEqual(types(errors), ["invalid_data:logentry"]);
    const empty = run({ logentry: {} });
    assert.equal(empty.event.logentry, undefined);
    assert.deepEqual(empty.errors, []);
  });
});

describe("exceptions (event.rs `normalize_exception`)", () => {
  test("a value without type is split on `^(\\w+):(.*)$`", () => {
    const { event } = run({ exception: { values: [{ value: "ZeroDivisionError: division by zero" }] } });
    assert.deepEqual(event.exception?.values[0], { type: "ZeroDivisionError", value: "division by zero" });
  });
  test("no split when the type is set, or the prefix is not a word", () => {
    const set = run({ exception: [{ type: "E", value: "ValueError: x" }] }).event.exception?.values[0];
    assert.deepEqual(set, { type: "E", value: "ValueError: x" });
    const spaced = run({ exception: [{ value: "Not a type: x" }] }).event.exception?.values[0];
    assert.deepEqual(spaced, { value: "Not a type: x" });
    const multi = run({ exception: [{ value: "Error: first\nsecond" }] }).event.exception?.values[0];
    assert.deepEqual(multi, { value: "Error: first\nsecond" });
  });
  test("an exception with neither type nor value is removed with missing_attribute", () => {
    const { event, errors } = run({ exception: [{ type: "A" }, { mechanism: { type: "generic" } }] });
    assert.deepEqual(event.exception?.values, [{ type: "A" }]);
    assert.deepEqual(errors, [{ type: "missing_attribute", name: "exception.values.1", attribute: "type or value" }]);
  });
  test("mechanism is kept; a non-string value is kept as JSON text", () => {
    const { event } = run({ exception: [{ type: "E", value: { code: 1 }, mechanism: { type: "onerror", handled: false, data: { a: 1 } } }] });
    assert.deepEqual(event.exception?.values[0], { type: "E", value: '{"code":1}', mechanism: { type: "onerror", handled: false, data: { a: 1 } } });
  });
  test("a single exception takes the event's stacktrace", () => {
    const { event } = run({ stacktrace: { frames: [{ function: "f", filename: "a.py" }] }, exception: [{ type: "E" }] });
    assert.equal(event.stacktrace, undefined);
    assert.deepEqual(event.exception?.values[0]?.stacktrace, { frames: [{ function: "f", filename: "a.py", abs_path: "a.py" }] });
  });
});

describe("frames (stacktrace.rs `process_non_raw_frame` tests)", () => {
  const fix = (frame: Record<string, unknown>) => (fixFramePaths(frame), frame);
  test("test_coerces_url_filenames", () => {
    assert.deepEqual(fix({ lineno: 1, filename: "http://foo.com/foo.js" }), { lineno: 1, filename: "/foo.js", abs_path: "http://foo.com/foo.js" });
  });
  test("both paths empty are removed; a filename that is no text moves to abs_path alone", () => {
    assert.deepEqual(fix({ lineno: 1, filename: "", abs_path: null }), { lineno: 1 });
    assert.deepEqual(fix({ lineno: 1, filename: 7 }), { lineno: 1, abs_path: 7 });
    // The filename keeps its place among the frame's keys (it is rewritten, not deleted and added again).
    assert.deepEqual(Object.keys(fix({ filename: "http://foo.com/foo.js", lineno: 1 })), ["filename", "lineno", "abs_path"]);
  });
  test("test_does_not_overwrite_filename", () => {
    assert.deepEqual(fix({ filename: "foo.js", abs_path: "http://foo.com/foo.js" }), { filename: "foo.js", abs_path: "http://foo.com/foo.js" });
  });
  test("test_ignores_results_with_empty_path and _slash_path", () => {
    assert.deepEqual(fix({ abs_path: "http://foo.com" }), { abs_path: "http://foo.com", filename: "http://foo.com" });
    assert.deepEqual(fix({ abs_path: "http://foo.com/" }), { abs_path: "http://foo.com/", filename: "http://foo.com/" });
  });
  test("test_coerce_empty_filename; non-URL schemes are left whole (test_is_url)", () => {
    assert.deepEqual(fix({ filename: "", abs_path: "http://foo.com/foo.js" }), { filename: "/foo.js", abs_path: "http://foo.com/foo.js" });
    assert.deepEqual(fix({ abs_path: "app:///index.bundle" }), { abs_path: "app:///index.bundle", filename: "app:///index.bundle" });
    assert.deepEqual(fix({ abs_path: "webpack:///./app/index.jsx" }).filename, "webpack:///./app/index.jsx");
  });
  test("lineno and colno must be non-negative integers; context lines and in_app kept as sent", () => {
    const { event, errors } = run({
      exception: [
        {
          type: "E",
          stacktrace: {
            frames: [
              { filename: "a.js", lineno: -1, colno: 2.5, in_app: false, pre_context: ["a", null], context_line: "b" },
              { lineno: 3, colno: 0 },
            ],
          },
        },
      ],
    });
    const frames = event.exception?.values[0]?.stacktrace as { frames: Record<string, unknown>[] };
    assert.deepEqual(frames.frames[0], { filename: "a.js", abs_path: "a.js", in_app: false, pre_context: ["a", null], context_line: "b" });
    assert.deepEqual(frames.frames[1], { lineno: 3, colno: 0 });
    assert.deepEqual(types(errors), [
      "invalid_data:exception.values.0.stacktrace.frames.0.lineno",
      "invalid_data:exception.values.0.stacktrace.frames.0.colno",
    ]);
  });
  test("more than 250 frames keep the newest 250; vars of middle frames are slimmed past 50", () => {
    const frames = Array.from({ length: 300 }, (_, i) => ({ function: `f${i}`, vars: { i } }));
    const { event } = run({ exception: [{ type: "E", stacktrace: { frames } }] });
    const kept = (event.exception?.values[0]?.stacktrace as { frames: Record<string, unknown>[] }).frames;
    assert.equal(kept.length, 250);
    assert.equal(kept[0]?.function, "f50");
    assert.equal(kept[249]?.function, "f299");
    assert.deepEqual(kept[0]?.vars, { i: 50 });
    assert.equal(kept[125]?.vars, undefined);
    assert.deepEqual(kept[249]?.vars, { i: 299 });
  });
});

describe("user and IP addresses (event.rs `normalize_ip_addresses`, `normalize_user`)", () => {
  test("{{auto}} becomes the client IP", () => {
    assert.equal(run({ user: { ip_address: "{{auto}}" } }, { clientIp: "203.0.113.7" }).event.user?.ip_address, "203.0.113.7");
  });
  test("javascript, cocoa and objc take the client IP when none is set; other platforms do not", () => {
    for (const platform of ["javascript", "cocoa", "objc"]) {
      assert.equal(run({ platform }, { clientIp: "2001:db8::1" }).event.user?.ip_address, "2001:db8::1", platform);
    }
    assert.equal(run({ platform: "python" }, { clientIp: "203.0.113.7" }).event.user, undefined);
    assert.equal(run({ platform: "javascript", user: { ip_address: "198.51.100.1" } }, { clientIp: "203.0.113.7" }).event.user?.ip_address, "198.51.100.1");
  });
  test("request.env.REMOTE_ADDR fills the user IP, after its own {{auto}}", () => {
    const { event } = run({ platform: "python", request: { env: { REMOTE_ADDR: "{{auto}}" } } }, { clientIp: "203.0.113.7" });
    assert.equal((event.request?.env as Record<string, unknown>).REMOTE_ADDR, "203.0.113.7");
    assert.equal(event.user?.ip_address, "203.0.113.7");
  });
  test("security reports take the client IP", () => {
    const { event } = run({ csp: { document_uri: "https://x" }, user: { ip_address: "198.51.100.1" } }, { clientIp: "203.0.113.7", itemType: "security" });
    assert.equal(event.user?.ip_address, "203.0.113.7");
    assert.equal(event.type, "csp");
  });
  test("id and username as LenientString, bad IPs removed, unknown keys into data (test_user_data)", () => {
    const { event, errors } = run({ user: { id: 42, username: true, email: 5, ip_address: "clearly invalid value", plan: "pro" } });
    assert.deepEqual(event.user, { id: "42", username: "True", data: { plan: "pro" } });
    assert.deepEqual(types(errors), ["invalid_data:user.email", "invalid_data:user.ip_address"]);
  });
});

describe("request (request.rs)", () => {
  test("headers and query_string as pairs; query string and fragment split off the URL; method upper case", () => {
    const { event } = run({ request: { url: "https://x.io/a?b=1&c=%20d#frag", method: "post", headers: { Accept: "*/*" } } });
    assert.deepEqual(event.request, {
      url: "https://x.io/a",
      method: "POST",
      fragment: "frag",
      headers: [["Accept", "*/*"]],
      query_string: [
        ["b", "1"],
        ["c", " d"],
      ],
    });
  });
  test("cookies from a string, an object, or the Cookie header", () => {
    assert.deepEqual(run({ request: { cookies: "a=1; b=2" } }).event.request?.cookies, [
      ["a", "1"],
      ["b", "2"],
    ]);
    assert.deepEqual(run({ request: { cookies: { a: "1" } } }).event.request?.cookies, [["a", "1"]]);
    const fromHeader = run({
      request: {
        headers: [
          ["Cookie", "s=x"],
          ["Host", "h"],
        ],
      },
    }).event.request;
    assert.deepEqual(fromHeader?.cookies, [["s", "x"]]);
    assert.deepEqual(fromHeader?.headers, [["Host", "h"]]);
  });
});

describe("contexts (contexts.rs)", () => {
  test("type defaults to the key; non-objects removed; reprocessing dropped; trace status defaults to unknown", () => {
    const { event, errors } = run({
      contexts: { os: { name: "Linux" }, gpu2: { type: "gpu", name: "x" }, bad: "x", reprocessing: { original_issue_id: 1 }, trace: { trace_id: "a" } },
    });
    assert.deepEqual(event.contexts, {
      os: { name: "Linux", type: "os" },
      gpu2: { type: "gpu", name: "x" },
      trace: { trace_id: "a", type: "trace", status: "unknown" },
    });
    assert.deepEqual(types(errors), ["invalid_data:contexts.bad"]);
  });
});

describe("breadcrumbs (breadcrumb.rs, event.rs `normalize_breadcrumbs`)", () => {
  test("timestamps parsed like the event's, type and level defaulted, level aliases", () => {
    const { event } = run({
      breadcrumbs: [
        { timestamp: "2025-12-31T23:59:59", message: "a" },
        { timestamp: RECEIVED, level: "critical", type: "http" },
      ],
    });
    assert.deepEqual(event.breadcrumbs?.values, [
      { timestamp: RECEIVED - 1, message: "a", type: "default", level: "info" },
      { timestamp: RECEIVED, level: "fatal", type: "http" },
    ]);
  });
  test("bad timestamps removed with invalid_data; a breadcrumb before 1970 is dropped (test_reject_stale_breadcrumb)", () => {
    const { event, errors } = run({ breadcrumbs: [{ timestamp: "x" }, { timestamp: -1 }] });
    assert.deepEqual(event.breadcrumbs?.values, [{ type: "default", level: "info" }]);
    assert.deepEqual(types(errors), ["invalid_data:breadcrumbs.values.0.timestamp", "invalid_data:breadcrumbs.values.1"]);
  });
  test("at most 100 breadcrumbs, the most recent ones", () => {
    const crumbs = Array.from({ length: 130 }, (_, i) => ({ message: String(i) }));
    const values = run({ breadcrumbs: crumbs }).event.breadcrumbs?.values ?? [];
    assert.equal(values.length, 100);
    assert.equal(values[0]?.message, "30");
    assert.equal(values[99]?.message, "129");
  });
});
