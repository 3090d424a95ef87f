// Unit tests for the event-level rules of Faultline's port of Sentry's grouping
// (newstyle:2023-01-11): exceptions, chains, threads, messages and their parameterization,
// client fingerprints, the fallback, the config registry and malformed input.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { DEFAULT_GROUPING_CONFIG, groupEvent, groupingConfigIds, normalizeMessageForGrouping } from "../../src/digest/grouping";

const md5 = (...parts: string[]): string => createHash("md5").update(parts.join("")).digest("hex");
const exc = (e: Record<string, unknown>, extra: Record<string, unknown> = {}): unknown => ({
  platform: "python",
  exception: { values: [e] },
  ...extra,
});

test("an exception without value and stacktrace hashes its type: md5('ValueError')", () => {
  const r = groupEvent(exc({ type: "ValueError" }));
  assert.equal(r.variants.app?.hash, "5a2cfd89b7b171fd7b4794b08023d04f");
  assert.deepEqual(r.hashes, ["5a2cfd89b7b171fd7b4794b08023d04f"]);
});

test("javascript exception without in-app frames: system hash 26552f86…, app hash null", () => {
  const frame = (module: string, file: string, line: string, fn?: string): unknown => ({
    module,
    filename: `./${file}`,
    abs_path: `webpack:///./${file}`,
    in_app: false,
    context_line: line,
    data: { sourcemap: "https://cdn.example/app.js.map" },
    ...(fn ? { function: fn } : {}),
  });
  const r = groupEvent({
    platform: "javascript",
    exception: {
      values: [
        {
          type: "TypeError",
          value: "Cannot read property 'submitError' of null",
          stacktrace: {
            frames: [
              frame("app/components/modals/createTeamModal", "app/components/modals/createTeamModal.jsx", "        onError(err);"),
              frame(
                "app/views/settings/components/forms/form",
                "app/views/settings/components/forms/form.jsx",
                "    this.model.submitError(error);",
                "onError",
              ),
            ],
          },
        },
      ],
    },
  });
  assert.equal(r.variants.system?.hash, "26552f86ca2368e708afa1df6effc1c5");
  assert.equal(r.variants.app?.hash, null);
  assert.equal(r.variants.app?.contributes, false);
  assert.deepEqual(r.hashes, ["26552f86ca2368e708afa1df6effc1c5"]);
});

test("the exception value is parameterized and used only when the stacktrace does not contribute", () => {
  assert.equal(groupEvent(exc({ type: "E", value: "id 42 failed" })).variants.app?.hash, md5("E", "id <int> failed"));
  const withStack = exc({ type: "E", value: "id 42", stacktrace: { frames: [{ module: "m", function: "f", in_app: true }] } });
  assert.equal(groupEvent(withStack).variants.app?.hash, md5("m", "f", "E"));
});

test("a synthetic mechanism keeps the type out of the hash", () => {
  const r = groupEvent(exc({ type: "SIGSEGV", value: "crash", mechanism: { type: "signal", synthetic: true } }));
  assert.equal(r.variants.app?.hash, md5("crash"));
});

test("a missing type is split off a 'Type: value' value", () => {
  assert.equal(groupEvent(exc({ value: "KeyError: 'x'" })).variants.app?.hash, md5("KeyError", "'x'"));
});

test("chained exceptions hash every exception in order", () => {
  const r = groupEvent({
    platform: "python",
    exception: {
      values: [
        { type: "KeyError", value: "a", stacktrace: { frames: [{ module: "app.a", function: "f", in_app: true }] } },
        { type: "RuntimeError", value: "b", stacktrace: { frames: [{ module: "app.b", function: "g", in_app: true }] } },
      ],
    },
  });
  assert.equal(r.variants.app?.hash, md5("app.a", "f", "KeyError", "app.b", "g", "RuntimeError"));
  const root = r.variants.app?.component.values[0];
  assert.ok(root !== undefined && typeof root !== "string" && root.id === "chained-exception");
});

test("threads: exactly one thread with a stacktrace groups by it; more threads do not", () => {
  const thread = { stacktrace: { frames: [{ module: "app.worker", function: "run", in_app: true }] } };
  const one = groupEvent({ platform: "java", threads: { values: [thread] } });
  assert.equal(one.variants.app?.hash, md5("app.worker", "run"));
  const two = groupEvent({ platform: "java", threads: { values: [thread, thread] }, message: "stuck" });
  assert.deepEqual(two.hashes, [md5("stuck")]);
});

test("an exception takes precedence over the message", () => {
  const r = groupEvent(exc({ type: "E" }, { logentry: { formatted: "hello" } }));
  assert.equal(r.variants.default?.contributes, false);
  assert.deepEqual(r.hashes, [md5("E")]);
});

