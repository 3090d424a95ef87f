// Databag trimming end to end (digest/normalize/databags.ts): wide objects an SDK may send, through the intake and the
// digest thread, are stored cut to Relay's bag sizes with Relay's notes in `_meta`, and the event's issue counts its
// first DIGEST_LIMITS.tagsPerEvent own tags. Before the trimming such an event was stored whole.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { DIGEST_LIMITS } from "../../src/config/limits";
import { type TestIntake, startTestIntake } from "../helpers/intake";

let t: TestIntake;
before(async () => {
  t = await startTestIntake();
});
after(async () => t.close());

const wide = (n: number, prefix: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, `value ${i}`]));

test("a context, a request body and tags of 15,000 keys each are stored cut, with the cuts noted", async () => {
  const p = t.projects[0];
  const eventId = randomUUID().replace(/-/g, "");
  const body = JSON.stringify({
    event_id: eventId,
    message: "wide",
    contexts: { app: wide(15_000, "k") },
    request: { url: "https://example.com/", data: wide(15_000, "f") },
    tags: wide(15_000, "t"),
  });
  assert.ok(body.length > 900_000 && body.length < 1_048_576);
  const res = await fetch(t.url("store", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`), {
    method: "POST",
    body,
    headers: { "content-type": "application/json" },
  });
  assert.equal(res.status, 200, await res.text());
  const stored = await t.waitForEvent(p, eventId, 30_000);
  const event = JSON.parse(stored.data) as { contexts: { app: object }; request: { data: object }; tags: unknown[]; _meta: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- reading nested test output
  // A context is a bag of 8,192 bytes, a request body too: "value N" costs 10 to 14 bytes of it.
  assert.ok(Object.keys(event.contexts.app).length < 900, String(Object.keys(event.contexts.app).length));
  assert.ok(Object.keys(event.request.data).length < 900, String(Object.keys(event.request.data).length));
  assert.equal(event._meta.contexts.app[""].len, 15_000, "the context's keys (its type is kept, not counted)");
  assert.equal(event._meta.request.data[""].len, 15_000);
  // Tags are no databag: the event keeps them all, its issue counts the first 200.
  assert.equal(event.tags.length, 15_000);
  const tagRows = await t.core.db.kysely.selectFrom("issue_tags").select("key").where("issue_id", "=", stored.issueId!).execute();
  assert.equal(tagRows.filter((r) => /^t\d+$/.test(r.key)).length, DIGEST_LIMITS.tagsPerEvent);
});
