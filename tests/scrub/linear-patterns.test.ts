// The built-in patterns of the default data scrubbing run in linear time (a probe of the digest's CPU found events
// the intake accepts that cost it seconds each): the password key's `token[^\s]*[:=]` scanned every "token" of a run
// to its end, 2 s for 100 KB of "token" in any value or key; e-mail, URL credentials, PEM keys and user paths did the
// same from every word boundary of a long run. They now give exactly what their backtracking expressions give
// (compared on many texts, short ones natively and long ones through re2js), and the texts that made them backtrack
// for about a minute go through the default scrubbing in tens of milliseconds, checked against a bound of 20 s: hang
// detectors, not timings.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { SCRUB_LIMITS } from "../../src/config/limits";
import { parsePiiConfig } from "../../src/scrub/config";
import { nativeMatcher, PATTERNS, re2Matcher } from "../../src/scrub/patterns";
import { DEFAULT_SCRUBBING_OPTIONS as D, effectiveScrubbing, previewPiiConfig } from "../../src/scrub/index";

const HANG = { timeout: 20_000 };
const MB = 1_000_000;

/** relay-pii regexes.rs as they were run natively: the reference. */
const REFERENCE = {
  passwordKey: ["(password|secret|passwd|api[-_]key|apikey|auth|credentials|mysql_pwd|privatekey|private[-_]key|token[^\\s]*[:=]|^otp$|^two[-_]factor$)", "i"],
  email: ["\\b[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9-]+)*\\.[a-zA-Z]{2,}\\b", ""],
  urlauth: ["\\b(?:(?:[a-z0-9+-]+:)?//([a-zA-Z0-9%_.-]+(?::[a-zA-Z0-9%_.-]+)?))@", ""],
  urlauthLegacy: ["\\b((?:[a-z0-9]+:)?//[a-zA-Z0-9%_.-]+:)([a-zA-Z0-9%_.-]+)@", ""],
  pemkey: ["(?:-----BEGIN[A-Z ]+(?:PRIVATE|PUBLIC) KEY-----[\\t ]*\\r?\\n?)([\\s\\S]+?)(?:\\r?\\n?-----END[A-Z ]+(?:PRIVATE|PUBLIC) KEY-----)", ""],
  userpath: [
    "(?:(?:\\b(?:[a-zA-Z]:[\\\\/])?(?:users|home|documents and settings|[^/\\\\]+[/\\\\]profiles)[\\\\/])|(?:/(?:home|users)/))([^/\\\\\\r\\n\\x00]+)",
    "i",
  ],
} as const;

/** Texts built of pieces that make each pattern match, nearly match and backtrack. */
const PIECES: Record<keyof typeof REFERENCE, string[]> = {
  passwordKey: ["token", "TOKEN", "tok", "en", ":", "=", " ", "\t", "a", "password", "otp", "two_factor", "x", "auth"],
  email: ["a", "b.", "x", "@", ".", "com", "1", "-", "+", " ", "_", "Z", "é"],
  urlauth: ["a", "http", ":", "//", "/", "@", "user", ".", "-", "%", " ", "1", "+", "//u:p@", "https://"],
  urlauthLegacy: ["a", "ftp", ":", "//", "/", "@", "pw", ".", "-", " ", "1", "//u:p@", "//u:", "p@"],
  pemkey: [
    "-----BEGIN",
    "-----END",
    " RSA",
    " A",
    " PRIVATE",
    " PUBLIC",
    " KEY-----",
    "\n",
    "\r\n",
    "abc",
    " ",
    "\t",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
  ],
  userpath: ["/home/", "/Users/", "C:\\", "users", "home", "\\", "/", "ann", "profiles", "Documents and Settings", "\n", "x"],
};

describe("the default scrubbing's built-in patterns are linear and unchanged", () => {
  for (const [name, [source, flags]] of Object.entries(REFERENCE) as [keyof typeof REFERENCE, readonly [string, string]][]) {
    const matcher = PATTERNS[name];
    // The expression as it ran before, natively and on every text: the reference.
    const reference = nativeMatcher(source, flags);
    const gate = new RegExp(matcher.gate!.source, "i");
    for (const [kind, minLength, maxLength] of [
      ["short texts (native)", 0, 40],
      ["long texts (re2js past SCRUB_LIMITS.nativePatternMaxLength)", SCRUB_LIMITS.nativePatternMaxLength + 1, SCRUB_LIMITS.nativePatternMaxLength + 400],
    ] as const) {
      test(`${name}: the same answers and matches as its expression on ${kind}; its gate never refuses a match`, () => {
        // Every piece is a character or more: as many pieces as the least length make a text long enough.
        const text = fc.array(fc.constantFrom(...PIECES[name]), { minLength, maxLength }).map((parts) => parts.join(""));
        let matched = 0;
        fc.assert(
          fc.property(text, (s) => {
            const expected = reference.test(s);
            if (expected) matched++;
            assert.equal(matcher.test(s), expected, JSON.stringify(s.slice(0, 200)));
            if (expected) assert.ok(gate.test(s), `the gate passes ${JSON.stringify(s.slice(0, 200))}`);
            // The password key replaces whole values: only its test is used, its matches come from re2js alone.
            if (name !== "passwordKey" || s.length > SCRUB_LIMITS.nativePatternMaxLength)
              assert.deepEqual(matcher.all(s), reference.all(s), JSON.stringify(s.slice(0, 200)));
          }),
          { seed: 22, numRuns: kind.startsWith("short") ? 3000 : 300 },
        );
        assert.ok(matched > 0, `some texts match ${name}`);
      });
    }
  }
});

