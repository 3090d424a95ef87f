// Event normalization, field by field: timestamps, levels, Values wrappers, tags and pairs, trimming, top-level
// attributes and defaults. Cases come from Relay's own unit tests where it has them.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { normalizeEvent, type NormalizeContext } from "../../src/digest/normalize";
import { parseLevel } from "../../src/digest/normalize/levels";
import { FIELD_CAPS, MAX_CHARS, MAX_PROCESSING_ERRORS, MAX_SECS_IN_PAST } from "../../src/digest/normalize/limits";
import { trimString } from "../../src/digest/normalize/strings";
import { parseTimestamp } from "../../src/digest/normalize/timestamps";

// 2026-01-01T00:00:00Z
const RECEIVED = 1_767_225_600;
const ctx = (extra: Partial<NormalizeContext> = {}): NormalizeContext => ({
  receivedAt: RECEIVED * 1000,
  eventId: "52df9022-8352-46ee-b317-dbd739ccd059",
  itemType: "event",
  ...extra,
});
const run = (input: unknown, extra: Partial<NormalizeContext> = {}) => normalizeEvent(input, ctx(extra));
const types = (errors: { type: string; name: string }[]) => errors.map((e) => `${e.type}:${e.name}`);

describe("timestamps (types.rs `impl FromValue for Timestamp`)", () => {
  test("RFC 3339, naïve ISO read as UTC, and numbers are the same instant (event.rs doc example)", () => {
    for (const v of ["2011-05-02T17:41:36Z", "2011-05-02T17:41:36", "2011-05-02T17:41:36.000", 1304358096.0, "2011-05-02T19:41:36+02:00"]) {
      const t = parseTimestamp(v);
      assert.deepEqual(t, { ok: true, seconds: 1304358096 }, String(v));
    }
  });
  test("fractions are kept to the microsecond", () => {
    assert.deepEqual(parseTimestamp("2026-01-01T00:00:00.1234567Z"), { ok: true, seconds: RECEIVED + 0.123457 });
    assert.deepEqual(parseTimestamp(RECEIVED + 0.5), { ok: true, seconds: RECEIVED + 0.5 });
  });
  test("years above 9999 are out of range (test_timestamp_year_out_of_range: 1562770897893)", () => {
    assert.deepEqual(parseTimestamp(1562770897893), { ok: false, reason: "timestamp out of range" });
    assert.deepEqual(parseTimestamp(-10000000000000000.0), { ok: false, reason: "timestamp out of range" });
    assert.equal(parseTimestamp("10000-01-01T00:00:00Z")?.ok, false);
  });
  test("garbage and impossible dates are rejected", () => {
    for (const v of ["yesterday", "2026-02-30T00:00:00Z", "2026-01-01", "2026-01-01T25:00:00Z", true, {}, []]) {
      assert.equal(parseTimestamp(v)?.ok, false, JSON.stringify(v));
    }
    assert.equal(parseTimestamp(null), undefined);
  });
  test("a missing timestamp becomes the receive time, without an error (as Relay)", () => {
    const { event, errors } = run({});
    assert.equal(event.timestamp, RECEIVED);
    assert.equal(event.received, RECEIVED);
    assert.deepEqual(errors, []);
  });
  test("an unparseable timestamp becomes the receive time with invalid_data", () => {
    const { event, errors } = run({ timestamp: "not a date" });
    assert.equal(event.timestamp, RECEIVED);
    assert.deepEqual(types(errors), ["invalid_data:timestamp"]);
    assert.equal(errors[0]?.value, "not a date");
  });
  test("within a minute ahead is accepted as sent", () => {
    const { event, errors } = run({ timestamp: RECEIVED + 60 });
    assert.equal(event.timestamp, RECEIVED + 60);
    assert.deepEqual(errors, []);
  });
  test("further ahead is clock drift: all timestamps shift by it, with future_timestamp (clock_drift.rs)", () => {
    const drift = 86_400;
    const { event, errors } = run(
      { type: "transaction", timestamp: RECEIVED + drift, start_timestamp: RECEIVED + drift - 2, breadcrumbs: [{ timestamp: RECEIVED + drift - 5 }] },
      { itemType: "transaction" },
    );
    assert.equal(event.timestamp, RECEIVED);
    assert.equal(event.start_timestamp, RECEIVED - 2);
    assert.equal(event.breadcrumbs?.values[0]?.timestamp, RECEIVED - 5);
    assert.deepEqual(errors, [
      { type: "future_timestamp", name: "timestamp", sdk_time: "2026-01-02T00:00:00.000+00:00", server_time: "2026-01-01T00:00:00.000+00:00" },
    ]);
  });
  test("older than 30 days is clamped with past_timestamp; 30 days exactly is not", () => {
    const old = run({ timestamp: RECEIVED - MAX_SECS_IN_PAST - 1 });
    assert.equal(old.event.timestamp, RECEIVED);
    assert.deepEqual(types(old.errors), ["past_timestamp:timestamp"]);
    const edge = run({ timestamp: RECEIVED - MAX_SECS_IN_PAST });
    assert.equal(edge.event.timestamp, RECEIVED - MAX_SECS_IN_PAST);
    assert.deepEqual(edge.errors, []);
  });
  test("a start_timestamp that does not parse is removed with invalid_data", () => {
    const { event, errors } = run({ type: "transaction", start_timestamp: "soon", timestamp: RECEIVED }, { itemType: "transaction" });
    assert.equal(event.start_timestamp, undefined);
    assert.deepEqual(types(errors), ["invalid_data:start_timestamp"]);
  });
});

