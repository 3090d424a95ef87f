// A sender in a process of its own, for the crash test: `node --import tsx sender-child.ts` with NOTIFY_DB (a SQLite
// file, or a postgres:// URL) and NOTIFY_CLAIM_MS (how long its claims last). Runs until killed.
import { UNAVAILABLE_MAILER } from "../../src/notify/mailer";
import { startNotificationSender } from "../../src/notify/sender";
import { openDb } from "../../src/storage/db";
import { notificationStore } from "../../src/storage/kysely/notifications";

const target = process.env.NOTIFY_DB ?? "";
const db = openDb(target.startsWith("postgres") ? { dialect: "postgres", url: target } : { dialect: "sqlite", file: target });
startNotificationSender({
  store: notificationStore({ db: db.kysely, dialect: db.dialect }),
  mailer: UNAVAILABLE_MAILER,
  log: (line) => console.log(line),
  owner: `child-${process.pid}`,
  pollMs: 50,
  claimMs: Number(process.env.NOTIFY_CLAIM_MS ?? 60_000),
});
console.log("sender started");
