// Advanced data scrubbing rules (issue 18): parsing and validating relayPiiConfig as Relay would, the selector
// language (relay-pii selector.rs tests), and the organization's rules merged before the project's as Sentry's
// get_pii_config does, applied before the legacy settings as Relay does.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  DEFAULT_SCRUBBING_OPTIONS as D,
  effectiveScrubbing,
  parsePiiConfig,
  previewPiiConfig,
  type PiiConfig,
  type ScrubbingOptions,
} from "../../src/scrub/index";
import {
  compileSelector,
  matches,
  parseSelector,
  PII_MAYBE,
  PII_TRUE,
  selectorToString,
  selectsOnlyPiiTrue,
  VT,
  type Pii,
  type State,
} from "../../src/scrub/selector";
import type { TestJson } from "../helpers/json";

const OFF: ScrubbingOptions = { ...D, dataScrubber: false, dataScrubberDefaults: false };
const config = (value: unknown): PiiConfig => {
  const parsed = parsePiiConfig(JSON.stringify(value));
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.error);
  return parsed.config;
};
const error = (text: string): string => {
  const parsed = parsePiiConfig(text);
  assert.equal(parsed.ok, false);
  return parsed.ok ? "" : parsed.error;
};

describe("issue 18: parsePiiConfig", () => {
  test("accepts Relay's documented example and fills defaults (replaceGroups [0], replace text [Filtered])", () => {
    const c = config({
      rules: { device_id: { type: "pattern", pattern: "d/[a-f0-9]{12}", redaction: { method: "replace" } } },
      applications: { $string: ["device_id", "@ip:hash"], "$http.headers.x-custom": ["@anything:remove"] },
    });
    assert.deepEqual(c.rules.device_id, {
      type: "pattern",
      pattern: "d/[a-f0-9]{12}",
      replaceGroups: [0],
      redaction: { method: "replace", text: "[Filtered]" },
    });
    assert.deepEqual(Object.keys(c.applications), ["$string", "$http.headers.x-custom"]);
  });

  test("an empty text, {} and null are valid empty configs", () => {
    assert.deepEqual(config({}), { rules: {}, vars: {}, applications: {} });
    assert.ok(parsePiiConfig("null").ok);
  });

  test("refuses what Relay refuses, with a message for the API's 400", () => {
    assert.match(error("{"), /invalid JSON/);
    assert.match(error(JSON.stringify({ rules: { a: { type: "phone_number" } } })), /rules\.a/);
    assert.match(error(JSON.stringify({ rules: { a: { type: "pattern", pattern: "(?=x)" } } })), /rules\.a\.pattern: invalid regular expression/);
    assert.match(error(JSON.stringify({ rules: { a: { type: "pattern", pattern: "(" } } })), /invalid regular expression/);
    assert.match(error(JSON.stringify({ rules: { a: { type: "redact_pair", keyPattern: "[" } } })), /keyPattern: invalid regular expression/);
    assert.match(error(JSON.stringify({ applications: { "$string &&": ["@ip"] } })), /invalid selector/);
    assert.match(error(JSON.stringify({ applications: { $nosuchtype: ["@ip"] } })), /unknown value type/);
    assert.match(error(JSON.stringify({ applications: { $string: ["@nosuchrule"] } })), /unknown rule reference "@nosuchrule"/);
    assert.match(
      error(JSON.stringify({ rules: { a: { type: "alias", rule: "b" }, b: { type: "alias", rule: "a" } }, applications: { $string: ["a"] } })),
      /too deeply|cycle/,
    );
    assert.match(error(JSON.stringify({ rules: { a: { type: "ip", redaction: { method: "explode" } } } })), /rules\.a/);
    assert.match(error(JSON.stringify({ rules: { a: { type: "pattern", pattern: "x".repeat(1001) } } })), /limited to 1000 characters/);
    assert.match(error(" ".repeat(70_000)), /limited to 65536 bytes/);
  });

  test("Relay's camelCase alias redactPair is accepted as redact_pair", () => {
    assert.equal(config({ rules: { a: { type: "redactPair", keyPattern: "x" } } }).rules.a!.type, "redact_pair");
  });
});

