// Conformance of Faultline's grouping with Sentry's own snapshots for `newstyle:2023-01-11`: every
// case in fixtures/grouping/expected.json must give each listed variant the hash Sentry's .pysnap
// records, and no other hash. Cases in `knownGaps` are run as todo tests with their reason. Every case is grouped a
// second time from a fresh copy: the stack trace rules' outcome is then replayed from their per-stack memory
// (enhancements/apply.ts), and the whole result, component trees and hints included, must be the same. The digest's
// groupHashes (memo.ts) must give each case the same hashes, computed and then remembered.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { groupEvent, groupHashes } from "../../src/digest/grouping";

interface Case {
  input: string;
  source: string;
  expected: string;
  variants: Record<string, string | null>;
  note?: string;
}

const dir = new URL("./fixtures/grouping/", import.meta.url);
const expected = JSON.parse(readFileSync(new URL("expected.json", dir), "utf8")) as {
  cases: Record<string, Case>;
  knownGaps: Record<string, string>;
};

function check(name: string, c: Case): void {
  const text = readFileSync(new URL(c.input, dir), "utf8");
  const result = groupEvent(JSON.parse(text));
  assert.deepEqual(groupEvent(JSON.parse(text)), result, `${name}: grouped again (the rules' outcome remembered), the result differs`);
  for (const pass of ["computed", "remembered"]) {
    assert.deepEqual(groupHashes(JSON.parse(text)), { config: result.config, hashes: result.hashes }, `${name}: the digest's hashes (${pass}) differ`);
  }
  assert.equal(result.config, "newstyle:2023-01-11");
  const got: Record<string, string | null> = {};
  for (const variant of Object.keys(c.variants)) got[variant] = result.variants[variant]?.hash ?? null;
  assert.deepEqual(got, c.variants, `${name}: variant hashes differ from ${c.expected}`);
  const want = new Set(Object.values(c.variants).filter((h): h is string => h !== null));
  assert.deepEqual(new Set(result.hashes), want, `${name}: the event's hashes differ from Sentry's`);
}

test("the corpus is large enough to mean something", () => {
  assert.ok(Object.keys(expected.cases).length >= 10);
});

for (const [name, c] of Object.entries(expected.cases)) {
  const gap = expected.knownGaps[name];
  if (gap !== undefined) test(`sentry case ${name} (known gap)`, { todo: gap }, () => check(name, c));
  else test(`sentry case ${name}`, () => check(name, c));
}
