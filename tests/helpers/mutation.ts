// Random damage for property tests: byte flips, truncations and insertions at arbitrary places, biased towards the
// bytes the envelope grammar cares about (newline, CR, braces, quotes, digits) and bytes that are not UTF-8.
import fc from "fast-check";

const INTERESTING = [0x0a, 0x0d, 0x7b, 0x7d, 0x22, 0x3a, 0x2c, 0x20, 0x30, 0x39, 0x2d, 0x5c, 0x00, 0xff, 0x80, 0xc3];
const SNIPPETS = ["\n", "\r\n", "}", '{"type":"x"}\n', '"length":', "99999"].map((s) => Buffer.from(s));

export const mutation = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), byte: fc.oneof(fc.constantFrom(...INTERESTING), fc.integer({ min: 0, max: 255 })) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    bytes: fc.oneof(fc.uint8Array({ minLength: 1, maxLength: 8 }), fc.constantFrom(...SNIPPETS)),
  }),
);
export type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;
export const mutations = fc.array(mutation, { minLength: 1, maxLength: 4 });

/** Applies the mutations in order to a copy of input; positions are taken modulo the length, never before `from`. */
export function mutate(input: Uint8Array, list: Mutation[], from = 0): Buffer {
  let b = Buffer.from(input);
  for (const m of list) {
    const room = b.length - from + (m.kind === "insert" ? 1 : 0);
    if (room <= 0) continue;
    const at = from + (m.at % room);
    if (m.kind === "flip") b[at] = m.byte;
    else if (m.kind === "truncate") b = b.subarray(0, at);
    else b = Buffer.concat([b.subarray(0, at), m.bytes, b.subarray(at)]);
  }
  return b;
}