describe("issue 18: the selector language (relay-pii selector.rs)", () => {
  test("test_roundtrip: parse and print give the same text", () => {
    for (const s of ["!(!a)", "!a || !b", "!a && !b", "!(a && !b)", "!(a && b)"]) assert.equal(selectorToString(parseSelector(s)), s);
  });

  test("test_invalid: a lone wildcard, a second deep wildcard", () => {
    assert.throws(() => parseSelector("* && foo"), /wildcard must be part of a path/);
    assert.throws(() => parseSelector("$frame.**.foo.**"), /deep wildcard used more than once/);
  });

  // test_matching: . (event) → user → extra → foo (array) → 0
  const st = (parent: State | null, key: string | null, index: number, types: number): State => ({
    parent,
    key,
    index,
    types,
    pii: PII_TRUE,
    depth: parent ? parent.depth + 1 : 0,
  });
  const event = st(null, null, -1, VT.event);
  const user = st(event, "user", -1, VT.user);
  const extra = st(user, "extra", -1, VT.object);
  const foo = st(extra, "foo", -1, VT.array);
  const zero = st(foo, null, 0, 0);
  const withPii = (s: State, pii: Pii): State => ({ ...s, pii });
  const yes = (s: State, ...sels: string[]) => sels.forEach((sel) => assert.equal(matches(parseSelector(sel), s), true, `${sel} should match`));
  const no = (s: State, ...sels: string[]) => sels.forEach((sel) => assert.equal(matches(parseSelector(sel), s), false, `${sel} should not match`));

  test("specific selectors match under pii=maybe and pii=true", () => {
    for (const pii of [PII_MAYBE, PII_TRUE]) {
      yes(withPii(extra, pii), "user.extra", "$user.extra", "(** || user.*) && !(foo.bar.baz || a.b.c)");
      yes(withPii(foo, pii), "$user.extra.*");
      yes(withPii(zero, pii), "$user.extra.foo.*", "$user.extra.foo.0");
    }
  });

  test("deep wildcards and types match only under pii=true", () => {
    const sels = [
      "$user.extra.foo.**",
      "$user.extra.**",
      "$user.**",
      "$event.**",
      "$user.**.0",
      "$user.$object.**.0",
      "(**.0 | absolutebogus)",
      "(~$object)",
      "($object.** & (~absolutebogus))",
    ];
    yes(zero, ...sels);
    no(withPii(zero, PII_MAYBE), "$user.extra.foo.**", "$user.**", "$event.**", "$user.$object.**.0");
    yes(extra, "!(!user.extra)", "!(!$user.extra)");
  });

  test("a selector said to select only pii=true values (its gates are then not looked up for pii=maybe) never matches one", () => {
    const strings = [
      st(extra, "email", -1, VT.string),
      st(foo, null, 1, VT.string),
      st(user, "ip_address", -1, VT.string),
      st(event, "message", -1, VT.string),
    ];
    const states = [event, user, extra, foo, zero, ...strings].flatMap((s) => [withPii(s, PII_MAYBE), s]);
    const sels = [
      "$string",
      "$object",
      "**",
      "$user.**",
      "$user.$object.**.0",
      "user.extra",
      "$user.extra",
      "$user.email",
      "$http.headers.x-api-key || $http.headers.x-session",
      "$frame.vars.**",
      "$breadcrumb.data.** && !$breadcrumb.data.url",
      "extra.'sys.argv'.**",
      "$string || user.extra",
      "!$string",
      "$user.extra.*",
      "$object.*",
      "*.email",
      "$user.extra.$string",
    ];
    const only = sels.filter((sel) => selectsOnlyPiiTrue(parseSelector(sel)));
    assert.deepEqual(only, [
      "$string",
      "$object",
      "**",
      "$user.**",
      "$user.$object.**.0",
      "$frame.vars.**",
      "$breadcrumb.data.** && !$breadcrumb.data.url",
      "extra.'sys.argv'.**",
      "$object.*",
      "$user.extra.$string",
    ]);
    for (const sel of only) {
      const compiled = compileSelector(parseSelector(sel));
      for (const state of states) {
        if (state.pii !== PII_MAYBE) continue;
        assert.equal(matches(parseSelector(sel), { ...state }), false, `${sel} under pii=maybe`);
        assert.equal(compiled({ ...state }), false, `${sel} compiled, under pii=maybe`);
      }
    }
    // And those left out do match some value with pii=maybe (not refused for nothing).
    assert.ok(matches(parseSelector("user.extra"), withPii(extra, PII_MAYBE)));
    assert.ok(matches(parseSelector("$user.email"), { ...withPii(strings[0]!, PII_MAYBE), parent: user }));
  });

  test("mismatches", () => {
    no(
      zero,
      "$user.extra.foo.1",
      "$user.extra.bar.**",
      "$user.**.1",
      "($object | absolutebogus)",
      "($object & absolutebogus)",
      "(~$object.**)",
      "($object | (**.0 & absolutebogus))",
    );
    yes(foo, "($array & $object.*)", "(** & $object.*)", "**.$array");
    no(foo, "($object & $object.*)");
  });
});

