// Envelope edge cases beyond envelope.test.ts, each from the grammar in sentry-protocol.md §2 and Relay's
// envelope/mod.rs (parse_headers, Item::parse, require_termination, and its test_deserialize_* cases).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { protocolReason } from "../helpers/protocol";
import { parseEnvelope } from "../../src/protocol/envelope";

const enc = (s: string) => Buffer.from(s, "utf8");
const bytes = (...parts: (string | number[] | Uint8Array)[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? enc(p) : Buffer.from(p))));
const reason = (b: Uint8Array) => protocolReason(() => parseEnvelope(b));
const payloads = (b: Uint8Array) => parseEnvelope(b).items.map((i) => Buffer.from(i.payload));
const EVENT_ID = "9ec79c33ec9942ab8353589fcb2e04dc";

describe("explicit and implicit lengths", () => {
  test("explicit and implicit items mix in one envelope; an explicit payload may hold a newline, an implicit one ends at it", () => {
    const attachment = "first line\nsecond line";
    const env = parseEnvelope(
      enc(`{}\n{"type":"attachment","length":${attachment.length}}\n${attachment}\n{"type":"event"}\n{"a":1}\n{"type":"session","length":2}\n{}\n`),
    );
    assert.deepEqual(
      env.items.map((i) => i.headers.type),
      ["attachment", "event", "session"],
    );
    assert.deepEqual(
      env.items.map((i) => Buffer.from(i.payload).toString()),
      [attachment, '{"a":1}', "{}"],
    );
  });

  test("without a final newline the last payload runs to EOF, explicit or implicit; with one, the newline is not payload", () => {
    assert.deepEqual(payloads(enc('{}\n{"type":"event","length":7}\n{"a":1}')), [enc('{"a":1}')]);
    assert.deepEqual(payloads(enc('{}\n{"type":"event","length":7}\n{"a":1}\n')), [enc('{"a":1}')]);
    assert.deepEqual(payloads(enc('{}\n{"type":"event"}\n{"a":1}')), [enc('{"a":1}')]);
    assert.deepEqual(payloads(enc('{}\n{"type":"event"}\n{"a":1}\n')), [enc('{"a":1}')]);
  });

  test("empty envelopes: `{}` alone, `{}\\n`, and a header with fields and no items", () => {
    for (const s of ["{}", "{}\n"]) assert.deepEqual(parseEnvelope(enc(s)), { headers: {}, items: [] });
    const env = parseEnvelope(enc(`{"event_id":"${EVENT_ID}","sent_at":"2024-01-01T00:00:00.000Z"}`));
    assert.deepEqual(env, { headers: { event_id: EVENT_ID, sent_at: "2024-01-01T00:00:00.000Z" }, items: [] });
  });
});

describe("carriage returns are bytes like any other", () => {
  test("an implicit payload ending in \\r\\n keeps its \\r (only \\n ends it)", () => {
    assert.deepEqual(payloads(enc('{}\n{"type":"event"}\n{"a":1}\r\n{"type":"event"}\n{"b":2}\r')), [enc('{"a":1}\r'), enc('{"b":2}\r')]);
  });

  test("Relay's multiple-items case: a BOM and \\r\\n inside an explicit length of 10 are payload", () => {
    const env = parseEnvelope(bytes('{}\n{"type":"attachment","length":10,"content_type":"text/plain"}\n', [0xef, 0xbb, 0xbf], "Hello\r\n\n"));
    assert.deepEqual(Buffer.from(env.items[0]!.payload), bytes([0xef, 0xbb, 0xbf], "Hello\r\n"));
  });

  // Spec: "A \r before \n is not stripped; it becomes part of the line", and "the byte right after the JSON value
  // must be \n or EOF; otherwise MissingNewline". Relay's require_termination refuses `{}\r\n`; JSON.parse does not.
  test("a header line ending in \\r\\n (or a space) is missing_newline, as in Relay", () => {
    assert.equal(reason(enc('{}\r\n{"type":"event"}\n{}')), "missing_newline");
    assert.equal(reason(enc('{}\n{"type":"event"}\r\n{}')), "missing_newline");
    assert.equal(reason(enc('{} \n{"type":"event"}\n{}')), "missing_newline");
  });
});

