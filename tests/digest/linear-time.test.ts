// Regular expressions the digest runs on event data work in linear time (issue 16, finding 3): message
// parameterization, `%` formatting of log entries and the stack trace rules' globs give exactly what their
// backtracking patterns give (compared on many short texts, where backtracking is harmless), and read a megabyte of
// what made them backtrack for minutes. The megabyte runs are hang detectors under a generous timeout, not timings;
// what bounds the work for good is counted: normalization trims every field grouping reads to Relay's caps first.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { groupEvent } from "../../src/digest/grouping";
import { parseRules } from "../../src/digest/grouping/enhancements/rules";
import { NATIVE_RULES } from "../../src/digest/grouping/enhancements/newstyle-2023-01-11-native";
import { SDK_RULES } from "../../src/digest/grouping/enhancements/newstyle-2023-01-11-sdk";
import { parameterize, SENTRY_PATTERNS } from "../../src/digest/grouping/message";
import { normalizeEvent } from "../../src/digest/normalize";
import { FIELD_CAPS } from "../../src/digest/normalize/limits";
import { formatMessage } from "../../src/digest/normalize/logentry";

/** Minutes on the old patterns; well under a second now. A hang detector, not a timing. */
const HANG = { timeout: 10_000 };
const MB = 1_000_000;

/** Sentry's alternation as one backtracking expression: the reference on short texts. */
const SENTRY_RE = new RegExp(SENTRY_PATTERNS.map(([name, re]) => `(?<${name}>${re})`).join("|"), "g");
function sentryParameterize(text: string): string {
  return text.replace(SENTRY_RE, (...args: unknown[]) => {
    const groups = args[args.length - 1] as Record<string, string | undefined>;
    const name = SENTRY_PATTERNS.find(([n]) => groups[n] !== undefined)?.[0] ?? "";
    return name === "quoted_str" ? "=<quoted_str>" : `<${name}>`;
  });
}

const PATHOLOGICAL: [string, string][] = [
  ["x", "x".repeat(MB)],
  ["a@", "a@".repeat(MB / 2)],
  ["digits", `${"1".repeat(MB - 1)}x`],
  ["datetime.datetime(", "datetime.datetime(".repeat(MB / 18)],
  ["Jan and spaces", `Jan${" ".repeat(MB)}`],
  ["0x and hex digits", `0x${"f".repeat(MB)}g`],
  ["a float's digits", `-${"1".repeat(MB / 2)}.${"1".repeat(MB / 2)}a`],
  ["=' and a word", `='${"a".repeat(MB)}`],
  ["colons", ":".repeat(MB)],
];

describe("message parameterization (grouping/message.ts)", () => {
  const tokens = [
    "a",
    "x",
    "Z",
    "@",
    ".",
    "-",
    "1",
    "0",
    "9",
    "f",
    " ",
    "\n",
    ":",
    "=",
    "'",
    "datetime",
    "datetime.datetime(",
    ")",
    "(",
    "0x",
    "Jan",
    "Mon",
    ",",
    "http://",
    "ws://",
    "1.2.3.4",
    "fe80:",
    "%",
    "_",
    "T",
    "GMT",
    "\u2028",
    "é",
    "b@c.d",
    "12345678-1234-1234-1234-123456789012",
  ];
  const texts = fc.oneof(
    fc.array(fc.constantFrom(...tokens), { maxLength: 30 }).map((a) => a.join("")),
    fc.string({ maxLength: 60 }),
  );

  test("gives exactly what Sentry's backtracking pattern gives", () => {
    fc.assert(
      fc.property(texts, (s) => parameterize(s) === sentryParameterize(s)),
      { numRuns: 20_000 },
    );
  });

  for (const [name, text] of PATHOLOGICAL) {
    test(`hostile input #3: a megabyte of ${name} is parameterized in linear time`, HANG, () => {
      assert.equal(typeof parameterize(text), "string");
    });
  }
});