describe("levels (types.rs `test_level`, `from_python_level`)", () => {
  test("names and aliases", () => {
    assert.equal(parseLevel("log"), "info");
    assert.equal(parseLevel("critical"), "fatal");
    for (const l of ["debug", "info", "warning", "error", "fatal"]) assert.equal(parseLevel(l), l);
  });
  test("Python logging numbers", () => {
    assert.deepEqual([10, 20, 30, 40, 50].map(parseLevel), ["debug", "info", "warning", "error", "fatal"]);
    assert.equal(parseLevel(35), undefined);
  });
  test("levels match case-sensitively, as in Relay; `warn` is taken as warning, unlike Relay", () => {
    assert.equal(parseLevel("WARNING"), undefined);
    assert.equal(parseLevel("warn"), "warning");
  });
  test("an invalid level is reported and the default applies: error for events, info for transactions", () => {
    const e = run({ level: "loud" });
    assert.equal(e.event.level, "error");
    assert.deepEqual(types(e.errors), ["invalid_data:level"]);
    assert.equal(run({}).event.level, "error");
    assert.equal(run({ type: "transaction" }, { itemType: "transaction" }).event.level, "info");
    assert.equal(run({ level: 30 }).event.level, "warning");
  });
});

describe("Values wrappers (types.rs `test_values_deserialization`)", () => {
  const exc = { type: "E", value: "v" };
  test("a wrapper, a bare array and a single object all become {values}", () => {
    for (const input of [{ values: [exc] }, [exc], exc]) {
      const { event } = run({ exception: input });
      assert.deepEqual(event.exception, { values: [exc] }, JSON.stringify(input));
    }
    assert.deepEqual(run({ threads: [{ id: 1 }] }).event.threads, { values: [{ id: 1 }] });
    assert.deepEqual(run({ breadcrumbs: { values: [] } }).event.breadcrumbs, { values: [] });
  });
  test("an empty object is no value; a string is invalid_data", () => {
    assert.equal(run({ exception: {} }).event.exception, undefined);
    const s = run({ exception: "boom" });
    assert.equal(s.event.exception, undefined);
    assert.deepEqual(types(s.errors), ["invalid_data:exception"]);
  });
});

