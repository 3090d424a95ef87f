// A failing receiver: retried with exponential backoff, every attempt in the history; failed for good when trying
// again cannot help (a refusal, a redirect) or a day has passed. Ports 9744-9745.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { NOTIFICATION_LIMITS } from "../../src/config/limits";
import { retryDelayMs } from "../../src/notify/deliver";
import { UNAVAILABLE_MAILER } from "../../src/notify/mailer";
import { createSender } from "../../src/notify/sender";
import { WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import { type Receiver, type Seeded, type TestDb, enqueue, notification, receiver, seed, settle, testDb } from "./fixtures";

let t: TestDb;
let s: Seeded;
let flaky: Receiver;
let other: Receiver;
const BASE_MS = 40;

before(async () => {
  t = await testDb("sqlite");
  s = await seed(t.db);
  await t.store.setAllowedHostsSetting("127.0.0.1");
  // First a server error, then no answer at all, then success.
  flaky = await receiver(9744, (n) => (n === 0 ? { status: 500, body: "database down" } : n === 1 ? "hang" : { status: 202, body: "accepted" }));
  other = await receiver(9745, (_n, r) =>
    r.path === "/gone"
      ? { status: 410, body: "unsubscribed" }
      : r.path === "/moved"
        ? { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } }
        : { status: 503, body: "busy" },
  );
});
after(async () => {
  await flaky.close();
  await other.close();
  await t.close();
});

test("issue 17 delivery: a failing receiver (500, then a timeout) is retried with backoff and each failing attempt shows in the history", async () => {
  const n = notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: flaky.url() });
  const [id] = await enqueue(t.db, [n]);
  const runner = createSender({ store: t.store, mailer: UNAVAILABLE_MAILER, log: () => undefined, retryBaseMs: BASE_MS, requestTimeoutMs: 300 });
  assert.equal(await settle(t.store, id!, () => runner.runOnce()), "sent");
  assert.equal(flaky.receipts.length, 3);
  assert.deepEqual(new Set(flaky.receipts.map((r) => r.key)), new Set([n.idempotencyKey]), "every attempt carries the same key");
  const attempts = await t.store.listNotificationAttempts(id!);
  assert.deepEqual(
    attempts.map((a) => [a.ok, a.statusCode, a.responseExcerpt]),
    [
      [false, 500, "database down"],
      [false, null, null],
      [true, 202, "accepted"],
    ],
  );
  assert.match(attempts[0]!.error!, /answered 500/);
  assert.match(attempts[1]!.error!, /no answer within 300 ms/);
  // Backoff: an attempt never comes before its scheduled time, at least base·2^(n−1) less the jitter after the last.
  const at = attempts.map((a) => Date.parse(a.attemptedAt));
  assert.ok(at[1]! - at[0]! >= BASE_MS * (1 - NOTIFICATION_LIMITS.retryJitter), `second attempt ${at[1]! - at[0]!} ms after the first`);
  assert.ok(
    at[2]! - at[1]! >= 300 + 2 * BASE_MS * (1 - NOTIFICATION_LIMITS.retryJitter),
    `third attempt ${at[2]! - at[1]!} ms after the second (which waited 300 ms)`,
  );
  const final = await t.store.getNotification(id!);
  assert.equal(final!.attempts, 3);
  assert.ok(final!.sentAt);
});

test("issue 17 delivery: backoff doubles from its base, is capped, and spreads by the jitter", () => {
  const mid = () => 0.5;
  assert.equal(retryDelayMs(1, 1000, mid), 1000);
  assert.equal(retryDelayMs(2, 1000, mid), 2000);
  assert.equal(retryDelayMs(5, 1000, mid), 16000);
  assert.equal(retryDelayMs(40, 1000, mid), NOTIFICATION_LIMITS.retryMaxDelayMs);
  assert.equal(
    retryDelayMs(1, 1000, () => 0),
    1000 * (1 - NOTIFICATION_LIMITS.retryJitter),
  );
  assert.equal(
    retryDelayMs(1, 1000, () => 1),
    1000 * (1 + NOTIFICATION_LIMITS.retryJitter),
  );
});

test("issue 17 delivery: a receiver still failing a day after the notification was decided leaves it failed, with the last error", async () => {
  const decided = Date.now() - NOTIFICATION_LIMITS.maxAgeMs + 1000;
  const n = notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: other.url("/busy") }, { createdAt: new Date(decided).toISOString() });
  const [id] = await enqueue(t.db, [n]);
  const runner = createSender({ store: t.store, mailer: UNAVAILABLE_MAILER, log: () => undefined });
  assert.equal(await settle(t.store, id!, () => runner.runOnce()), "failed");
  const final = await t.store.getNotification(id!);
  assert.match(final!.lastError!, /gave up 24 h after it was due; last error: the receiver answered 503/);
  assert.equal(final!.attempts, 1);
});

test("issue 17 delivery: a refusal (410) and a redirect fail at once; the redirect is never followed", async () => {
  const gone = notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: other.url("/gone") });
  const moved = notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: other.url("/moved") });
  const [goneId, movedId] = await enqueue(t.db, [gone, moved]);
  const runner = createSender({ store: t.store, mailer: UNAVAILABLE_MAILER, log: () => undefined });
  assert.equal(await settle(t.store, goneId!, () => runner.runOnce()), "failed");
  assert.equal(await settle(t.store, movedId!, () => runner.runOnce()), "failed");
  assert.match((await t.store.getNotification(movedId!))!.lastError!, /redirected \(302\): redirects are not followed/);
  assert.equal((await t.store.listNotificationAttempts(movedId!))[0]!.statusCode, 302);
  assert.equal(other.receipts.filter((r) => r.path === "/moved").length, 1, "asked once, and nothing else was fetched");
});
