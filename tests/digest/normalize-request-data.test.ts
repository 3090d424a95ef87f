// A request body sent as text is read as Relay's normalize_data reads it (relay-event-normalization
// normalize/request.rs, its tests test_infer_json, test_broken_json_with_fallback, test_broken_json_without_fallback
// and the urlencoded ones), so that data scrubbing sees a JSON or form body key by key.
import assert from "node:assert/strict";
import { test } from "node:test";
import { normalizeEvent } from "../../src/digest/normalize";

const request = (r: Record<string, unknown>) =>
  normalizeEvent({ request: r }, { receivedAt: Date.now(), eventId: "a".repeat(32), itemType: "event" }).event.request as Record<string, unknown>;

test("JSON text becomes the object it encodes, application/json", () => {
  const r = request({ data: '{"foo":"bar","password":"x"}' });
  assert.deepEqual(r.data, { foo: "bar", password: "x" });
  assert.equal(r.inferred_content_type, "application/json");
});

test("broken JSON stays text; the content type comes from the header, or is absent", () => {
  const withHeader = request({ data: '{"foo":"b', headers: [["Content-Type", "text/plain; encoding=utf-8"]] });
  assert.equal(withHeader.data, '{"foo":"b');
  assert.equal(withHeader.inferred_content_type, "text/plain");
  const without = request({ data: '{"foo":"b' });
  assert.equal(without.data, '{"foo":"b');
  assert.equal(without.inferred_content_type, undefined);
});

test("a form body becomes an object; a plain word, base64 or XML stays text", () => {
  assert.deepEqual(request({ data: "user=ann&password=hunter2" }).data, { user: "ann", password: "hunter2" });
  assert.equal(request({ data: "user=ann&password=hunter2" }).inferred_content_type, "application/x-www-form-urlencoded");
  for (const text of ["foo", "dGU=", "dA==", "<?xml version='1.0'?><a=b/>", "héllo=wörld"]) assert.equal(request({ data: text }).data, text, text);
});

test("hostile bodies: nesting past the intake's depth stays text (cut to the request body's bag), escaped NULs are taken out", () => {
  const deep = "[".repeat(10_000) + "]".repeat(10_000);
  // request.rs `data` is a large bag (8,192 bytes): the text keeps 8,189 code points and "...".
  assert.equal(request({ data: deep }).data, `${"[".repeat(8189)}...`);
  assert.deepEqual(request({ data: '{"a":"x\\u0000y"}' }).data, { a: "xy" });
});
