// Grouping's memories. The stack trace rules' per-stack memory (grouping/enhancements/apply.ts): a stack whose key is
// past its bound (long paths and names, as a hostile 1 MiB event could send) is matched again every time, and groups
// the same each time as a short stack that is remembered. The digest's memory of whole events (grouping/memo.ts):
// hashes remembered by the config's key are the hashes groupEvent computes.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { groupEvent, groupHashes } from "../../src/digest/grouping";
import { MAX_REMEMBERED_INPUTS, rememberedHashes } from "../../src/digest/grouping/memo";
import type { GroupingConfig } from "../../src/digest/grouping/types";

const event = (frames: number, nameLength: number) => ({
  platform: "javascript",
  exception: {
    values: [
      {
        type: "TypeError",
        value: "x is undefined",
        stacktrace: {
          frames: Array.from({ length: frames }, (_, i) => ({
            abs_path: `https://shop.example.com/_next/static/chunks/${"p".repeat(nameLength)}-${i}.js`,
            function: `${"f".repeat(nameLength)}${i}`,
            lineno: 1,
            colno: i + 1,
            in_app: i % 2 === 0,
          })),
        },
      },
    ],
  },
});

test("a stack past the memory's key bound (200 frames with 200-character names) groups the same every time", () => {
  const long = JSON.stringify(event(200, 200));
  const first = groupEvent(JSON.parse(long));
  assert.ok(first.hashes.length > 0);
  assert.deepEqual(groupEvent(JSON.parse(long)), first);
  assert.deepEqual(groupEvent(JSON.parse(long)), first);
});

test("a short stack, remembered after its first event, groups the same as the first time", () => {
  const short = JSON.stringify(event(5, 10));
  const first = groupEvent(JSON.parse(short));
  assert.deepEqual(groupEvent(JSON.parse(short)), first);
});

