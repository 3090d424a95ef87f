// JSON as SDKs write it, and the stored form of an event: the SDK's text with the server's fields appended.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { appendJsonFields, looksLikeJsonObject, parseJsonObjectText } from "../../src/protocol/json";

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