/** The longest text a native regular expression ran on during `run` (RegExp.prototype.test and match go through exec). */
function longestNativeText(run: () => unknown): number {
  const exec = RegExp.prototype.exec;
  let longest = 0;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    longest = Math.max(longest, String(text).length);
    return exec.call(this, text);
  };
  try {
    run();
  } finally {
    RegExp.prototype.exec = exec;
  }
  return longest;
}

describe("past SCRUB_LIMITS.nativePatternMaxLength, patterns that may backtrack run in re2js, never natively", () => {
  // V8's fallback to linear time counts the backtracks of one start only: a pattern tried from every start of a long
  // run stayed quadratic below about 50 KB (a second for 40 KB of "a." before an "@").
  const bomb = `${"a.".repeat(20_000)}@`;
  const cases: [string, () => unknown][] = [
    ["e-mail's test and matches", () => [PATTERNS.email.test(bomb), PATTERNS.email.all(`x@${"a.".repeat(20_000)}1`)]],
    ["the password key's matches", () => PATTERNS.passwordKey.all("token".repeat(8_000))],
    ["a user pattern V8 runs as RE2 does: its test", () => re2Matcher("[a-z.]+@x", false).test(bomb)],
    ["a user pattern V8 runs as RE2 does: its matches", () => re2Matcher("[a-z.]+@x", false, true).all(bomb)],
    [
      "a user rule through the scrubbing: its gate's prefilter, its test and its matches",
      () => {
        const parsed = parsePiiConfig(
          JSON.stringify({
            rules: { mine: { type: "pattern", pattern: "[a-z.]+@x", redaction: { method: "replace", text: "[mine]" } } },
            applications: { $string: ["mine"] },
          }),
        );
        assert.ok(parsed.ok);
        return previewPiiConfig({ extra: { note: bomb } }, parsed.config);
      },
    ],
  ];
  for (const [name, run] of cases) {
    test(name, () => {
      assert.ok(longestNativeText(run) <= SCRUB_LIMITS.nativePatternMaxLength);
    });
  }
});

describe("texts that made them backtrack for seconds, through the default scrubbing", () => {
  // Each about a minute of backtracking before (a regular expression cannot be interrupted: the test then fails once
  // it ends), tens of milliseconds now.
  const KB = 1_000;
  const bombs: [string, string][] = [
    ["token, repeated (the password key)", "token".repeat((300 * KB) / 5)],
    ["PEM headers with no end", `${"-----BEGIN A PRIVATE KEY-----".repeat(MB / 29)}-----END`],
    ["a domain of labels and no top level (e-mail)", `x@${"a.".repeat(100 * KB)}1`],
    ["a long local part and no domain (e-mail)", `${"a.".repeat(100 * KB)}@`],
    ["a scheme-like run before // and @ (URL credentials)", `${"a-".repeat(75 * KB)} //x@`],
    ["a run before profiles (user paths)", `${"a".repeat(150 * KB)}profiles`],
  ];
  for (const [name, text] of bombs) {
    test(`${name}: as a value, a key, a breadcrumb and the message`, HANG, () => {
      const event: Record<string, unknown> = {
        extra: { note: text, [text.slice(0, 100_000)]: "x" },
        breadcrumbs: { values: [{ message: text }] },
        logentry: { formatted: text.slice(0, 8_192) },
      };
      const started = performance.now();
      effectiveScrubbing(D, D).scrubEvent(event);
      // A regular expression runs to its end whatever the test's timeout: the hang is seen once it is over.
      const took = performance.now() - started;
      assert.ok(took < HANG.timeout, `scrubbed in ${Math.round(took)} ms: a hang (about a minute before)`);
      assert.equal((event.extra as Record<string, unknown>).note !== undefined, true);
    });
  }
});
