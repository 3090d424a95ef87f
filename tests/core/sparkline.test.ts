// The stream's server-drawn sparkline: one path of bars scaled to the largest bucket, nothing for an empty series.
import assert from "node:assert/strict";
import { test } from "node:test";
import { barsPath } from "../../src/web/components/charts/sparkline";

test("bars are boxes from the baseline, scaled to the largest bucket, zero buckets skipped", () => {
  assert.equal(barsPath([0, 2, 1, 0], 8, 10), "M2 10v-9h1v9zM4 10v-5h1v5z");
});

test("a tiny bucket still shows one pixel, and fractional steps keep two decimals", () => {
  assert.equal(barsPath([1000, 1, 0], 10, 10), "M0 10v-9h2.33v9zM3.33 10v-1h2.33v1z");
});

test("an empty or all-zero series draws no bars", () => {
  assert.equal(barsPath([], 96, 24), "");
  assert.equal(barsPath([0, 0, 0], 96, 24), "");
});