// The digest's memory of whole events (grouping/memo.ts): hashes remembered by the config's key must be the hashes
// groupEvent computes, for any event, in any order. Events are drawn from small pools so that most of them share
// their stack, message or exception with an earlier one and differ in something else the grouping may read: the
// fingerprint and its variables, a security report, the template, the platform.
const frame = fc.record(
  {
    function: fc.constantFrom("handleClick", "dispatchEvent", "<anonymous>", "?"),
    filename: fc.constantFrom("app.js", "node_modules/react-dom/index.js", "https://shop.example.com/a-1.js"),
    module: fc.constantFrom("app.views", "django.core"),
    lineno: fc.constantFrom(1, 2, "2"),
    context_line: fc.constantFrom("throw e", "x()"),
    in_app: fc.boolean(),
  },
  { requiredKeys: [] },
);
const exception = fc.record(
  {
    type: fc.constantFrom("TypeError", "ValueError"),
    value: fc.constantFrom("x is undefined", "id 1234 missing", "Error: boom", "TypeError: y"),
    stacktrace: fc.record({ frames: fc.array(frame, { maxLength: 3 }) }),
    mechanism: fc.record({ type: fc.constantFrom("generic", "onerror"), synthetic: fc.boolean() }, { requiredKeys: ["type"] }),
  },
  { requiredKeys: [] },
);
const reports = {
  csp: fc.record({
    blocked_uri: fc.constantFrom("self", "https://cdn.example.com/x.js"),
    violated_directive: fc.constantFrom("script-src 'unsafe-inline'", "img-src"),
  }),
  hpkp: fc.record({ hostname: fc.constantFrom("a.example.com", "b.example.com") }),
};
const fingerprints = fc.constantFrom(["{{ default }}"], ["checkout"], ["{{ default }}", "{{ transaction }}"], ["{{ type }}", "{{ level }}"], [7], []);
// Most events are grouped by their stack, exception, message or template; one in five carries a fingerprint and one
// in ten a security report, which the memory must leave alone.
const anyEvent = fc
  .tuple(
    fc.record(
      {
        platform: fc.constantFrom("javascript", "python", "native", "other"),
        exception: fc.record({ values: fc.array(exception, { maxLength: 2 }) }),
        stacktrace: fc.record({ frames: fc.array(frame, { maxLength: 2 }) }),
        threads: fc.record({ values: fc.array(fc.record({ stacktrace: fc.record({ frames: fc.array(frame, { maxLength: 2 }) }) }), { maxLength: 2 }) }),
        message: fc.constantFrom("Order 1234 failed", "Order failed", ""),
        logentry: fc.record({ message: fc.constantFrom("user %s left", "bye"), formatted: fc.constantFrom("user 7 left", "bye") }, { requiredKeys: [] }),
        transaction: fc.constantFrom("/cart", "/checkout"),
        level: fc.constantFrom("error", "fatal"),
        template: fc.record({ filename: fc.constantFrom("a.html", "b.html"), context_line: fc.constantFrom("{{ x }}", "{% y %}") }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    ),
    fc.integer({ min: 0, max: 9 }),
    fingerprints,
    reports.csp,
    reports.hpkp,
  )
  .map(([event, dice, fingerprint, csp, hpkp]): Record<string, unknown> => {
    if (dice <= 1) return { ...event, fingerprint };
    if (dice === 2) return { ...event, csp };
    if (dice === 3) return { ...event, hpkp };
    return event;
  });

test("the digest's remembered hashes are groupEvent's for any sequence of events that share parts", () => {
  fc.assert(
    fc.property(fc.array(anyEvent, { minLength: 1, maxLength: 12 }), (events) => {
      for (const e of events) {
        const want = groupEvent(structuredClone(e));
        assert.deepEqual(groupHashes(structuredClone(e)), { config: want.config, hashes: want.hashes });
      }
    }),
    { numRuns: 300, seed: 2211 },
  );
});

test("an event that differs from a remembered one in one part the grouping reads gets groupEvent's hashes", () => {
  const parts = ["platform", "exception", "stacktrace", "threads", "message", "logentry", "fingerprint", "transaction", "level", "template", "csp", "hpkp"];
  fc.assert(
    fc.property(anyEvent, fc.constantFrom(...parts), anyEvent, (first, part, other) => {
      const second = { ...first };
      if (part in other) second[part] = other[part];
      else delete second[part];
      for (const e of [first, second]) {
        const want = groupEvent(structuredClone(e));
        assert.deepEqual(groupHashes(structuredClone(e)), { config: want.config, hashes: want.hashes });
      }
    }),
    { numRuns: 2000, seed: 2212 },
  );
});

test("two events with one stack and different custom fingerprints or fingerprint variables keep their own hashes", () => {
  const base = {
    platform: "python",
    exception: { values: [{ type: "ValueError", value: "bad", stacktrace: { frames: [{ function: "f", module: "app", in_app: true }] } }] },
  };
  const plain = groupHashes(structuredClone(base)).hashes;
  const custom = groupHashes({ ...structuredClone(base), fingerprint: ["checkout"] }).hashes;
  const cart = groupHashes({ ...structuredClone(base), fingerprint: ["{{ default }}", "{{ transaction }}"], transaction: "/cart" }).hashes;
  const checkout = groupHashes({ ...structuredClone(base), fingerprint: ["{{ default }}", "{{ transaction }}"], transaction: "/checkout" }).hashes;
  assert.equal(new Set([plain, custom, cart, checkout].map((h) => JSON.stringify(h))).size, 4);
  assert.deepEqual(groupHashes(structuredClone(base)).hashes, plain);
});

test("the memory forgets its least recently used input when full, and keeps one used since", () => {
  const grouped: string[] = [];
  // A config whose key is the event's `k` and whose hashes say which input they are, counting what it groups.
  const config = {
    id: "test:lru",
    key: (e: { k: string }) => e.k,
    group: (e: { k: string }) => {
      grouped.push(e.k);
      return { hashes: [`h-${e.k}`] };
    },
  } as unknown as GroupingConfig;
  const hashesOf = (k: string) => rememberedHashes(config, { k }).hashes;
  for (let i = 0; i < MAX_REMEMBERED_INPUTS; i++) hashesOf(`e${i}`);
  assert.equal(grouped.length, MAX_REMEMBERED_INPUTS);
  assert.deepEqual(hashesOf("e0"), ["h-e0"], "e0, the oldest, used again");
  assert.equal(grouped.length, MAX_REMEMBERED_INPUTS, "remembered, not grouped again");
  hashesOf("new");
  assert.deepEqual(grouped.slice(-1), ["new"]);
  assert.deepEqual(hashesOf("e0"), ["h-e0"]);
  assert.deepEqual(grouped.slice(-1), ["new"], "e0 was kept: used since e1 was");
  assert.deepEqual(hashesOf("e1"), ["h-e1"]);
  assert.deepEqual(grouped.slice(-1), ["e1"], "e1, the least recently used, was forgotten and grouped again");
  assert.deepEqual(hashesOf("e2"), ["h-e2"]);
  assert.deepEqual(grouped.slice(-1), ["e2"], "adding e1 back forgot e2, the next least recently used");
});