describe("tags and pairs (types.rs `PairList`, event.rs `normalize_event_tags`)", () => {
  test("an object and a pair list give the same stored pairs; values as LenientString", () => {
    const a = run({ tags: { a: "1", b: 2, c: true } }).event.tags;
    const b = run({
      tags: [
        ["a", "1"],
        ["b", 2],
        ["c", true],
      ],
    }).event.tags;
    assert.deepEqual(a, [
      ["a", "1"],
      ["b", "2"],
      ["c", "True"],
    ]);
    assert.deepEqual(b, a);
  });
  test("reserved keys go, duplicates keep the first, environment tag fills environment", () => {
    const { event } = run({
      tags: [
        ["release", "x"],
        ["a", "1"],
        ["a", "2"],
        ["environment", "staging"],
        ["user", "u"],
      ],
    });
    assert.deepEqual(event.tags, [["a", "1"]]);
    assert.equal(event.environment, "staging");
  });
  test("keys or values over 200 characters are removed with value_too_long; empty ones with invalid_data", () => {
    const { event, errors } = run({ tags: { ok: "x".repeat(200), long: "x".repeat(201), ["k".repeat(201)]: "v", empty: "" } });
    assert.deepEqual(event.tags, [["ok", "x".repeat(200)]]);
    assert.deepEqual(types(errors), ["value_too_long:tags.1", "value_too_long:tags.2", "invalid_data:tags.3"]);
  });
  test("server_name and site move into tags", () => {
    const { event } = run({ server_name: "web-1", site: "eu", tags: { a: "b" } });
    assert.deepEqual(event.tags, [
      ["a", "b"],
      ["server_name", "web-1"],
      ["site", "eu"],
    ]);
    assert.equal(event.server_name, undefined);
  });
  test("malformed pairs are dropped with invalid_data", () => {
    const { event, errors } = run({ tags: [["a", "1"], ["b"], "c", [1, "x"], ["d", { x: 1 }]] });
    assert.deepEqual(event.tags, [["a", "1"]]);
    assert.deepEqual(types(errors), ["invalid_data:tags.1", "invalid_data:tags.2", "invalid_data:tags.3", "invalid_data:tags.4"]);
  });
});

describe("trimming (trimming.rs `test_string_trimming`, `test_basic_trimming`, `test_databag_stripping`)", () => {
  test("a long string keeps limit-3 characters and '...'", () => {
    assert.equal(trimString("This is my long string I want to have trimmed!", 20), "This is my long s...");
    assert.equal(trimString("short", 20), "short");
    assert.equal(trimString("😀".repeat(25), 20), `${"😀".repeat(17)}...`);
  });
  test("culprit and transaction at 200, release at 200, logentry at 8192", () => {
    const { event } = run({ culprit: "x".repeat(300), transaction: "t".repeat(201), release: "r".repeat(250), message: "m".repeat(9000) });
    assert.equal(event.culprit, trimString("x".repeat(300), 200));
    assert.equal((event.culprit as string).length, 200);
    assert.equal(event.transaction?.toString().length, MAX_CHARS.transaction);
    assert.equal(event.release?.length, 200);
    assert.equal(event.logentry?.formatted?.length, FIELD_CAPS.message.limit);
  });
  test("extra deeper than 7 levels turns its last level into JSON text", () => {
    const nest = (d: number): unknown => (d === 0 ? "max depth" : { [`key${d}`]: nest(d - 1) });
    const { event } = run({ extra: { key_1: "value 1", key_2: nest(8), key_3: nest(5) } });
    assert.deepEqual(event.extra, {
      key_1: "value 1",
      key_2: { key8: { key7: { key6: { key5: { key4: '{"key3":{"key2":{"key1":"max depth"}}}' } } } } },
      key_3: nest(5),
    });
  });
});

