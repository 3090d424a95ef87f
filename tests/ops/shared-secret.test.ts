// The start's check that nodes on one database share the session secret (server/shared-secret.ts).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkSharedSecret, secretFingerprint } from "../../src/server/shared-secret";
import { type TestCore, testCore } from "../helpers/core";

let t: TestCore;
before(async () => {
  t = await testCore();
});
after(async () => t.close());

test("nodes with one secret start quietly; a node with another warns, names the fix and never logs the secret", async () => {
  const lines: string[] = [];
  const log = (l: string) => lines.push(l);
  const shared = "a".repeat(64);
  assert.equal(await checkSharedSecret(t.store, shared, false, log), true);
  assert.equal(await checkSharedSecret(t.store, shared, false, log), true);
  assert.deepEqual(lines, []);
  const own = "b".repeat(64);
  assert.equal(await checkSharedSecret(t.store, own, true, log), false);
  assert.equal(lines.length, 1);
  const line = String(lines.at(0));
  assert.match(line, /generated its own secret\.key.*FAULTLINE_SECRET_KEY/);
  assert.ok(!line.includes(own) && !line.includes(shared));
  assert.equal(await t.store.getSetting("session_secret_fingerprint"), secretFingerprint(own), "the newest start's secret is the one compared next");
  assert.ok(!secretFingerprint(own).includes("bbbb"));
});
