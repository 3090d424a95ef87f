// The logs search as the page and the API read it (core/log-query.ts): words, `key:value` terms (quoted values),
// level: and trace:, the level field, periods and UTC ranges, the cursor; bad input is a 400 naming the field.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LOG_LIMITS } from "../../src/config/limits";
import { isAppError } from "../../src/core/errors";
import { readLogQuery, splitSearch } from "../../src/core/log-query";
import { levelOf, pairToken, wordsOf } from "../../src/core/log-terms";

const field = (run: () => unknown): string | null => {
  try {
    run();
    return null;
  } catch (err) {
    assert.ok(isAppError(err) && err.code === "bad_request", String(err));
    return Object.keys(err.fields ?? {})[0] ?? "";
  }
};

test("issue 19 logs: the search box's words, key:value terms, level: and trace:", () => {
  const s = splitSearch('Payment FAILED user.id:42 http.route:"/api/orders list" level:warning trace:5B8EFFF7-9803-8103-D269-B633813FC60C "two words" e-mail');
  assert.deepEqual(s.words, ["payment", "failed", "two", "words", "e", "mail"]);
  assert.deepEqual(s.pairs, [
    { key: "user.id", value: "42" },
    { key: "http.route", value: "/api/orders list" },
  ]);
  assert.equal(s.level, "warn");
  assert.equal(s.trace, "5b8efff798038103d269b633813fc60c");
  assert.deepEqual(wordsOf("Größe überschritten: user@example.com, ÉTÉ 2024"), ["größe", "überschritten", "user", "example", "com", "été", "2024"]);
  assert.equal(levelOf("CRITICAL", undefined), "fatal");
  assert.equal(levelOf("nonsense", 14), "warn");
  assert.equal(levelOf(undefined, 99), null);
});

test("issue 19 logs: a key:value token is what the stored indexes hold (SHA-256 of key, NUL, value; 24 hex digits)", () => {
  // Indexed lines keep their tokens (migration 0031): a token computed otherwise would no longer find them. The
  // expected values are Python's hashlib.sha256((key + "\0" + value).encode()).hexdigest()[:24].
  assert.equal(pairToken("http.route", "/api/orders"), "a9d0f2e5a3f9b1562a0b18108");
  assert.equal(pairToken("user.id", "42"), "a27fa52cc2320cee176d35492");
  assert.equal(pairToken("ключ", "値 ✓"), "aaa1a8bc5379a163263f4b612");
});

test("issue 19 logs: level, period, range and cursor; each bad one a 400 naming its field", () => {
  const now = Date.parse("2026-11-28T12:00:00.000Z");
  const q = readLogQuery({ query: "checkout", level: "error", period: "24h", before: "2026-11-28T11:00:00.000Z~42" }, now);
  assert.deepEqual(q.filter.levels, ["error"]);
  assert.equal(q.filter.from, "2026-11-27T12:00:00.000Z");
  assert.deepEqual(q.before, { timestamp: "2026-11-28T11:00:00.000Z", id: 42 });
  const range = readLogQuery({ from: "2026-11-28T10:00", to: "2026-11-28T11:30:15" }, now);
  assert.deepEqual([range.filter.from, range.filter.to], ["2026-11-28T10:00:00.000Z", "2026-11-28T11:30:15.000Z"], "fields without a zone are UTC");
  assert.equal(
    field(() => readLogQuery({ level: "loud" })),
    "level",
  );
  assert.equal(
    field(() => readLogQuery({ query: "level:loud" })),
    "query",
  );
  assert.equal(
    field(() => readLogQuery({ period: "99y" })),
    "period",
  );
  assert.equal(
    field(() => readLogQuery({ from: "yesterday" })),
    "from",
  );
  assert.equal(
    field(() => readLogQuery({ from: "2026-01-02T00:00Z", to: "2026-01-01T00:00Z" })),
    "to",
  );
  assert.equal(
    field(() => readLogQuery({ trace: "xyz" })),
    "trace",
  );
  assert.equal(
    field(() => readLogQuery({ before: "abc" })),
    "before",
  );
  assert.equal(
    field(() => readLogQuery({ query: "x".repeat(LOG_LIMITS.maxQueryLength + 1) })),
    "query",
  );
  assert.equal(
    field(() => readLogQuery({ query: Array.from({ length: LOG_LIMITS.maxQueryTerms + 1 }, (_, i) => `w${i}`).join(" ") })),
    "query",
  );
  assert.deepEqual(readLogQuery({ query: "\u0000\u0000" }).filter.words, [], "NUL is no word");
});
