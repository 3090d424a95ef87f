// The native prefilter of user patterns (src/scrub/native-prefilter.ts): a JavaScript RegExp that must match every
// string re2js matches (a prefilter that missed one would leave a secret unscrubbed), checked with fast-check on
// fixed seeds against re2js itself over strings built from each pattern's own alphabet; patterns outside the
// translated subset get none; and a pattern that backtracks without end in a backtracking engine finishes, because
// V8 falls back to its linear-time engine.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { RE2JS } from "re2js";
import { linearFallback, nativeEquivalent, nativeExact, nativePrefilter } from "../../src/scrub/native-prefilter";
import { re2Matcher } from "../../src/scrub/patterns";

/** Patterns people write in advanced rules, and ones that stress the translation (case folding, classes, `.`). */
const PATTERNS: [pattern: string, caseInsensitive: boolean][] = [
  ["\\+?[0-9][0-9 ()-]{7,}[0-9]", false],
  ["\\b[A-Z]{2}[0-9]{2}[A-Z0-9]{12,30}\\b", false],
  ["(?i)(street|road|avenue) [0-9]+", false],
  ["(?i)tenant|customer_id", false],
  ["id$", true],
  ["^sk_(live|test)_[a-zA-Z0-9]{8,}", false],
  ["(?i)k[^a-j]s", false],
  ["a.b", false],
  ["x[^/]+y", false],
  ["\\d{3}-\\d{2}-\\d{4}", false],
  ["(?i)\\w+@\\w+", false],
  ["\\S+\\s\\S+", false],
  ["[]a]+", false],
  ["[-a-c]x", false],
  ["(?P<key>[a-f]+):x?", false],
  ["colou?r|gr[ae]y", false],
  ["a*?b+?c??", false],
  ["\\.\\*\\(\\)", false],
  ["(?i)[k-m]", false],
];

const ALPHABET = [
  "a",
  "b",
  "c",
  "k",
  "K",
  "s",
  "S",
  "\u212A",
  "\u017F",
  "x",
  "y",
  "0",
  "1",
  "9",
  " ",
  "-",
  "/",
  "(",
  ")",
  "+",
  "@",
  ".",
  "\n",
  "_",
  "]",
  "😀",
  "é",
  "A",
  "Z",
  "ST",
  "street ",
  "ROAD 7",
  "TeNant",
  "customer_ID",
  "id",
  "Id",
  "abc:",
  "colour",
  "gray",
  "grEy",
  "DE89",
  "DE89370400440532013000",
  "sk_live_",
  "370400",
  "4405",
  "12345",
  " (030) ",
  "+49",
];

