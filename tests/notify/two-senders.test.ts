// Two senders in two processes on one database (this one, and a child process running tests/notify/sender-child.ts):
// every notification reaches the receiver exactly once. On PostgreSQL the claims use FOR UPDATE SKIP LOCKED; on
// SQLite one UPDATE under the write lock. Ports 9748-9749.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { UNAVAILABLE_MAILER } from "../../src/notify/mailer";
import { startNotificationSender } from "../../src/notify/sender";
import { WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import { enqueue, notification, receiver, seed, testDb } from "./fixtures";

const COUNT = 300;

for (const [dialect, port] of [
  ["postgres", 9748],
  ["sqlite", 9749],
] as const) {
  test(`issue 17 delivery: two senders on one ${dialect === "postgres" ? "PostgreSQL" : "SQLite"} database deliver each of ${COUNT} notifications exactly once`, async (ctx) => {
    const t = await testDb(dialect);
    const hook = await receiver(port);
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./sender-child.ts", import.meta.url))], {
      env: { ...process.env, NOTIFY_DB: dialect === "postgres" ? t.url : t.file },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    // Both must be running before anything is due, or the first might take it all.
    await new Promise<void>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d: Buffer) => (out += d.toString()).includes("sender started") && resolve());
      void exited.then((code) => reject(new Error(`the child sender exited (${code}) before starting: ${out}`)));
    });
    let claimedHere = 0;
    const claim = t.store.claimDueNotifications;
    const store = {
      ...t.store,
      claimDueNotifications: async (...args: Parameters<typeof claim>) => {
        const rows = await claim(...args);
        claimedHere += rows.length;
        return rows;
      },
    };
    const here = startNotificationSender({ store, mailer: UNAVAILABLE_MAILER, log: () => undefined, owner: "parent", pollMs: 20 });
    try {
      const s = await seed(t.db);
      await t.store.setAllowedHostsSetting("127.0.0.1");
      const rows = Array.from({ length: COUNT }, () => notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url() }));
      // Written in slices while both run, as the digest writes them batch by batch.
      for (let i = 0; i < COUNT; i += 50) await enqueue(t.db, rows.slice(i, i + 50));
      await hook.until((rs) => new Set(rs.map((r) => r.key)).size === COUNT, `all ${COUNT} keys`);
    } finally {
      // Both stop after recording the deliveries in hand.
      child.kill("SIGTERM");
      await here.stop();
    }
    try {
      assert.equal(await exited, 0, "the child sender stopped cleanly");
      ctx.diagnostic(`this process sent ${claimedHere}, the child ${COUNT - claimedHere}`);
      const perKey = new Map<string, number>();
      for (const r of hook.receipts) perKey.set(r.key, (perKey.get(r.key) ?? 0) + 1);
      assert.equal(hook.receipts.length, COUNT, "no notification was sent twice");
      assert.ok([...perKey.values()].every((c) => c === 1));
      const states = await t.db.kysely.selectFrom("notifications").select(["status", "claimed_by"]).execute();
      assert.ok(
        states.every((r) => r.status === "sent" && r.claimed_by === null),
        "all sent, no claim left",
      );
      const attempts = await t.db.kysely.selectFrom("notification_attempts").select("id").execute();
      assert.equal(attempts.length, COUNT, "one attempt each");
    } finally {
      await hook.close();
      await t.close();
    }
  });
}