describe("log entry formatting (normalize/logentry.ts)", () => {
  /**
   * Python's `%` formatting through its backtracking pattern, for params that are strings: %s, %r and %c give the
   * string, %% a "%", any other conversion (or a missing param) fails the whole formatting, as in formatMessage.
   */
  const SPEC = /%(?:\(([^)]*)\))?[-+ #0]*(?:\d+|\*)?(?:\.\d+)?([sridufFeEgGxXoc%])/g;
  function reference(format: string, params: string[] | Record<string, string>): string | undefined {
    let index = 0;
    let failed = false;
    const out = format.replace(SPEC, (_m, key: string | undefined, conv: string) => {
      if (conv === "%") return "%";
      const value =
        key !== undefined
          ? Array.isArray(params) || !Object.hasOwn(params, key)
            ? undefined
            : params[key]
          : Array.isArray(params)
            ? params[index++]
            : undefined;
      if (value === undefined || !"src".includes(conv)) failed = true;
      return value ?? "";
    });
    return failed ? undefined : out;
  }

  test("formats exactly as Python's `%` pattern does", () => {
    const tokens = ["%", "(", ")", "a", "key", "s", "d", "r", "c", "%%", "0", "5", "-", "+", " ", "#", "*", ".", "x", "\n", "%(", "%s", "%(a)s"];
    const params = fc.constantFrom<string[] | Record<string, string>>(
      ["<0>", "<1>", "<2>", "<3>", "<4>", "<5>", "<6>", "<7>"],
      { a: "<a>", key: "<key>", "": "<>", "%": "<%>" },
      [],
    );
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...tokens), { maxLength: 25 }).map((a) => `%${a.join("")}`),
        params,
        (s, p) => formatMessage(s, p) === reference(s, p),
      ),
      { numRuns: 20_000 },
    );
  });

  for (const [name, text] of [
    ["%(", "%(".repeat(MB / 2)],
    ["% and zeros", `%${"0".repeat(MB)}`],
    ["%() and zeros", `%()${"0".repeat(MB)}`],
  ] as const) {
    test(`hostile input #3: a megabyte of ${name} is formatted in linear time`, HANG, () => {
      assert.equal(formatMessage(text, ["a"]), text, "no conversion spec in it");
    });
  }
});

describe("stack trace rules' globs (grouping/enhancements/glob.ts)", () => {
  const rules = [...parseRules(NATIVE_RULES), ...parseRules(SDK_RULES)];
  const globs = rules.flatMap((r) => r.matchers.filter((m) => m.glob !== null).map((m) => ({ key: m.key, pattern: m.pattern, glob: m.glob! })));
  const values = [
    "x".repeat(MB),
    "/newrelic".repeat(MB / 9),
    `/${"newrelic".repeat(MB / 8)}`,
    "_block_invoke".repeat(MB / 13),
    "/".repeat(MB),
    "**".repeat(MB / 2),
  ];

  test(
    `hostile input #3: every built-in rule's glob (${globs.length}) reads a megabyte of module, package, path or function in linear time`,
    { timeout: 60_000 },
    () => {
      assert.ok(globs.length > 0, "the built-in rules have globs");
      for (const { glob } of globs) for (const v of values) glob.test(v);
    },
  );
});

