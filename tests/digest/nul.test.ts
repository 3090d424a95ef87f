// NUL characters out of what the digest stores (normalize/nul.ts): PostgreSQL's text refuses U+0000, and one of them
// in any string or key failed the batch's transaction for ever (issue 16, finding 3).
import assert from "node:assert/strict";
import { test } from "node:test";
import { digestRows } from "../../src/digest/items";
import { normalizeEvent } from "../../src/digest/normalize";
import { jsonHasNoNul, stripNul, stripNulFromJsonText } from "../../src/digest/normalize/nul";

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

test("a JSON text without the escape \\u0000 holds no NUL; one with it, or with a lookalike, is walked", () => {
  assert.equal(jsonHasNoNul('{"message":"plain","u0000":1}'), true);
  assert.equal(jsonHasNoNul(JSON.stringify({ message: "a\u0000b" })), false);
  // An escaped backslash before "u0000" is no NUL; it only costs the walk.
  assert.equal(jsonHasNoNul(JSON.stringify({ message: "\\u0000" })), false);
  assert.equal(jsonHasNoNul(JSON.stringify({ message: "\u0001" })), true);
});

test("the digest still strips NULs from an event's payload and from the SDK its envelope named", async () => {
  const row = (payload: Record<string, unknown>, meta: Record<string, unknown>, id: number) => ({
    kind: "item" as const,
    id,
    projectId: 1,
    keyId: 1,
    receivedAt: Date.UTC(2026, 0, 1),
    itemType: "event",
    eventId: id.toString(16).padStart(32, "0"),
    headers: "{}",
    meta: JSON.stringify(meta),
    payload: Buffer.from(JSON.stringify(payload)),
  });
  const { events } = await digestRows([
    row({ message: "a\u0000b", tags: { "k\u0000": "v" } }, {}, 1),
    row({ message: "clean" }, { sdk: { name: "sentry.\u0000javascript", version: "11.5.0" } }, 2),
    row({ message: "clean" }, {}, 3),
  ]);
  assert.equal(events.length, 3);
  for (const e of events) assert.ok(!e.data.includes("\\u0000"), e.data);
  assert.match(events[0]!.data, /"formatted":"ab"/);
  assert.match(events[1]!.data, /"name":"sentry.javascript"/);
  const nulNote = (data: string) => data.includes("NUL characters removed");
  assert.deepEqual(
    events.map((e) => nulNote(e.data)),
    [true, true, false],
  );
});
