// A sender in a process of its own, for the crash and two-sender tests: `node --import tsx sender-child.ts` with
// NOTIFY_DB (a SQLite file, or a postgres:// URL), NOTIFY_CLAIM_MS (how long its claims last) and NOTIFY_TIMEOUT_MS
// (a request's time limit). Runs until killed; SIGTERM stops it after the deliveries in hand, recorded.
import { UNAVAILABLE_MAILER } from "../../src/notify/mailer";
import { startNotificationSender } from "../../src/notify/sender";
import { openDb } from "../../src/storage/db";
import { senderStore } from "../../src/storage/kysely/notifications";

const target = process.env.NOTIFY_DB ?? "";
const db = openDb(target.startsWith("postgres") ? { dialect: "postgres", url: target } : { dialect: "sqlite", file: target });
const sender = startNotificationSender({
  store: senderStore({ db: db.kysely, dialect: db.dialect }),
  mailer: UNAVAILABLE_MAILER,
  log: (line) => console.log(line),
  owner: `child-${process.pid}`,
  pollMs: 20,
  claimMs: Number(process.env.NOTIFY_CLAIM_MS ?? 60_000),
  requestTimeoutMs: Number(process.env.NOTIFY_TIMEOUT_MS ?? 5_000),
});
process.once("SIGTERM", () => {
  void sender
    .stop()
    .then(() => db.close())
    .then(() => process.exit(0));
});
console.log("sender started");
