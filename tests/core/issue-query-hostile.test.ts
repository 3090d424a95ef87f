// The issue search against hostile input: it is read in one pass (counted, never timed) and a search past its length
// limit is refused before it is read.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { STREAM_LIMITS } from "../../src/config/limits";
import { isAppError } from "../../src/core/errors";
import { parseIssueQuery, type ScanMeter, searchTokens } from "../../src/core/issue-query";

/** What the tokens are: the regular expression the search used to be split with (quadratic on `[[[[…`). */
const reference = (query: string) => (query.match(/(?:[^\s"[]+|"[^"]*"|\[[^\]]*\])+/g) ?? []).map((t) => t.replace(/"/g, ""));

/** Inputs built from the characters the tokenizer treats specially. */
const searchText = (maxLength: number) => fc.string({ unit: fc.constantFrom("[", "]", '"', " ", "\t", "\u00a0", "a", "b", ":", ",", "#"), maxLength });

describe("issue search against hostile input", () => {
  test("a search of more than STREAM_LIMITS.maxQueryTerms terms, or a list of more values, is a 400 naming the limit", () => {
    const refusal = (q: string) => {
      try {
        parseIssueQuery(q);
        return null;
      } catch (err) {
        assert.ok(isAppError(err) && err.code === "bad_request", String(err));
        return err.message;
      }
    };
    const n = STREAM_LIMITS.maxQueryTerms;
    assert.equal(refusal(Array.from({ length: n }, () => "x").join(" ")), null);
    assert.match(refusal(Array.from({ length: n + 1 }, () => "x").join(" ")) ?? "", new RegExp(`more than ${n} terms`));
    // A thousand one-letter words fit in maxQueryLength; they made SQLite refuse the statement (a 500).
    assert.match(refusal("x ".repeat(999).trim()) ?? "", new RegExp(`more than ${n} terms`));
    assert.equal(refusal(`assigned:[${Array.from({ length: n }, (_, i) => `u${i}@example.com`).join(",")}]`), null);
    assert.match(refusal(`assigned:[${Array.from({ length: n + 1 }, (_, i) => `u${i}`).join(",")}]`) ?? "", new RegExp(`more than ${n} values`));
  });

  test("hostile input #10: the tokens are those of Sentry's search syntax as before, for any mix of quotes, brackets and spaces", () => {
    fc.assert(
      fc.property(searchText(200), (q) => {
        assert.deepEqual(searchTokens(q), reference(q));
      }),
      { numRuns: 3000 },
    );
    assert.deepEqual(searchTokens('is:unresolved release:"web 1.2" assigned:[me, #team] "open quote [open bracket ok'), [
      "is:unresolved",
      "release:web 1.2",
      "assigned:[me, #team]",
      "open",
      "quote",
      "open",
      "bracket",
      "ok",
    ]);
  });

  test("hostile input #10: the tokenizer reads each character a bounded number of times, for long adversarial searches", () => {
    const n = 100_000;
    const adversarial: Record<string, string> = {
      "open brackets": "[".repeat(n),
      "open quotes after one": `"${"[".repeat(n - 1)}`,
      "quote, then open brackets": `a"${"[".repeat(n - 2)}`,
      "bracket pairs never closed": "[a".repeat(n / 2),
      "closing brackets only": "]".repeat(n),
      "alternating quotes and brackets": '["'.repeat(n / 2),
      spaces: " ".repeat(n),
      "one long word": "a".repeat(n),
    };
    for (const [what, q] of Object.entries(adversarial)) {
      const meter: ScanMeter = { steps: 0 };
      searchTokens(q, meter);
      assert.ok(meter.steps <= 3 * q.length, `${what}: ${meter.steps} steps for ${q.length} characters`);
    }
    // And for random long inputs of the special characters.
    fc.assert(
      fc.property(searchText(20_000), (q) => {
        const meter: ScanMeter = { steps: 0 };
        searchTokens(q, meter);
        return meter.steps <= 3 * q.length;
      }),
      { numRuns: 50 },
    );
  });

  test("hostile input #10: a search longer than STREAM_LIMITS.maxQueryLength is a bad request that names the limit", () => {
    const max = STREAM_LIMITS.maxQueryLength;
    assert.deepEqual(parseIssueQuery(`${"x".repeat(max - 1)} `).text, ["x".repeat(max - 1)]);
    for (const q of ["[".repeat(16_384), "a".repeat(max + 1)]) {
      assert.throws(
        () => parseIssueQuery(q),
        (e: unknown) => isAppError(e) && e.code === "bad_request" && e.message === `The search is longer than ${max} characters`,
      );
    }
  });
});