describe("native prefilter of user patterns", () => {
  test("V8's fallback to linear time is on (the prefilter is only used with it)", () => {
    assert.equal(linearFallback, true);
  });

  for (const [pattern, ci] of PATTERNS) {
    test(`never misses a string re2js matches: ${pattern}${ci ? " (case-insensitive)" : ""}`, () => {
      const re2 = RE2JS.compile(pattern, ci ? RE2JS.CASE_INSENSITIVE : 0);
      const pre = nativePrefilter(pattern, ci);
      assert.ok(pre, `${pattern} should have a prefilter`);
      const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 24 }).map((parts) => parts.join(""));
      let matched = 0;
      fc.assert(
        fc.property(text, (s) => {
          if (re2.test(s)) {
            matched++;
            return pre.test(s);
          }
          return true;
        }),
        { seed: 18, numRuns: 3000 },
      );
      // Built so that the property is exercised: some of the strings match.
      assert.ok(matched > 0 || ["\\.\\*\\(\\)", "\\d{3}-\\d{2}-\\d{4}"].includes(pattern), `no string matched ${pattern}`);
    });
  }

  for (const [pattern, ci] of PATTERNS) {
    const native = nativeExact(pattern, ci);
    if (native === null) continue;
    test(`native matches are re2js's, at the same places: ${pattern}${ci ? " (case-insensitive)" : ""}`, () => {
      const fast = re2Matcher(pattern, ci, true);
      const re2 = RE2JS.compile(pattern, ci ? RE2JS.CASE_INSENSITIVE : 0);
      /** re2js alone: every non-overlapping match, an empty one right after a match skipped. */
      const reference = (s: string) => {
        const out: [number, number][][] = [];
        const m = re2.matcher(s);
        let from = 0;
        let lastEnd = -1;
        while (from <= s.length && m.find(from)) {
          const [start, end] = [m.start(), m.end()];
          from = start === end ? end + 1 : end;
          if (start === end && start === lastEnd) continue;
          lastEnd = end;
          out.push([[start, end]]);
        }
        return out;
      };
      const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 24 }).map((parts) => parts.join(""));
      fc.assert(
        fc.property(text, (s) => {
          // Patterns that look at their context are only tested natively; their matches come from re2js.
          assert.deepEqual(native.contextual ? fast.all(s).map((g) => [g[0]]) : fast.all(s), reference(s));
          assert.equal(fast.test(s), re2.test(s));
        }),
        { seed: 19, numRuns: 2000 },
      );
    });
  }

  test("patterns that look at their context, or whose counts V8's linear engine cannot take, are not searched natively", () => {
    for (const p of ["\\bfoo", "^sk_", "id$", "\\Bx", "[a-z]{20,40}x"]) assert.equal(nativeEquivalent(p, false), null, p);
    assert.ok(nativeEquivalent("(?i)(street|road|avenue) [0-9]+", false));
  });

  test("the strings the patterns are written for are let through", () => {
    const cases: [string, string][] = [
      ["\\+?[0-9][0-9 ()-]{7,}[0-9]", "call +49 (30) 1234-567 now"],
      ["\\b[A-Z]{2}[0-9]{2}[A-Z0-9]{12,30}\\b", "iban DE89370400440532013000 ok"],
      ["^sk_(live|test)_[a-zA-Z0-9]{8,}", "sk_live_abcdEFGH1234"],
      ["\\d{3}-\\d{2}-\\d{4}", "ssn 078-05-1120"],
      ["a.b", "a😀b"],
      ["\\.\\*\\(\\)", "x.*()y"],
      ["[a-z]{20,40}x", "abcdefghijklmnopqrstuvwxyzx"],
      ["(?:[a-f0-9]{8}-){3}[a-f0-9]{12}", "deadbeef-deadbeef-deadbeef-0123456789ab"],
      ["(?i)(street|road|avenue) [0-9]+", "Main STREET 5"],
      ["(?i)k", "\u212A"],
      ["(?i)s", "\u017F"],
    ];
    for (const [pattern, text] of cases) {
      assert.equal(RE2JS.compile(pattern).test(text), true, `re2js on ${text}`);
      assert.equal(nativePrefilter(pattern, false)?.test(text), true, `prefilter of ${pattern} on ${text}`);
    }
    assert.equal(nativePrefilter("\\+?[0-9][0-9 ()-]{7,}[0-9]", false)?.test("<Order object (1234)>"), false);
    // Counts above what V8's linear engine takes are relaxed to a lower minimum: still never a miss.
    assert.equal(nativePrefilter("[a-z]{20,40}x", false)?.test("abcx"), false);
  });

  test("patterns outside the translated subset get none", () => {
    for (const p of ["\\pL+", "(?s)a.b", "a(?i)b", "\\x{41}", "\\Qa.b\\E", "[[:alpha:]]", "a{,3}", "\\Aab\\z", "(?i)é"])
      assert.equal(nativePrefilter(p, false), null, p);
  });

  test("a pattern that backtracks without end in a backtracking engine finishes", () => {
    // 2^60 paths for a backtracking engine; V8 gives up backtracking after a bounded count and runs it linearly.
    const pre = nativePrefilter("(a+)+$", false);
    assert.ok(pre);
    assert.equal(pre.test("a".repeat(60) + "!"), false);
    assert.equal(nativePrefilter("(x+x+)+y", false)?.test("x".repeat(5000)), false);
  });
});
