// Properties of parseEnvelope over generated input (fast-check): it never fails with anything but a ProtocolError,
// it never hangs (each test has a timeout), what it returns is consistent with the input, and serialising a valid
// envelope then parsing it gives back the same headers and payload bytes.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { type Envelope, parseEnvelope } from "../../src/protocol/envelope";
import type { ProtocolError } from "../../src/protocol/errors";
import { mutate, mutations } from "../helpers/mutation";

const RUNS = { numRuns: 600 };
const TIMEOUT = { timeout: 20_000 };
const ENVELOPE_REASONS = new Set(["bad_envelope_header", "bad_item_header", "missing_newline", "unexpected_eof"]);
const NL = Buffer.from("\n");

type Item = { headers: Record<string, unknown> & { type: string; length?: number }; payload: Uint8Array };
type Generated = { headers: Record<string, unknown>; items: Item[]; finalNewline: boolean };

const key = fc.string({ unit: "binary", maxLength: 8 });
const json = fc.jsonValue({ maxDepth: 2, stringUnit: "binary" });
const item: fc.Arbitrary<Item> = fc
  .record({
    type: fc.oneof(
      fc.constantFrom("event", "transaction", "attachment", "session", "client_report"),
      fc.string({ unit: "binary", minLength: 1, maxLength: 12 }),
    ),
    extra: fc.dictionary(
      key.filter((k) => k !== "type" && k !== "length"),
      json,
      { maxKeys: 3 },
    ),
    explicit: fc.boolean(),
    payload: fc.uint8Array({ maxLength: 80 }),
  })
  .map(({ type, extra, explicit, payload }) =>
    // Without a length the payload runs to the next newline, so an implicit payload has none.
    explicit ? { headers: { ...extra, type, length: payload.length }, payload } : { headers: { ...extra, type }, payload: payload.filter((b) => b !== 0x0a) },
  );
const envelope: fc.Arbitrary<Generated> = fc.record({
  headers: fc.dictionary(key, json, { maxKeys: 5 }),
  items: fc.array(item, { maxLength: 5 }),
  finalNewline: fc.boolean(),
});

/** The wire form: header line, then each item's header line and payload, each after a newline (§2 grammar). */
function serialize({ headers, items, finalNewline }: Generated): Buffer {
  const parts: Uint8Array[] = [Buffer.from(JSON.stringify(headers))];
  for (const { headers: h, payload } of items) parts.push(NL, Buffer.from(JSON.stringify(h)), NL, payload);
  if (finalNewline) parts.push(NL);
  return Buffer.concat(parts);
}

/** Either an Envelope consistent with its input, or a ProtocolError with an envelope reason; anything else fails. */
function parseOrRefuse(input: Uint8Array): Envelope | ProtocolError {
  let env: Envelope;
  try {
    env = parseEnvelope(input);
  } catch (err) {
    assert.ok(err instanceof Error && (err as ProtocolError).isProtocolError === true, `not a ProtocolError: ${String(err)}`);
    assert.ok(ENVELOPE_REASONS.has((err as ProtocolError).reason), `unknown reason ${(err as ProtocolError).reason}`);
    return err as ProtocolError;
  }
  assert.ok(typeof env.headers === "object" && env.headers !== null && !Array.isArray(env.headers));
  for (const { headers, payload } of env.items) {
    assert.ok(typeof headers.type === "string" && headers.type !== "", "every item has a type");
    if (typeof headers.length === "number") assert.equal(payload.length, headers.length, "a declared length is the payload's");
    else assert.ok(!payload.includes(0x0a), "an implicit payload has no newline");
    assert.equal(payload.buffer, input.buffer, "payloads are views of the input, not copies");
  }
  return env;
}

describe("parseEnvelope never fails with anything but a ProtocolError, and never hangs", () => {
  test("arbitrary bytes", TIMEOUT, () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (input) => {
        parseOrRefuse(input);
      }),
      RUNS,
    );
  });

  test("arbitrary sequences of envelope-ish tokens", TIMEOUT, () => {
    const token = fc.constantFrom(
      "{",
      "}",
      "{}",
      "[",
      "]",
      '"',
      '"type"',
      '"length"',
      '"event"',
      ":",
      ",",
      "0",
      "7",
      "-1",
      "1e3",
      "null",
      "\n",
      "\r",
      " ",
      "\\",
      "\u00e9",
      "\uffff",
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => {
        parseOrRefuse(Buffer.from(tokens.join("")));
      }),
      RUNS,
    );
  });

  test("valid envelopes with random byte flips, truncations and insertions", TIMEOUT, () => {
    fc.assert(
      fc.property(envelope, mutations, (env, list) => {
        parseOrRefuse(mutate(serialize(env), list));
      }),
      RUNS,
    );
  });

  test("the mutation harness really mutates: a byte inserted into an explicit payload is refused", TIMEOUT, () => {
    // Guards the properties above against a mutate() that leaves its input alone.
    const input = Buffer.from('{}\n{"type":"event","length":7}\n{"a":1}\n');
    const result = parseOrRefuse(mutate(input, [{ kind: "insert", at: 35, bytes: Buffer.from("x") }]));
    assert.ok(result instanceof Error && result.reason === "missing_newline");
  });
});

describe("serialise then parse gives the envelope back", () => {
  test("random headers, explicit and implicit items, with and without the final newline", TIMEOUT, () => {
    fc.assert(
      fc.property(envelope, (env) => {
        const parsed = parseOrRefuse(serialize(env));
        assert.ok(!(parsed instanceof Error), `refused: ${parsed instanceof Error ? parsed.reason : ""}`);
        // JSON on both sides: it is what went over the wire (-0 becomes 0, key order is kept).
        assert.deepEqual(parsed.headers, JSON.parse(JSON.stringify(env.headers)));
        assert.equal(parsed.items.length, env.items.length);
        parsed.items.forEach((it, i) => {
          assert.deepEqual(it.headers, JSON.parse(JSON.stringify(env.items[i]!.headers)));
          assert.deepEqual(Buffer.from(it.payload), Buffer.from(env.items[i]!.payload));
        });
      }),
      RUNS,
    );
  });
});
