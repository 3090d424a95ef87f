// kill -9 of a sender between claiming a notification and recording its delivery: the claim passes, another sender
// delivers it, and the receiver sees one idempotency key (once or twice, always the same). Nothing is lost. Port 9747.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { UNAVAILABLE_MAILER } from "../../src/notify/mailer";
import { startNotificationSender } from "../../src/notify/sender";
import { WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import { type Receiver, type Seeded, type TestDb, enqueue, notification, receiver, seed, testDb } from "./fixtures";

let t: TestDb;
let s: Seeded;
let hook: Receiver;
/** milliseconds the crashed sender's claims last */
const CLAIM_MS = 1500;

before(async () => {
  t = await testDb("sqlite");
  s = await seed(t.db);
  await t.store.setAllowedHostsSetting("127.0.0.1");
  // The first request is held unanswered: the sender has claimed and is delivering when it is killed.
  hook = await receiver(9747, (n) => (n === 0 ? "hang" : { status: 200, body: "ok" }));
});
after(async () => {
  await hook.close();
  await t.close();
});

test("issue 17 delivery: a sender killed (kill -9) between claim and delivery leaves the notification to the next, delivered under one key", async () => {
  const n = notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url() });
  const [id] = await enqueue(t.db, [n]);
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./sender-child.ts", import.meta.url))], {
    // Its request waits far longer than its claim: only the kill ends it, never a time limit of its own.
    env: { ...process.env, NOTIFY_DB: t.file, NOTIFY_CLAIM_MS: String(CLAIM_MS), NOTIFY_TIMEOUT_MS: "600000" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
  try {
    await hook.until((rs) => rs.length === 1, "the first delivery");
    const claimed = await t.db.kysely.selectFrom("notifications").select(["claimed_by", "status"]).where("id", "=", id!).executeTakeFirstOrThrow();
    assert.equal(claimed.claimed_by, `child-${child.pid}`, "the child holds the claim while it delivers");
    assert.equal(claimed.status, "pending");
    child.kill("SIGKILL");
    assert.equal(await exited, "SIGKILL");
  } finally {
    child.kill("SIGKILL");
  }
  // Nothing was recorded for the killed attempt; the row waits for its claim to pass.
  assert.equal((await t.store.listNotificationAttempts(id!)).length, 0);
  const next = startNotificationSender({ store: t.store, mailer: UNAVAILABLE_MAILER, log: () => undefined, pollMs: 50 });
  try {
    await hook.until((rs) => rs.length === 2, "the delivery after the restart");
    for (;;) {
      const row = await t.store.getNotification(id!);
      if (row!.status !== "pending") break;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await next.stop();
  }
  assert.deepEqual([...new Set(hook.receipts.map((r) => r.key))], [n.idempotencyKey], "the receiver saw one key");
  const row = await t.store.getNotification(id!);
  assert.equal(row!.status, "sent");
  const attempts = await t.store.listNotificationAttempts(id!);
  assert.deepEqual(
    attempts.map((a) => [a.ok, a.statusCode]),
    [[true, 200]],
  );
  const first = hook.receipts[0]!;
  const second = hook.receipts[1]!;
  assert.equal(first.body.toString(), second.body.toString(), "the same body both times, so the receiver's deduplication holds");
});
