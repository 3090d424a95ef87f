// The events.data codec (storage/event-codec.ts): what is written reads back exactly, rows of earlier releases stay
// readable, corruption is named, the frozen dictionary stays frozen, and a typical browser error stays small.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import fc from "fast-check";
import { digestRows } from "../../src/digest/items";
import { decodeEventData, EVENT_CODEC, EventDataError, encodeEventData } from "../../src/storage/event-codec";
import { EVENT_DICTIONARY_1 } from "../../src/storage/event-dictionary";

const fixture = readFileSync(new URL("./fixtures/browser-error.json", import.meta.url), "utf8");

/** The fixture as the digest stores it: normalized, grouped, serialized. */
async function storedJson(): Promise<string> {
  const event = JSON.parse(fixture) as { event_id: string; timestamp: number };
  const [stored] = (
    await digestRows([
      {
        kind: "item",
        id: 1,
        projectId: 1,
        keyId: 1,
        receivedAt: event.timestamp * 1000,
        itemType: "event",
        eventId: event.event_id,
        headers: "{}",
        meta: JSON.stringify({ client_ip: "203.0.113.9" }),
        payload: Buffer.from(fixture),
      },
    ])
  ).events;
  assert.ok(stored);
  return stored.data;
}

test("any JSON text round-trips through the codec, whatever its characters", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.string({ unit: "grapheme" }), (value, text) => {
      const json = JSON.stringify({ value, text });
      const encoded = encodeEventData(json);
      assert.equal(encoded[0], EVENT_CODEC.deflateDictionary1);
      assert.equal(decodeEventData(encoded), json);
      // PostgreSQL hands bytea back as a Buffer, SQLite a BLOB as a Buffer too; a plain Uint8Array view reads the same.
      assert.equal(decodeEventData(new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength)), json);
    }),
    { numRuns: 300 },
  );
});

test("rows of earlier releases read as they are: TEXT on SQLite, UTF-8 bytes after 0006 on PostgreSQL", async () => {
  const json = await storedJson();
  assert.equal(decodeEventData(json), json);
  assert.equal(decodeEventData(Buffer.from(json, "utf8")), json);
  assert.equal(decodeEventData(Buffer.from('{"message":"grüße ✓"}', "utf8")), '{"message":"grüße ✓"}');
});

test("an unknown codec byte, an empty value and bytes that do not inflate are named errors", async () => {
  assert.throws(
    () => decodeEventData(Buffer.from([0x02, 1, 2, 3])),
    (e) => e instanceof EventDataError && /unknown codec byte 2/.test(e.message),
  );
  assert.throws(() => decodeEventData(Buffer.alloc(0)), EventDataError);
  const truncated = encodeEventData(await storedJson()).subarray(0, 40);
  assert.throws(
    () => decodeEventData(truncated),
    (e) => e instanceof EventDataError && /does not inflate/.test(e.message),
  );
});

test("codec 1's dictionary is frozen: rows already written need exactly these bytes", () => {
  assert.equal(createHash("sha256").update(EVENT_DICTIONARY_1, "utf8").digest("hex"), "659ada30eae0e6566965af15a35a0f6ade8f7d5fa202244d2d7ac7344212d5b3");
});

test("a typical 5 KB browser error is stored in at most 1,200 bytes (about 1,000 today), a sixth of its JSON", async () => {
  const json = await storedJson();
  assert.ok(fixture.length > 5000, "the fixture is a full-size browser error");
  const stored = encodeEventData(json).length;
  assert.ok(stored <= 1200, `stored ${stored} bytes`);
  assert.ok(stored * 6 <= Buffer.byteLength(json), `stored ${stored} of ${Buffer.byteLength(json)} bytes`);
});
