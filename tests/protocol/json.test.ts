// JSON as SDKs write it, and the stored form of an event: the SDK's text with the server's fields appended.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { INGEST_LIMITS } from "../../src/config/limits";
import { appendJsonFields, jsonDepthExceeds, looksLikeJsonObject, parseJsonObjectText, valueDepthExceeds } from "../../src/protocol/json";
import { protocolReason } from "../helpers/protocol";

describe("JSON helpers", () => {
  test("appended fields override the object's own, in JSON.parse", () => {
    const text = '{"event_id":"aaaa","message":"hi","extra":{"event_id":"nested"}}';
    const out = appendJsonFields(text, { event_id: "bbbb", received: 1.5 });
    assert.deepEqual(JSON.parse(out), { event_id: "bbbb", message: "hi", extra: { event_id: "nested" }, received: 1.5 });
  });
  test("empty objects, whitespace around the object, and nothing to add", () => {
    assert.deepEqual(JSON.parse(appendJsonFields("{}", { a: 1 })), { a: 1 });
    assert.deepEqual(JSON.parse(appendJsonFields(" { \n } \n", { a: 1 })), { a: 1 });
    assert.deepEqual(JSON.parse(appendJsonFields('\n{"x":"}"}\r\n', { a: "}" })), { x: "}", a: "}" });
    assert.equal(appendJsonFields('{"x":1}', {}), '{"x":1}');
  });
  test("a repaired parse is reported, so its text is never stored as it came", () => {
    assert.equal(parseJsonObjectText('{"a":1}').repaired, false);
    const nan = parseJsonObjectText('{"a":NaN,"b":"NaN","c":-Infinity}');
    assert.equal(nan.repaired, true);
    assert.deepEqual(nan.value, { a: null, b: "NaN", c: null });
  });
  test("the outline check accepts objects with JSON whitespace around them, and nothing else", () => {
    const yes = ["{}", ' {"a":1}\n', "\t{ }\r\n"];
    const no = ["", "[]", "{", "}", "x{}", "{}x", '"{}"', "null"];
    for (const t of yes) assert.ok(looksLikeJsonObject(Buffer.from(t)), JSON.stringify(t));
    for (const t of no) assert.ok(!looksLikeJsonObject(Buffer.from(t)), JSON.stringify(t));
  });
});

describe("nesting depth", () => {
  const depthOf = (v: unknown): number =>
    Array.isArray(v) ? 1 + Math.max(0, ...v.map(depthOf)) : typeof v === "object" && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;

  test("jsonDepthExceeds agrees with the parsed value's depth, for any JSON and any limit", () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 12 }), fc.integer({ min: 0, max: 14 }), (text, max) => {
        assert.equal(jsonDepthExceeds(text, max), depthOf(JSON.parse(text)) > max);
      }),
      { numRuns: 2000 },
    );
  });

  test("valueDepthExceeds says of a parsed value what jsonDepthExceeds says of its text", () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 12 }), fc.integer({ min: 0, max: 14 }), (text, max) => {
        assert.equal(valueDepthExceeds(JSON.parse(text), max), jsonDepthExceeds(text, max));
      }),
      { numRuns: 2000 },
    );
    // A key named __proto__ is data, and its value is walked like any other.
    assert.equal(valueDepthExceeds(JSON.parse('{"__proto__":[[[1]]]}'), 3), true);
    assert.equal(valueDepthExceeds(JSON.parse('{"__proto__":[[1]]}'), 3), false);
  });

  test("hostile input #5: a value a million levels deep is parsed and refused without overflowing the stack", () => {
    const deep = `{"extra":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}}`;
    assert.equal(
      protocolReason(() => parseJsonObjectText(deep)),
      "invalid_json",
    );
    assert.equal(valueDepthExceeds(JSON.parse(deep), INGEST_LIMITS.maxJsonDepth), true);
  });

  test("hostile input #5: an event nested 10,000 levels deep is invalid JSON (as to Relay's parser), not a stack overflow later", () => {
    const deep = `{"extra":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    assert.equal(
      protocolReason(() => parseJsonObjectText(deep)),
      "invalid_json",
    );
    const ok = `{"extra":${"[".repeat(INGEST_LIMITS.maxJsonDepth - 1)}${"]".repeat(INGEST_LIMITS.maxJsonDepth - 1)}}`;
    assert.equal(
      protocolReason(() => parseJsonObjectText(ok)),
      "ok",
    );
  });
});