describe("issue 18: advanced rules on events", () => {
  test("Relay's selectors: a header by name, a frame's vars, an extra key with a dot, the user's e-mail", () => {
    const c = config({
      applications: {
        "$http.headers.x-custom": ["@anything:remove"],
        "$frame.vars.token_id": ["@anything:mask"],
        "extra.'my.key'": ["@anything:replace"],
        "$user.email": ["@email:hash"],
      },
    });
    const out = previewPiiConfig(
      {
        request: {
          headers: [
            ["X-Custom", "abc"],
            ["Accept", "*/*"],
          ],
        },
        exception: { values: [{ type: "E", stacktrace: { frames: [{ function: "f", vars: { token_id: "12345", other: "x" } }] } }] },
        extra: { "my.key": "v", my: { key: "kept" } },
        user: { email: "jane@example.com", id: "1" },
      },
      c,
    ) as TestJson;
    assert.deepEqual(out.request.headers, [
      ["X-Custom", null],
      ["Accept", "*/*"],
    ]);
    assert.deepEqual(out.exception.values[0].stacktrace.frames[0].vars, { token_id: "*****", other: "x" });
    assert.deepEqual(out.extra, { "my.key": "[Filtered]", my: { key: "kept" } });
    assert.match(out.user.email, /^[0-9A-F]{40}$/);
    assert.deepEqual(out._meta.request.headers, { "0": { "1": { "": { rem: [["@anything:remove", "x"]] } } } });
  });

  test("a pattern rule with replaceGroups, run by re2js (linear time, no catastrophic backtracking)", () => {
    const c = config({
      rules: { r: { type: "pattern", pattern: "(user=)(\\w+)", replaceGroups: [2], redaction: { method: "replace", text: "[who]" } } },
      applications: { $string: ["r"] },
    });
    const out = previewPiiConfig({ extra: { q: "a user=jane b user=joe" } }, c) as TestJson;
    assert.equal(out.extra.q, "a user=[who] b user=[who]");
    assert.deepEqual(out._meta.extra.q[""], {
      rem: [
        ["r", "s", 7, 12],
        ["r", "s", 20, 25],
      ],
      len: 22,
    });
    const evil = config({ rules: { r: { type: "pattern", pattern: "(a+)+$" } }, applications: { $string: ["r"] } });
    // A backtracking engine would not return from this one; re2js answers at once that nothing matches.
    const q = "a".repeat(5000) + "!";
    assert.equal((previewPiiConfig({ extra: { q } }, evil) as TestJson).extra.q, q);
  });

  test("multiple and alias rules report the outer id when hideInner is set", () => {
    const c = config({
      rules: {
        both: { type: "multiple", rules: ["@email", "@ip"], hideInner: true, redaction: { method: "replace", text: "[x]" } },
        just: { type: "alias", rule: "@creditcard" },
      },
      applications: { $string: ["both", "just"] },
    });
    const out = previewPiiConfig({ extra: { a: "mail a@b.io from 10.0.0.1", b: "4111 1111 1111 1111" } }, c) as TestJson;
    assert.equal(out.extra.a, "mail [x] from [x]");
    assert.deepEqual(
      out._meta.extra.a[""].rem.map((r: unknown[]) => r[0]),
      ["both", "both"],
    );
    assert.equal(out.extra.b, "[creditcard]");
    assert.equal(out._meta.extra.b[""].rem[0][0], "@creditcard");
  });

  test("previewPiiConfig leaves the given event alone", () => {
    const event = { extra: { password: "x" } };
    previewPiiConfig(event, config({ applications: { $string: ["@anything:remove"] } }));
    assert.deepEqual(event, { extra: { password: "x" } });
  });

  test("organization rules run before project rules, ids prefixed; then the legacy settings", () => {
    const org: ScrubbingOptions = {
      ...OFF,
      relayPiiConfig: JSON.stringify({
        rules: { r: { type: "pattern", pattern: "alpha", redaction: { method: "replace", text: "[org]" } } },
        applications: { $string: ["r"] },
      }),
    };
    const project: ScrubbingOptions = {
      ...D,
      relayPiiConfig: JSON.stringify({
        rules: { r: { type: "pattern", pattern: "beta", redaction: { method: "replace", text: "[project]" } } },
        applications: { $string: ["r", "@email"] },
      }),
    };
    const event: TestJson = { extra: { note: "alpha beta jane@example.com", password: "hunter2" } };
    effectiveScrubbing(org, project).scrubEvent(event);
    assert.equal(event.extra.note, "[org] [project] [email]");
    assert.deepEqual(event._meta.extra.note[""].rem, [
      ["organization:r", "s", 0, 5],
      ["project:r", "s", 6, 15],
      ["@email", "s", 16, 23],
    ]);
    assert.equal(event.extra.password, "[Filtered]");
  });

  test("a stored config that no longer parses is skipped, the rest still applies", () => {
    const s = effectiveScrubbing(OFF, { ...D, relayPiiConfig: "{not json" });
    assert.equal(s.active, true);
    const e: TestJson = { extra: { api_key: "k" } };
    s.scrubEvent(e);
    assert.equal(e.extra.api_key, "[Filtered]");
    assert.equal(effectiveScrubbing(OFF, { ...OFF, relayPiiConfig: "{not json" }).active, false);
  });

  test("GraphQL variables are filtered, and the same keys in the response data (processor.rs scrub_graphql)", () => {
    const e: TestJson = {
      request: { api_target: "graphql", data: { query: "{ viewer }", variables: { login: "jane", pin: 1234 } } },
      contexts: { response: { type: "response", data: { data: { viewer: { login: "jane", id: 1 } } } } },
    };
    effectiveScrubbing(OFF, D).scrubEvent(e);
    assert.deepEqual(e.request.data.variables, { login: "[Filtered]", pin: "[Filtered]" });
    assert.deepEqual(e.contexts.response.data.data, { viewer: { login: "[Filtered]", id: 1 } });
  });
});

describe("issue 18: user patterns keep their meaning behind the literal gates", () => {
  const run = (pattern: string, text: string) => {
    const c = config({ rules: { r: { type: "pattern", pattern, redaction: { method: "replace", text: "[x]" } } }, applications: { $string: ["r"] } });
    return (previewPiiConfig({ extra: { v: text } }, c) as TestJson).extra.v as string;
  };

  test("alternations of words, a leading group, a literal prefix, and shapes that get no gate", () => {
    assert.equal(run("(?i)tenant|customer_id", "the TENANT and customer_id"), "the [x] and [x]");
    assert.equal(run("(?i)(street|road|avenue) [0-9]+", "Main Road 12, Elm street 3"), "Main [x], Elm [x]");
    assert.equal(run("(street|road) x|other", "an other one"), "an [x] one");
    assert.equal(run("(ab|cd)*e", "e"), "[x]");
    assert.equal(run("ORD-[0-9]+", "order ORD-123456"), "order [x]");
    assert.equal(run("(street|road)? x", "a x"), "a[x]");
  });
});