describe("what the parser keeps for the intake to decide", () => {
  test("unknown item types keep their order, headers and payloads next to known ones", () => {
    const env = parseEnvelope(enc('{}\n{"type":"statsd"}\nfoo:1|c\n{"type":"event"}\n{}\n{"type":"zz_unknown","length":3,"x":{"y":[1]}}\nabc'));
    assert.deepEqual(
      env.items.map((i) => i.headers),
      [{ type: "statsd" }, { type: "event" }, { type: "zz_unknown", length: 3, x: { y: [1] } }],
    );
    assert.deepEqual(
      env.items.map((i) => Buffer.from(i.payload).toString()),
      ["foo:1|c", "{}", "abc"],
    );
  });

  // The header's event_id wins over the payload's (§2), but that is the intake's rule: the parser reports both.
  test("an envelope event_id that differs from the event's own is kept as sent, and so is the payload", () => {
    const other = "0123456789abcdef0123456789abcdef";
    const event = JSON.stringify({ event_id: other, message: "m" });
    const env = parseEnvelope(enc(`{"event_id":"${EVENT_ID}"}\n{"type":"event"}\n${event}\n`));
    assert.equal(env.headers.event_id, EVENT_ID);
    assert.equal(JSON.parse(Buffer.from(env.items[0]!.payload).toString()).event_id, other);
  });
});

describe("explicit lengths that do not match the payload", () => {
  test("one byte too long: unexpected_eof at EOF, missing_newline before the next item", () => {
    assert.equal(reason(enc('{}\n{"type":"event","length":8}\n{"a":1}')), "unexpected_eof");
    assert.equal(reason(enc('{}\n{"type":"event","length":8}\n{"a":1}\n{"type":"event"}\n{}')), "missing_newline");
  });

  test("one byte too long at the end swallows the final newline, which Relay accepts too", () => {
    assert.deepEqual(payloads(enc('{}\n{"type":"event","length":8}\n{"a":1}\n')), [enc('{"a":1}\n')]);
  });

  test("one byte too short: missing_newline, whether or not more items follow", () => {
    assert.equal(reason(enc('{}\n{"type":"event","length":6}\n{"a":1}')), "missing_newline");
    assert.equal(reason(enc('{}\n{"type":"event","length":6}\n{"a":1}\n')), "missing_newline");
    assert.equal(reason(enc('{}\n{"type":"event","length":6}\n{"a":1}\n{"type":"event"}\n{}')), "missing_newline");
  });

  test("a length far past the end (up to u32) is unexpected_eof; past u32 it is a bad item header", () => {
    assert.equal(reason(enc('{}\n{"type":"attachment","length":4294967295}\nabc')), "unexpected_eof");
    assert.equal(reason(enc('{}\n{"type":"attachment","length":4294967296}\nabc')), "bad_item_header");
  });
});

describe("bytes that are not UTF-8", () => {
  test("payloads are kept byte for byte, explicit or implicit", () => {
    const junk = [0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x00];
    const env = parseEnvelope(bytes(`{}\n{"type":"attachment","length":${junk.length}}\n`, junk, '\n{"type":"event"}\n', junk));
    assert.deepEqual(
      env.items.map((i) => Buffer.from(i.payload)),
      [Buffer.from(junk), Buffer.from(junk)],
    );
  });

  // A header is "one line of UTF-8 compact JSON" (§2): Relay's serde_json refuses invalid UTF-8 inside a string.
  // Decoding the line with U+FFFD replacement would instead accept it and hand on a different value.
  test("invalid UTF-8 inside a header string refuses the envelope instead of being replaced by U+FFFD", () => {
    assert.equal(reason(bytes('{"dsn":"', [0xff], '"}\n')), "bad_envelope_header");
    assert.equal(reason(bytes('{}\n{"type":"attachment","filename":"', [0xc3, 0x28], '.txt"}\nabc')), "bad_item_header");
    assert.equal(reason(bytes('{}\n{"type":"ev', [0xed, 0xa0, 0x80], 'ent"}\n{}')), "bad_item_header");
  });

  test("invalid UTF-8 right after a header's JSON is missing_newline; where JSON is expected, a bad header", () => {
    assert.equal(reason(bytes("{}", [0xff], "\n")), "missing_newline");
    assert.equal(reason(bytes([0xff], "{}\n")), "bad_envelope_header");
    assert.equal(reason(bytes("{}\n", [0xc0, 0xaf], '{"type":"event"}\n{}')), "bad_item_header");
  });
});

describe("binary payloads", () => {
  test("every byte value, newlines at the start, middle and end included, survives an explicit length", () => {
    const all = Buffer.from([0x0a, ...Array.from({ length: 256 }, (_, i) => i), 0x0d, 0x0a, 0x0a]);
    for (const tail of ["", "\n", '\n{"type":"event"}\n{}']) {
      const env = parseEnvelope(bytes(`{}\n{"type":"attachment","length":${all.length},"filename":"bin"}\n`, all, tail));
      assert.deepEqual(Buffer.from(env.items[0]!.payload), all, JSON.stringify(tail));
      assert.equal(env.items.length, tail.includes("event") ? 2 : 1);
    }
  });
});
