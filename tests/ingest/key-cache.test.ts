// The intake's DSN key cache: one database lookup per key and TTL, answers without a promise once known.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { INTAKE_CACHE_LIMITS } from "../../src/config/limits";
import { KeyCache } from "../../src/ingest/key-cache";
import type { IntakeKey } from "../../src/storage/ports";

const key: IntakeKey = { keyId: 1, projectId: 7, isActive: true, keyQuotas: {}, projectQuotas: {}, internal: false, organizationId: 1, organizationQuotas: {} };

describe("key cache", () => {
  test("peek knows a key only once its lookup has settled, and only until the TTL passes", async () => {
    let lookups = 0;
    const cache = new KeyCache(async (k) => (lookups++, k === "known" ? key : null));
    const t0 = 1_000_000;
    assert.equal(cache.peek("known", t0), undefined);
    const pending = cache.get("known", t0);
    assert.equal(cache.peek("known", t0), undefined, "not before the lookup settles");
    assert.equal(await pending, key);
    assert.deepEqual(cache.peek("known", t0 + 1), { key });
    assert.equal(await cache.get("unknown", t0), null);
    assert.deepEqual(cache.peek("unknown", t0 + 1), { key: null }, "an unknown key is remembered as unknown");
    assert.equal(cache.peek("known", t0 + INTAKE_CACHE_LIMITS.keyTtlMs), undefined, "expired");
    assert.equal(lookups, 2);
  });

  test("a failed lookup is not remembered", async () => {
    let calls = 0;
    const cache = new KeyCache(async () => {
      calls++;
      throw new Error("database down");
    });
    await assert.rejects(cache.get("k", 0));
    assert.equal(cache.peek("k", 1), undefined);
    await assert.rejects(cache.get("k", 1));
    assert.equal(calls, 2);
  });
});
