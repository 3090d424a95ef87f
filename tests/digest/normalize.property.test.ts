// Properties of normalizeEvent over generated input (fast-check): for any JSON value, and for realistic events with
// arbitrary JSON put at arbitrary places, it returns without throwing an event with event_id, a numeric timestamp,
// a valid level and a platform, whose JSON round-trips unchanged, and running it again changes nothing further.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import fc from "fast-check";
import { normalizeEvent, type NormalizedEvent } from "../../src/digest/normalize";

const RUNS = { numRuns: 400 };
const TIMEOUT = { timeout: 60_000 };
const LEVELS = new Set(["debug", "info", "warning", "error", "fatal"]);
const FIXTURES = ["js-browser", "python-nan", "go-bare", "ruby-raven"].map(
  (name) => JSON.parse(readFileSync(new URL(`fixtures/normalize/${name}.json`, import.meta.url), "utf8")) as unknown,
);
const KEYS = [
  "timestamp",
  "start_timestamp",
  "level",
  "platform",
  "release",
  "dist",
  "environment",
  "tags",
  "exception",
  "values",
  "breadcrumbs",
  "threads",
  "stacktrace",
  "frames",
  "lineno",
  "colno",
  "abs_path",
  "filename",
  "user",
  "ip_address",
  "request",
  "headers",
  "cookies",
  "query_string",
  "url",
  "env",
  "contexts",
  "type",
  "logentry",
  "message",
  "params",
  "formatted",
  "fingerprint",
  "extra",
  "modules",
  "sdk",
  "spans",
  "server_name",
  "transaction",
  "measurements",
  "__proto__",
];

const ctxArb = fc.record({
  receivedAt: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  eventId: fc.constantFrom("52df9022835246eeb317dbd739ccd059", "52df9022-8352-46ee-b317-dbd739ccd059"),
  clientIp: fc.constantFrom(null, undefined, "203.0.113.7", "::1", "{{auto}}", "garbage"),
  itemType: fc.constantFrom("event", "transaction", "security", "feedback"),
});
const json = fc.jsonValue({ maxDepth: 4 });
// Objects with the keys normalization reads, filled with arbitrary JSON.
const eventish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small" }, json, fc.dictionary(fc.constantFrom(...KEYS), tie("node"), { maxKeys: 6 }), fc.array(tie("node"), { maxLength: 4 })),
})).node;

type Step = string | number;
/** Every path to a value inside a JSON document. */
function paths(value: unknown, prefix: Step[] = []): Step[][] {
  const out: Step[][] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}
function replaceAt(doc: unknown, at: Step[], value: unknown): unknown {
  if (at.length === 0) return value;
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let node = copy;
  for (const step of at.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[at[at.length - 1] as Step] = value;
  return copy;
}
const mutated = fc.tuple(fc.constantFrom(...FIXTURES), fc.array(fc.tuple(fc.nat(), eventish), { minLength: 1, maxLength: 4 })).map(([doc, edits]) =>
  edits.reduce((d, [pick, value]) => {
    const all = paths(d);
    return replaceAt(d, all[pick % all.length] ?? [], value);
  }, doc),
);

function checkShape(event: NormalizedEvent): void {
  assert.equal(typeof event.event_id, "string");
  assert.match(event.event_id, /^[0-9a-f]{32}$/);
  assert.ok(Number.isFinite(event.timestamp), "timestamp is a number");
  assert.ok(LEVELS.has(event.level), `level ${String(event.level)}`);
  assert.equal(typeof event.platform, "string");
  assert.ok(Array.isArray(event.errors));
  assert.deepEqual(JSON.parse(JSON.stringify(event)), event, "JSON-serializable without loss");
}

describe("normalizeEvent properties", () => {
  test("any JSON value: never throws, always a well-formed event", TIMEOUT, () => {
    fc.assert(
      fc.property(fc.oneof(json, eventish), ctxArb, (input, ctx) => checkShape(normalizeEvent(input, ctx).event)),
      RUNS,
    );
  });
  test("realistic events with arbitrary JSON at arbitrary places: never throws, always well-formed", TIMEOUT, () => {
    fc.assert(
      fc.property(mutated, ctxArb, (input, ctx) => checkShape(normalizeEvent(input, ctx).event)),
      RUNS,
    );
  });
  test("the output normalizes to itself (idempotent), apart from the errors list", TIMEOUT, () => {
    fc.assert(
      fc.property(fc.oneof(mutated, eventish), ctxArb, (input, ctx) => {
        const once = normalizeEvent(input, ctx).event;
        const twice = normalizeEvent(once, ctx);
        const { errors: _a, ...a } = once;
        const { errors: _b, ...b } = twice.event;
        assert.deepEqual(b, a);
      }),
      RUNS,
    );
  });
  // Found by the property above (seed -1048333838): an empty `environment` tag became an empty environment, which the
  // second pass then removed. The tag's value now meets the field's rules in the first pass.
  test("an environment tag is held to the environment field's rules, so the output normalizes to itself", () => {
    const ctx = { receivedAt: 0, eventId: "52df9022835246eeb317dbd739ccd059", clientIp: null, itemType: "event" };
    const cases: [unknown, string | undefined][] = [
      [{ tags: { environment: "" } }, undefined],
      [{ tags: { environment: "   " } }, undefined],
      [{ tags: { environment: "a/b" } }, undefined],
      [{ tags: { environment: "  prod  " } }, "prod"],
      [{ tags: [["environment", "staging"]] }, "staging"],
      [{ environment: "", tags: { environment: "staging" } }, "staging"],
      [{ environment: "live", tags: { environment: "staging" } }, "live"],
    ];
    for (const [input, environment] of cases) {
      const once = normalizeEvent(input, ctx).event;
      assert.equal(once.environment, environment, JSON.stringify(input));
      const { errors: _a, ...a } = once;
      const { errors: _b, ...b } = normalizeEvent(once, ctx).event;
      assert.deepEqual(b, a, JSON.stringify(input));
    }
  });
});