describe("top-level attributes and defaults (event.rs `normalize_default_attributes`)", () => {
  test("platform defaults to other; an unknown platform is replaced", () => {
    assert.equal(run({}).event.platform, "other");
    assert.equal(run({ platform: "brainfuck" }).event.platform, "other");
    assert.equal(run({ platform: "python" }).event.platform, "python");
  });
  test("environment is not defaulted; release, dist and environment are trimmed", () => {
    const { event } = run({ release: "  1.0 ", dist: " 42 ", environment: " prod " });
    assert.equal(event.environment, "prod");
    assert.equal(event.release, "1.0");
    assert.equal(event.dist, "42");
    assert.equal(run({}).event.environment, undefined);
  });
  test("invalid releases and environments are removed with invalid_data; a long dist with value_too_long", () => {
    const { event, errors } = run({ release: "a/b", environment: "x\ny", dist: "d".repeat(65) });
    assert.equal(event.release, undefined);
    assert.equal(event.environment, undefined);
    assert.equal(event.dist, undefined);
    assert.deepEqual(types(errors), ["invalid_data:release", "invalid_data:environment", "value_too_long:dist"]);
  });
  test("a numeric release is a LenientString", () => {
    assert.equal(run({ release: 12 }).event.release, "12");
  });
  test("fingerprint: strings, bools and numbers as Relay's tests; bad items reported together", () => {
    assert.deepEqual(run({ fingerprint: [true, false] }).event.fingerprint, ["True", "False"]);
    assert.deepEqual(run({ fingerprint: [-22, 3.0, 3.5] }).event.fingerprint, ["-22", "3", "3"]);
    assert.deepEqual(run({ fingerprint: ["a", null, "d"] }).event.fingerprint, ["a", "d"]);
    const bad = run({ fingerprint: [-1e100] });
    assert.equal(bad.event.fingerprint, undefined);
    assert.deepEqual(bad.errors, [{ type: "invalid_data", name: "fingerprint", value: [-1e100] }]);
    const mixed = run({ fingerprint: ["a", { x: 1 }] });
    assert.deepEqual(mixed.event.fingerprint, ["a"]);
    assert.deepEqual(types(mixed.errors), ["invalid_data:fingerprint"]);
    assert.deepEqual(types(run({ fingerprint: "a" }).errors), ["invalid_data:fingerprint"]);
  });
  test("event_id from the context, as 32 hex digits; received; type inferred; unknown fields kept", () => {
    const { event } = run({ event_id: "ignored", custom_field: { a: [1] }, exception: [{ type: "E" }] });
    assert.equal(event.event_id, "52df9022835246eeb317dbd739ccd059");
    assert.equal(event.type, "error");
    assert.deepEqual(event.custom_field, { a: [1] });
    assert.equal(run({}).event.type, "default");
  });
  test("a string where an object belongs is removed with invalid_data; modules keep string versions", () => {
    const { event, errors } = run({ extra: "x", sdk: 3, modules: { a: "1", b: 2 } });
    assert.deepEqual(event.extra, {});
    assert.equal(event.sdk, undefined);
    assert.deepEqual(event.modules, { a: "1" });
    assert.deepEqual(types(errors), ["invalid_data:modules.b", "invalid_data:extra", "invalid_data:sdk"]);
  });
  test("measurements are kept only on transactions", () => {
    assert.equal(run({ measurements: { lcp: { value: 1 } } }).event.measurements, undefined);
    assert.deepEqual(run({ type: "transaction", measurements: { lcp: { value: 1 } } }, { itemType: "transaction" }).event.measurements, { lcp: { value: 1 } });
  });
  test("a non-object input gives an empty normalized event with invalid_data", () => {
    for (const input of [null, 3, "x", [1]]) {
      const { event, errors } = run(input);
      assert.equal(event.platform, "other");
      assert.deepEqual(types(errors), ["invalid_data:"]);
    }
  });
  test("the input is not modified", () => {
    const input = { tags: { a: "1" }, exception: [{ value: "E: v" }] };
    const copy = structuredClone(input);
    run(input);
    assert.deepEqual(input, copy);
  });
});

test("an empty server_name is dropped, not made an empty tag (a case fast-check found: normalizing twice differed)", () => {
  const out = normalizeEvent({ message: "m", server_name: "  " }, { receivedAt: Date.now(), eventId: "a".repeat(32), itemType: "event" }).event;
  assert.equal(out.tags, undefined);
  assert.equal((out as Record<string, unknown>).server_name, undefined);
});

describe("processing errors (event.errors)", () => {
  test(`at most MAX_PROCESSING_ERRORS kept, the rest counted in the last: a megabyte of invalid breadcrumbs made 50 MB of them`, () => {
    const invalid = 500_000;
    const { event } = run({ message: "m", breadcrumbs: { values: new Array(invalid).fill(0) }, errors: [{ type: "invalid_data", name: "sdk" }] });
    const errors = event.errors as { type: string; name: string; reason?: string }[];
    assert.equal(errors.length, MAX_PROCESSING_ERRORS);
    assert.equal(errors[0]!.name, "sdk", "the SDK's own first");
    assert.deepEqual(errors.at(-1), {
      type: "invalid_data",
      name: "errors",
      reason: `${invalid + 1 - (MAX_PROCESSING_ERRORS - 1)} more processing errors were not kept`,
    });
    assert.ok(JSON.stringify(event).length < 100_000, "the event stays small");
  });
  test("an SDK's own list is kept to the same number, and what it left out is counted", () => {
    const { event } = run({ message: "m", errors: Array.from({ length: 250 }, (_, i) => ({ type: "invalid_data", name: `f${i}` })) });
    const errors = event.errors as { name: string; reason?: string }[];
    assert.equal(errors.length, MAX_PROCESSING_ERRORS);
    assert.equal(errors.at(-1)!.reason, `${250 - (MAX_PROCESSING_ERRORS - 1)} more processing errors were not kept`);
    const few = run({ message: "m", errors: [{ type: "invalid_data", name: "a" }] }).event.errors as unknown[];
    assert.equal(few.length, 1, "a short list as sent");
  });
});
