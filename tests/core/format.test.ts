// The dashboard's number and date formats (src/web/format.ts): per locale, UTC, and the same from a cached formatter
// as from the first one made.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  formatBytes,
  formatChange,
  formatCompactCount,
  formatCount,
  formatDate,
  formatDecimal,
  formatMs,
  formatPercent,
  formatRate,
  formatRatio,
  formatWhen,
} from "../../src/web/format";

test("dates are UTC in the page's language; a missing or unreadable one is a dash", () => {
  assert.equal(formatDate("en", "2026-11-23T17:05:00Z"), "Nov 23, 2026, 5:05 PM UTC");
  assert.equal(formatDate("de", "2026-11-23T17:05:00Z"), "23.11.2026, 17:05 UTC");
  assert.equal(formatWhen("en", "2026-11-23T17:05:00Z"), "Nov 23, 2026, 5:05 PM");
  assert.equal(formatWhen("en", "2026-11-24T01:00:00+02:00"), "Nov 23, 2026, 11:00 PM");
  assert.equal(formatDate("en", null), "—");
  assert.equal(formatDate("en", "not a date"), "—");
  assert.equal(formatWhen("en", "not a date"), "—");
});

test("counts are grouped per language and shortened from 100,000 on where asked", () => {
  assert.equal(formatCount("en", 1234567), "1,234,567");
  assert.equal(formatCount("de", 1234567), "1.234.567");
  assert.equal(formatCompactCount("en", 99_999), "99,999");
  assert.equal(formatCompactCount("en", 123_456), "123K");
  assert.equal(formatCompactCount("de", 1_234_567), "1,2\u00a0Mio.");
  // A second call in another language between two in one still gives each its own format.
  assert.equal(formatCount("en", 1000), "1,000");
});

test("percentages keep one decimal, rounded down, and nothing to measure is a dash", () => {
  assert.equal(formatPercent("en", 99.96), "99.9%");
  assert.equal(formatPercent("de", 50), "50\u00a0%");
  assert.equal(formatPercent("en", null), "—");
});

test("sizes are in bytes, kB or MB, 1000-based", () => {
  assert.equal(formatBytes("en", 14), "14B");
  assert.equal(formatBytes("en", 1500), "1.5 kB");
  assert.equal(formatBytes("de", 2_500_000), "2,5 MB");
});

test("durations are in ms below a second and in s from one on; rates keep two significant digits below 1", () => {
  assert.equal(formatMs("en", 8.46), "8.5 ms");
  assert.equal(formatMs("en", 128.4), "128 ms");
  assert.equal(formatMs("de", 1050), "1,05 s");
  assert.equal(formatMs("en", null), "—");
  assert.equal(formatRate("en", 0.00693), "0.0069");
  assert.equal(formatRate("en", 4.94), "4.9");
  assert.equal(formatRatio("en", 0.0193), "1.9%");
  assert.equal(formatRatio("en", 0.5, 0), "50%");
  assert.equal(formatDecimal("en", 0.8912), "0.89");
  assert.equal(formatDecimal("en", 0.1234, 3), "0.123");
});

test("a change against the previous period is a signed whole percentage", () => {
  assert.equal(formatChange("en", 0.123), "+12%");
  assert.equal(formatChange("en", -0.05), "-5%");
  assert.equal(formatChange("en", 0), "0%");
});
