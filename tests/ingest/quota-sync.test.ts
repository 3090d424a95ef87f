// Quotas across nodes (ingest/quota-sync.ts): two intakes' RateLimiters sharing one window's count through the
// store, as two nodes on one PostgreSQL do; here on SQLite in memory, the same store code.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { RateLimiter } from "../../src/ingest/rate-limiter";
import { startQuotaSync } from "../../src/ingest/quota-sync";
import { type TestCore, testCore } from "../helpers/core";

let t: TestCore;
before(async () => {
  t = await testCore();
});
after(async () => t.close());

const limit = { count: 10, windowSeconds: 3600 };
const decade = { count: 10, windowSeconds: 315_360_000 };

test("two nodes' limiters: each learns the other's units at the next exchange, and together they stop at the quota", async () => {
  const now = Date.UTC(2026, 10, 28, 12, 30);
  const a = new RateLimiter();
  const b = new RateLimiter();
  for (let i = 0; i < 6; i++) assert.equal(a.take("key:1:error", limit, now).ok, true);
  for (let i = 0; i < 3; i++) assert.equal(b.take("key:1:error", limit, now).ok, true);
  // One exchange each: a sends 6, b sends 3 and learns a's 6; a learns b's 3 at its next exchange.
  a.learn(await t.store.addQuotaCounts(a.outgoing(now)));
  b.learn(await t.store.addQuotaCounts(b.outgoing(now)));
  a.learn(await t.store.addQuotaCounts(a.outgoing(now)));
  assert.equal(b.take("key:1:error", limit, now).ok, true, "the tenth unit");
  assert.equal(b.take("key:1:error", limit, now).ok, false, "6 + 3 + 1 taken: b is full");
  assert.equal(a.take("key:1:error", limit, now).ok, true, "a knows of 9 until b's tenth is sent");
  b.learn(await t.store.addQuotaCounts(b.outgoing(now)));
  a.learn(await t.store.addQuotaCounts(a.outgoing(now)));
  assert.equal(a.take("key:1:error", limit, now).ok, false, "a is full too");
  const refused = b.take("key:1:error", limit, now);
  assert.ok(!refused.ok && refused.retryAfterSeconds === 1800, "until the window ends");
});

test("a failed exchange sends the same units again; ended windows are forgotten", async () => {
  const now = Date.UTC(2026, 10, 28, 13, 30);
  const a = new RateLimiter();
  for (let i = 0; i < 4; i++) a.take("key:2:error", limit, now);
  a.unsent(a.outgoing(now));
  const [total] = await t.store.addQuotaCounts(a.outgoing(now));
  assert.equal(total!.count, 4);
  assert.deepEqual(a.outgoing(now + 3_600_000), [], "the window ended");
});

test("the exchange runs on its own and stops with a last one", async () => {
  const a = new RateLimiter();
  const sync = startQuotaSync(a, t.store, () => {}, 10);
  a.take("key:3:error", decade);
  await sync.stop();
  const [total] = await t.store.addQuotaCounts([
    { name: "key:3:error", windowStart: Math.floor(Date.now() / 315_360_000_000) * 315_360_000_000, expiresAt: 0, delta: 0 },
  ]);
  assert.equal(total!.count, 1);
});
