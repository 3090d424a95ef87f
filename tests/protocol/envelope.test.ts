// The envelope grammar (sentry-protocol.md §2) with the cases Relay's parser tests cover: explicit and implicit
// lengths, EOF without a final newline, empty payloads, "\r\n" inside a payload, short and overlong payloads.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { protocolReason } from "../helpers/protocol";
import { INGEST_LIMITS } from "../../src/config/limits";
import { parseEnvelope, parseEnvelopeHeaders } from "../../src/protocol/envelope";

const enc = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const reason = (s: string) => protocolReason(() => parseEnvelope(enc(s)));

describe("envelope parsing", () => {
  test("sentry-cli's fixture shape: dashed event_id, explicit lengths, several item types", () => {
    const event = '{"message":"hello"}';
    const session = '{"sid":"abc","status":"ok"}';
    const env = parseEnvelope(
      enc(
        `{"event_id":"9ec79c33-ec99-42ab-8353-589fcb2e04dc","dsn":"https://k@h/1"}\n{"type":"event","length":${event.length}}\n${event}\n{"type":"session","length":${session.length}}\n${session}\n`,
      ),
    );
    assert.equal(env.headers.event_id, "9ec79c33-ec99-42ab-8353-589fcb2e04dc");
    assert.deepEqual(
      env.items.map((i) => i.headers.type),
      ["event", "session"],
    );
    assert.equal(text(env.items[0]!.payload), event);
    assert.equal(text(env.items[1]!.payload), session);
  });

  test("implicit length (JavaScript SDKs): the payload runs to the next newline or EOF", () => {
    const env = parseEnvelope(enc('{}\n{"type":"event"}\n{"a":1}\n{"type":"client_report"}\n{"b":2}'));
    assert.deepEqual(
      env.items.map((i) => text(i.payload)),
      ['{"a":1}', '{"b":2}'],
    );
  });

  test("explicit length may contain newlines and \\r\\n, which are kept", () => {
    const payload = "line one\r\nline two\n";
    const env = parseEnvelope(enc(`{}\n{"type":"attachment","length":${enc(payload).length},"filename":"a.txt"}\n${payload}\n`));
    assert.equal(text(env.items[0]!.payload), payload);
    assert.equal(env.items[0]!.headers.filename, "a.txt");
  });

  test("lengths count bytes, not characters", () => {
    const payload = '{"m":"Grüße"}';
    const env = parseEnvelope(enc(`{}\n{"type":"event","length":${enc(payload).length}}\n${payload}`));
    assert.equal(text(env.items[0]!.payload), payload);
  });

  test("empty payloads: explicit length 0, and implicit at EOF", () => {
    assert.equal(parseEnvelope(enc('{}\n{"type":"attachment","length":0}\n')).items[0]!.payload.length, 0);
    assert.equal(parseEnvelope(enc('{}\n{"type":"attachment"}')).items[0]!.payload.length, 0);
    assert.equal(parseEnvelope(enc('{}\n{"type":"a"}\n\n{"type":"b"}\n{"x":1}')).items.length, 2);
  });

  test("an envelope with headers only is valid, with or without the final newline", () => {
    assert.deepEqual(parseEnvelope(enc("{}")).items, []);
    assert.deepEqual(parseEnvelope(enc('{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}\n')).items, []);
  });

  test("unknown item types and header keys are kept for the intake to decide", () => {
    const env = parseEnvelope(enc('{"sdk":{"name":"x"},"future":true}\n{"type":"from_the_future","weird":[1]}\n{}'));
    assert.equal(env.items[0]!.headers.type, "from_the_future");
    assert.deepEqual(env.headers.future, true);
  });

  test("malformed envelopes are refused with a reason", () => {
    assert.equal(reason(""), "bad_envelope_header");
    assert.equal(reason("not json\n"), "bad_envelope_header");
    assert.equal(reason("[1,2]\n"), "bad_envelope_header");
    assert.equal(reason('{} trailing\n{"type":"event"}\n{}'), "missing_newline");
    assert.equal(reason('{}\n{"length":2}\n{}'), "bad_item_header");
    assert.equal(reason("{}\nnope\n{}"), "bad_item_header");
    assert.equal(reason('{}\n{"type":"event","length":-1}\n'), "bad_item_header");
    assert.equal(reason('{}\n{"type":"event","length":"3"}\n'), "bad_item_header");
    assert.equal(reason('{}\n{"type":"event","length":50}\n{"short":1}'), "unexpected_eof");
    assert.equal(reason('{}\n{"type":"event","length":2}\n{"too":"long"}\n'), "missing_newline");
  });
});

// Each bound below keeps what one envelope costs to read proportional to a few SDK-sized items, whatever it holds.
describe("bounded reading", () => {
  test("hostile input #1: more items than INGEST_LIMITS.maxItemsPerEnvelope refuse the envelope, and parsing stops there", () => {
    const max = INGEST_LIMITS.maxItemsPerEnvelope;
    assert.equal(parseEnvelope(enc(`{}\n${'{"type":"a"}\n\n'.repeat(max)}`)).items.length, max);
    // The 100 MiB of item headers a 200 KB gzip body inflated to: refused after `max` items, not 8 million objects.
    const bomb = Buffer.concat([enc("{}\n"), Buffer.alloc(100 * 1024 * 1024, '{"type":"a"}\n')]);
    assert.equal(
      protocolReason(() => parseEnvelope(bomb)),
      "too_many_items",
    );
  });

  test("hostile input #1: the envelope header is read alone, before any item", () => {
    const body = enc(`{"dsn":"https://0123456789abcdef0123456789abcdef@h/1"}\n${'{"type":"a"}\n'.repeat(10)}{not json`);
    const head = parseEnvelopeHeaders(body);
    assert.equal(head.headers.dsn, "https://0123456789abcdef0123456789abcdef@h/1");
    assert.equal(
      protocolReason(() => parseEnvelope(body, head)),
      "bad_item_header",
    );
  });

  test("a header line longer than INGEST_LIMITS.maxHeaderLineBytes is refused without searching the payload for its end", () => {
    const long = `{"x":"${"a".repeat(INGEST_LIMITS.maxHeaderLineBytes)}"}`;
    assert.equal(reason(`${long}\n{"type":"event"}\n{}`), "bad_envelope_header");
    assert.equal(reason(`{}\n${long.replace("{", '{"type":"event",')}\n{}`), "bad_item_header");
    assert.equal(reason(`{"x":"${"a".repeat(INGEST_LIMITS.maxHeaderLineBytes - 10)}"}\n{"type":"event"}\n{}`), "ok");
  });

  test("hostile input #5: headers nested deeper than INGEST_LIMITS.maxHeaderDepth are a bad header (400), not a stack overflow", () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    assert.equal(reason(`{"x":${deep(10_000)}}\n{"type":"event"}\n{}`), "bad_envelope_header");
    assert.equal(reason(`{}\n{"type":"event","x":${deep(10_000)}}\n{}`), "bad_item_header");
    assert.equal(reason(`{"x":${deep(INGEST_LIMITS.maxHeaderDepth - 1)}}\n{"type":"event"}\n{}`), "ok");
    // Brackets inside strings, escaped quotes included, are not nesting.
    assert.equal(reason(`{"x":"${"[".repeat(1000)}\\\\\\"${"{".repeat(1000)}"}\n{"type":"event"}\n{}`), "ok");
  });
});
