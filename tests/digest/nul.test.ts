// NUL characters out of what the digest stores (normalize/nul.ts): PostgreSQL's text refuses U+0000, and one of them
// in any string or key failed the batch's transaction for ever (issue 16, finding 3).
import assert from "node:assert/strict";
import { test } from "node:test";
import { normalizeEvent } from "../../src/digest/normalize";
import { stripNul, stripNulFromJsonText } from "../../src/digest/normalize/nul";

test("every string and key loses its NULs, in place, in order; a key that becomes another wins as JSON's later key does", () => {
  const value = JSON.parse('{"a\\u0000b":"x\\u0000","list":["\\u0000",1,{"k\\u0000":null}],"a":1,"ab":2,"__proto__":"p\\u0000"}') as Record<string, unknown>;
  const { value: out, stripped } = stripNul(value);
  assert.equal(out, value, "in place");
  // Keys "a\0b", "k\0", strings "\0" and "p\0"; "x\0" went with its key, which the later "ab" replaced.
  assert.equal(stripped, 4);
  assert.deepEqual(Object.keys(value), ["ab", "list", "a", "__proto__"]);
  assert.equal(value.ab, 2, "the later of the two keys named ab");
  assert.deepEqual(value.list, ["", 1, { k: null }]);
  assert.equal(Object.getOwnPropertyDescriptor(value, "__proto__")?.value, "p");
  assert.deepEqual(stripNul("a\u0000"), { value: "a", stripped: 1 });
  assert.deepEqual(stripNul(3), { value: 3, stripped: 0 });
});

test("a payload nested 100,000 deep is walked without overflowing the stack", () => {
  let deep: unknown = "end\u0000";
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(stripNul(deep).stripped, 1);
});

test("an item's headers as JSON text lose their NULs; text without any is returned as is", () => {
  assert.equal(stripNulFromJsonText('{"type":"attachment","filename":"a\\u0000.txt"}'), '{"type":"attachment","filename":"a.txt"}');
  const clean = '{"type":"attachment"}';
  assert.equal(stripNulFromJsonText(clean), clean);
});

test("normalization strips NULs first and says so once in the event's errors", () => {
  const { event } = normalizeEvent(
    { message: "a\u0000b", tags: { "k\u0000": "\u0000v" }, errors: [{ type: "sdk\u0000", name: "x" }] },
    { receivedAt: Date.now(), eventId: "52df9022835246eeb317dbd739ccd059", itemType: "event" },
  );
  assert.equal(event.logentry?.formatted, "ab");
  assert.deepEqual(event.tags, [["k", "v"]]);
  assert.ok(!JSON.stringify(event).includes("\\u0000"));
  assert.deepEqual(
    event.errors.filter((e) => e.type === "invalid_data" && e.name === ""),
    [{ type: "invalid_data", name: "", reason: "NUL characters removed from 4 strings or keys" }],
  );
});
