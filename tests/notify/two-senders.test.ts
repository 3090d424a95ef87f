// Two senders on one database, each with its own connections (as two Faultline processes have): every notification
// reaches the receiver exactly once. On PostgreSQL the claims use FOR UPDATE SKIP LOCKED; on SQLite one UPDATE under
// the write lock. Ports 9748-9749.
import assert from "node:assert/strict";
import { test } from "node:test";
import { UNAVAILABLE_MAILER } from "../../src/notify/mailer";
import { startNotificationSender } from "../../src/notify/sender";
import { openDb } from "../../src/storage/db";
import { notificationStore } from "../../src/storage/kysely/notifications";
import { WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import { enqueue, notification, receiver, seed, testDb } from "./fixtures";

const COUNT = 300;

for (const [dialect, port] of [["postgres", 9748], ["sqlite", 9749]] as const) {
  test(`issue 17 delivery: two senders on one ${dialect === "postgres" ? "PostgreSQL" : "SQLite"} database deliver each of ${COUNT} notifications exactly once`, async () => {
    const t = await testDb(dialect);
    const hook = await receiver(port);
    const second = openDb(dialect === "postgres" ? { dialect: "postgres", url: t.url } : { dialect: "sqlite", file: t.file });
    const senders: { stop: () => Promise<void> }[] = [];
    try {
      const s = await seed(t.db);
      await t.store.setAllowedHostsSetting("127.0.0.1");
      const rows = Array.from({ length: COUNT }, () => notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url() }));
      const stores = [t.store, notificationStore({ db: second.kysely, dialect: second.dialect })];
      for (const [i, store] of stores.entries()) senders.push(startNotificationSender({ store, mailer: UNAVAILABLE_MAILER, log: () => undefined, owner: `sender-${i}`, pollMs: 10 }));
      // Written in slices while both run, as the digest writes them batch by batch.
      for (let i = 0; i < COUNT; i += 50) await enqueue(t.db, rows.slice(i, i + 50));
      await hook.until((rs) => new Set(rs.map((r) => r.key)).size === COUNT, `all ${COUNT} keys`);
      for (const sender of senders.splice(0)) await sender.stop();
      const perKey = new Map<string, number>();
      for (const r of hook.receipts) perKey.set(r.key, (perKey.get(r.key) ?? 0) + 1);
      assert.equal(hook.receipts.length, COUNT, "no notification was sent twice");
      assert.ok([...perKey.values()].every((c) => c === 1));
      const states = await t.db.kysely.selectFrom("notifications").select(["status", "claimed_by"]).execute();
      assert.ok(states.every((r) => r.status === "sent" && r.claimed_by === null), "all sent, no claim left");
      const attempts = await t.db.kysely.selectFrom("notification_attempts").select("id").execute();
      assert.equal(attempts.length, COUNT, "one attempt each");
    } finally {
      for (const sender of senders) await sender.stop();
      await hook.close();
      await second.close();
      await t.close();
    }
  });
}
