// Broken envelopes: every base envelope truncated at many points, item lengths that lie, invalid UTF-8 and raw NUL
// bytes in header lines and payloads, header lines that are not objects, nesting far past the limits, and more items
// than an envelope may hold.
import { INGEST_LIMITS } from "../../src/config/limits";
import { type HostileCase, type Rng, type Target, baseEnvelopes, envelopePath, serialize } from "./cases";

/** Byte sequences that are not UTF-8: a stray continuation byte, an overlong NUL, a surrogate, a cut-off sequence, 0xFF. */
const INVALID_UTF8 = [[0x80], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xff, 0xfe]];

function splice(body: Buffer, at: number, bytes: number[]): Buffer {
  return Buffer.concat([body.subarray(0, at), Buffer.from(bytes), body.subarray(at)]);
}

export function envelopeCases(t: Target, rng: Rng): HostileCase[] {
  const cases: HostileCase[] = [];
  const bases = baseEnvelopes(rng, t.publicKey);
  const path = envelopePath(t);
  for (const [name, envelope] of Object.entries(bases)) {
    for (const withLengths of [false, true]) {
      const body = serialize(envelope, withLengths);
      const label = `${name}${withLengths ? " with lengths" : ""}`;
      // Truncated at 20 points spread over the body, and right after each newline.
      const cuts = new Set<number>();
      for (let i = 1; i <= 20; i++) cuts.add(Math.floor((body.length * i) / 21));
      for (let i = 0; i < body.length; i++) if (body[i] === 0x0a) cuts.add(i + 1);
      for (const cut of [...cuts].sort((a, b) => a - b).slice(0, 30))
        cases.push({ name: `truncated envelope: ${label} at ${cut} of ${body.length}`, path, body: body.subarray(0, cut) });
      // Invalid UTF-8 and raw NUL bytes at five places (header line, item header, payload start, middle, end).
      const firstNl = body.indexOf(0x0a);
      const secondNl = body.indexOf(0x0a, firstNl + 1);
      const places = [1, firstNl + 2, secondNl + 2, Math.floor(body.length / 2), body.length - 2];
      for (const at of places) {
        for (const bytes of [...INVALID_UTF8, [0x00]])
          cases.push({ name: `invalid bytes in envelope: ${label} at ${at}: ${Buffer.from(bytes).toString("hex")}`, path, body: splice(body, at, bytes) });
      }
    }
    // Item lengths that lie: negative, fractional, huge, strings, off by one either way, and past the end.
    const [headers, items] = envelope;
    const payload = JSON.stringify(items[0]![1]);
    const size = Buffer.byteLength(payload);
    for (const length of [-1, 0, 1.5, size - 1, size + 1, size * 2, 2 ** 32, 2 ** 53, 1e300, "12", null, true, [size], { n: size }]) {
      const lines = [JSON.stringify(headers), JSON.stringify({ ...items[0]![0], length }), payload];
      cases.push({ name: `wrong item length: ${name}: ${JSON.stringify(length)}`, path, body: Buffer.from(lines.join("\n")) });
    }
  }
  const event = serialize(bases["browser error"]!);
  const rest = event.subarray(event.indexOf(0x0a) + 1);
  // Header lines that are not JSON objects, or are followed by more bytes.
  for (const header of ["", "[]", "null", "1", '"x"', "{", '{"event_id":"x"} trailing', '{"a":1}{"b":2}', "{}\r", "\u0000{}", "{\u0000}", "\ufeff{}"]) {
    cases.push({ name: `bad envelope header: ${JSON.stringify(header)}`, path, body: Buffer.concat([Buffer.from(`${header}\n`), rest]) });
  }
  for (const itemHeader of [
    "{}",
    '{"type":""}',
    '{"type":null}',
    '{"type":7}',
    '{"type":["event"]}',
    "[]",
    '{"type":"event"',
    '{"type":"event"}x',
    '{"type":"\\u0000"}',
  ]) {
    cases.push({ name: `bad item header: ${itemHeader}`, path, body: Buffer.from(`{}\n${itemHeader}\n{"message":"x"}\n`) });
  }
  // Nesting past the header limit and past serde_json's in payloads, in each place it can be.
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
  for (const depth of [INGEST_LIMITS.maxHeaderDepth + 1, 1000, 100_000]) {
    cases.push({ name: `deep nesting: envelope header ${depth}`, path, body: Buffer.from(`{"x":${deep(depth)}}\n{"type":"event"}\n{}\n`) });
    cases.push({ name: `deep nesting: item header ${depth}`, path, body: Buffer.from(`{}\n{"type":"event","x":${deep(depth)}}\n{}\n`) });
  }
  for (const depth of [INGEST_LIMITS.maxJsonDepth - 1, INGEST_LIMITS.maxJsonDepth + 1, 10_000, 100_000]) {
    const nested = `{"message":"deep","extra":{"x":${deep(depth)}}}`;
    cases.push({ name: `deep nesting: event without header id ${depth}`, path, body: Buffer.from(`{}\n{"type":"event"}\n${nested}\n`) });
    cases.push({
      name: `deep nesting: event with header id ${depth}`,
      path,
      body: Buffer.from(`{"event_id":"${"d".repeat(31)}${(depth % 10).toString()}"}\n{"type":"event"}\n${nested}\n`),
    });
    cases.push({
      name: `deep nesting: session ${depth}`,
      path,
      body: Buffer.from(`{}\n{"type":"session"}\n{"sid":"x","attrs":${deep(depth).replace("[]", "{}")}}\n`),
    });
    cases.push({ name: `deep nesting: span ${depth}`, path, body: Buffer.from(`{}\n{"type":"span"}\n{"data":${deep(depth)}}\n`) });
  }
  // Too many items: tiny ones, and one past the cap.
  const many = (n: number) => Buffer.from(`{}\n${'{"type":"client_report"}\n{}\n'.repeat(n)}`);
  cases.push({ name: "too many items: one past the cap", path, body: many(INGEST_LIMITS.maxItemsPerEnvelope + 1) });
  cases.push({ name: "too many items: header-only items, tens of thousands", path, body: Buffer.from(`{}\n${'{"type":"a"}\n'.repeat(50_000)}`) });
  cases.push({ name: "too many items: two events", path, body: Buffer.from(`{}\n{"type":"event"}\n{}\n{"type":"event"}\n{}\n`) });
  cases.push({
    name: "too many items: 101 sessions",
    path,
    body: Buffer.from(`{}\n${'{"type":"session"}\n{"sid":"a","started":"2020-01-01T00:00:00Z","attrs":{"release":"r"}}\n'.repeat(101)}`),
  });
  // Oversized items, each just past its limit.
  for (const [type, limit] of [
    ["event", INGEST_LIMITS.maxEventBytes],
    ["client_report", INGEST_LIMITS.maxClientReportBytes],
    ["check_in", INGEST_LIMITS.maxCheckInBytes],
    ["session", INGEST_LIMITS.maxOtherItemBytes],
  ] as const) {
    const payload = `{"x":"${"a".repeat(limit)}"}`;
    cases.push({ name: `oversized item: ${type}`, path, body: Buffer.from(`{}\n{"type":"${type}","length":${payload.length}}\n${payload}\n`) });
  }
  // An empty body, a body of whitespace, one newline.
  for (const body of ["", " ", "\n", "\n\n\n", "\r\n"]) cases.push({ name: `empty envelope: ${JSON.stringify(body)}`, path, body: Buffer.from(body) });
  return cases;
}