test("messages group by the template, not the formatted text", () => {
  const r = groupEvent({ logentry: { message: "User %s failed", formatted: "User bob failed", params: ["bob"] } });
  assert.deepEqual(r.hashes, [md5("User %s failed")]);
  assert.deepEqual(groupEvent({ message: "plain 7" }).hashes, [md5("plain <int>")]);
});

test("message parameterization, pattern by pattern", () => {
  const cases: Array<[string, string]> = [
    ["mail bob@example.com now", "mail <email> now"],
    ["see https://x.io/a?b=1 ok", "see <url> ok"],
    ["from 10.0.0.1 in", "from <ip> in"],
    ["id 123e4567-e89b-12d3-a456-426614174000", "id <uuid>"],
    [`sha ${"a".repeat(40)}`, "sha <sha1>"],
    [`md5 ${"b".repeat(32)}`, "md5 <md5>"],
    ["at 2024-01-02T03:04:05Z", "at <date>"],
    ["addr 0xdeadBEEF", "addr <hex>"],
    ["took 1.5 s", "took <float> s"],
    ["got -3 rows", "got <int> rows"],
    ["key='some value'", "key=<quoted_str>"],
  ];
  for (const [input, want] of cases) assert.equal(normalizeMessageForGrouping(input), want, input);
});

test("messages keep their first two non-empty lines and mark the cut", () => {
  assert.equal(normalizeMessageForGrouping("a\n\nb\nc"), "a\nb...");
  assert.equal(normalizeMessageForGrouping("a\nb"), "a\nb");
});

test("a custom fingerprint replaces the default hashes; variables are resolved", () => {
  const r = groupEvent(
    exc(
      { type: "DbError", value: "timeout", stacktrace: { frames: [{ module: "app.db", function: "query", in_app: true }] } },
      {
        fingerprint: [
          "{{ type }}",
          "{{value}}",
          "{{ function }}",
          "{{ module }}",
          "{{ tags.shard }}",
          "{{ level }}",
          "{{ logger }}",
          "{{ transaction }}",
          "{{ unknown }}",
          "x",
        ],
        tags: [["shard", "7"]],
        level: "error",
      },
    ),
  );
  const values = ["DbError", "timeout", "query", "app.db", "7", "error", "<no-logger>", "<no-transaction>", "{{ unknown }}", "x"];
  assert.deepEqual(r.variants.custom_fingerprint?.component.values, values);
  assert.deepEqual(r.hashes, [md5(...values)]);
  assert.equal(r.variants.app?.hash, null);
  assert.equal(r.variants.app?.contributes, false);
});

test("{{ default }} alone is the default grouping", () => {
  const a = groupEvent(exc({ type: "E" }, { fingerprint: ["{{ default }}"] }));
  assert.deepEqual(a.hashes, groupEvent(exc({ type: "E" })).hashes);
});

test("a hybrid fingerprint salts each contributing variant with the extra values", () => {
  const r = groupEvent(
    exc(
      {
        type: "E",
        stacktrace: {
          frames: [
            { module: "lib", function: "f" },
            { module: "app", function: "g", in_app: true },
          ],
        },
      },
      { fingerprint: ["{{ default }}", "{{ message }}", "tenant-1"], logentry: { formatted: "boom" } },
    ),
  );
  assert.equal(r.variants.app?.hash, md5("app", "g", "E", "boom", "tenant-1"));
  assert.equal(r.variants.system?.hash, md5("lib", "f", "app", "g", "E", "boom", "tenant-1"));
  assert.equal(r.variants.default?.hash, null);
});

test("an event with nothing to group by gets the fallback hash md5('')", () => {
  assert.deepEqual(groupEvent({}).hashes, ["d41d8cd98f00b204e9800998ecf8427e"]);
});

test("the registry: one config, the default, returned with every result; unknown ids throw", () => {
  assert.deepEqual(groupingConfigIds(), ["newstyle:2023-01-11"]);
  assert.equal(DEFAULT_GROUPING_CONFIG, "newstyle:2023-01-11");
  assert.equal(groupEvent({}, { config: "newstyle:2023-01-11" }).config, "newstyle:2023-01-11");
  assert.throws(() => groupEvent({}, { config: "legacy:2019-03-12" }), /unknown grouping config/);
});

test("malformed input never throws and simply does not contribute", () => {
  const junk: unknown[] = [
    null,
    42,
    "event",
    [],
    { exception: "x", threads: 3, stacktrace: { frames: "no" }, fingerprint: "fp", logentry: 5 },
    { exception: { values: [null, 1, { type: 5, value: {}, stacktrace: { frames: [null, 3, { function: 9, in_app: "yes" }] } }] } },
    { platform: 7, stacktrace: { frames: [{ filename: ["a"], context_line: 1, data: "d" }] }, fingerprint: [1, null, true] },
  ];
  for (const event of junk) {
    const r = groupEvent(event);
    assert.ok(r.hashes.length >= 1, JSON.stringify(event));
  }
  assert.deepEqual(groupEvent(null).hashes, [md5()]);
});
