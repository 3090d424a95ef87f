// The notification counters of /metrics move with real deliveries: a webhook sent to a real receiver on loopback, one
// refused for good (410) and one to be retried (503). Port 9760.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { UNAVAILABLE_MAILER } from "../../src/notify/mailer";
import { createSender } from "../../src/notify/sender";
import { metrics } from "../../src/observability/metrics";
import { WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import { type Receiver, type Seeded, type TestDb, enqueue, notification, receiver, seed, settle, testDb } from "../notify/fixtures";
import { parsePrometheus, sampleValue } from "../helpers/prometheus";

let t: TestDb;
let s: Seeded;
let hook: Receiver;
before(async () => {
  t = await testDb("sqlite");
  s = await seed(t.db);
  await t.store.setAllowedHostsSetting("127.0.0.1");
  hook = await receiver(9760, (_n, r) => (r.path === "/gone" ? { status: 410 } : r.path === "/busy" ? { status: 503 } : { status: 200, body: "ok" }));
});
after(async () => {
  await hook.close();
  await t.close();
});

const count = async (status: string) =>
  sampleValue(parsePrometheus(await metrics().registry.metrics()), "faultline_notification_deliveries_total", { source: "issue_rule", status });

test("sent, failed and pending attempts are counted by outcome", async () => {
  const before = { sent: await count("sent"), failed: await count("failed"), pending: await count("pending") };
  const runner = createSender({ store: t.store, mailer: UNAVAILABLE_MAILER, log: () => undefined });
  const [ok] = await enqueue(t.db, [notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url("/ok") })]);
  assert.equal(await settle(t.store, ok!, () => runner.runOnce()), "sent");
  const [gone] = await enqueue(t.db, [notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url("/gone") })]);
  assert.equal(await settle(t.store, gone!, () => runner.runOnce()), "failed");
  const [busy] = await enqueue(t.db, [notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url("/busy") })]);
  for (let i = 0; i < 100 && !hook.receipts.some((r) => r.path === "/busy"); i++) await runner.runOnce();
  assert.equal((await t.store.getNotification(busy!))?.status, "pending");
  assert.equal((await count("sent")) - before.sent, 1);
  assert.equal((await count("failed")) - before.failed, 1);
  assert.equal((await count("pending")) - before.pending, 1);
});