describe("what grouping reads is bounded before it reads it", () => {
  const x = "x".repeat(MB);
  const frame = { function: x, raw_function: x, symbol: x, filename: x, abs_path: x, module: "m", lineno: 1, in_app: true };
  const { event } = normalizeEvent(
    {
      platform: "javascript",
      logentry: { message: x },
      threads: [{ name: x }],
      exception: { values: [{ type: x, value: x, module: x, stacktrace: { frames: [frame] } }] },
      user: { id: x, email: x, username: x, name: x },
    },
    { receivedAt: Date.now(), eventId: "52df9022835246eeb317dbd739ccd059", itemType: "event" },
  );
  const exception = event.exception!.values[0]!;
  const f = (exception.stacktrace as { frames: Record<string, string>[] }).frames[0]!;

  test("hostile input #3: strings grouping, the summary and the issue read are trimmed to Relay's max_chars", () => {
    const lengths = {
      type: (exception.type as string).length,
      value: (exception.value as string).length,
      module: (exception.module as string).length,
      function: f.function!.length,
      raw_function: f.raw_function!.length,
      symbol: f.symbol!.length,
      filename: f.filename!.length,
      abs_path: f.abs_path!.length,
      message: (event.logentry!.formatted as string).length,
      thread: (event.threads!.values[0]!.name as string).length,
      userId: (event.user!.id as string).length,
      email: (event.user!.email as string).length,
    };
    assert.deepEqual(lengths, {
      type: FIELD_CAPS.exceptionType.limit,
      value: FIELD_CAPS.exceptionValue.limit,
      module: FIELD_CAPS.exceptionModule.limit,
      function: FIELD_CAPS.frameSymbol.limit,
      raw_function: FIELD_CAPS.frameSymbol.limit,
      symbol: FIELD_CAPS.frameSymbol.limit,
      filename: FIELD_CAPS.framePath.limit,
      abs_path: FIELD_CAPS.framePath.limit,
      message: FIELD_CAPS.message.limit,
      thread: FIELD_CAPS.threadName.limit,
      userId: FIELD_CAPS.userField.limit,
      email: FIELD_CAPS.userEmail.limit,
    });
  });

  test("a string within Relay's allowance stays whole, as in Relay", () => {
    const within = "f".repeat(FIELD_CAPS.frameSymbol.limit + FIELD_CAPS.frameSymbol.allowance);
    const { event: e } = normalizeEvent(
      { exception: { values: [{ type: "E", stacktrace: { frames: [{ function: within }] } }] } },
      { receivedAt: Date.now(), eventId: "52df9022835246eeb317dbd739ccd059", itemType: "event" },
    );
    assert.equal((e.exception!.values[0]!.stacktrace as { frames: Record<string, string>[] }).frames[0]!.function, within);
  });

  for (const [name, big] of [
    ["x", x],
    ["digits", "1".repeat(MB)],
    ["%(", "%(".repeat(MB / 2)],
    ["separators", "?#&=;:/.@ ".repeat(MB / 10)],
  ] as const) {
    test(`hostile input #3: normalizing an event with a megabyte of ${name} in every string it reads ends`, HANG, () => {
      const raw = {
        timestamp: big,
        start_timestamp: big,
        release: big,
        environment: big,
        dist: big,
        platform: big,
        logger: big,
        culprit: big,
        transaction: big,
        server_name: big,
        site: big,
        checksum: big,
        level: big,
        logentry: { message: big, params: [big] },
        fingerprint: [big],
        exception: {
          values: [
            { value: big },
            { type: big, value: big, module: big, stacktrace: { frames: [{ ...frame, module: big, package: big, context_line: big, pre_context: [big] }] } },
          ],
        },
        request: { url: `https://example.com/${big}?${big}#${big}`, method: big, cookies: big, query_string: big, headers: { Cookie: big } },
        user: { id: big, email: big, ip_address: big, username: big },
        tags: { [big.slice(0, 1000)]: big, k: big },
        breadcrumbs: [{ message: big, timestamp: big, category: big }],
        contexts: { browser: { name: big, version: big } },
        threads: [{ name: big }],
      };
      const { event: e } = normalizeEvent(raw, { receivedAt: Date.now(), eventId: "52df9022835246eeb317dbd739ccd059", itemType: "event" });
      assert.ok(groupEvent(e).hashes.length > 0);
    });
  }

  test("hostile input #3: grouping an event as sent, a megabyte in every field it reads, ends", HANG, () => {
    const raw = {
      platform: "java",
      message: x,
      logentry: { message: x },
      fingerprint: ["{{ default }}", x],
      tags: [["k", x]],
      transaction: x,
      template: { filename: x, context_line: x },
      csp: { blocked_uri: x, violated_directive: x },
      exception: { values: [{ type: x, value: x, stacktrace: { frames: [{ ...frame, module: `$$${x}`, package: x, context_line: x, platform: "java" }] } }] },
    };
    assert.ok(groupEvent(raw).hashes.length > 0);
  });
});
