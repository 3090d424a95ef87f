// Delivering the notification outbox: what the server and `faultline worker` start, and what other parts call (the
// save-time URL check of alert rules, the instance setting of allowed hosts).
import type { Db } from "../storage/db";
import { senderStore } from "../storage/kysely/notifications";
import type { NotificationStore } from "../storage/notification-ports";
import { parseAllowedHosts } from "./allowed-hosts";
import { type TargetCheck, checkTargetUrl } from "./http";
import { type NotificationMailer, mailerFromEnv } from "./mailer";
import { type NotificationSender, startNotificationSender } from "./sender";

export { checkTargetUrl, describeTarget, type TargetCheck } from "./http";
export { parseAllowedHosts } from "./allowed-hosts";
export type { NotificationSender } from "./sender";

/** checkTargetUrl with the instance's allowed hosts: the check when a rule with a webhook-like action is saved. */
export async function validateTargetUrl(store: Pick<NotificationStore, "getAllowedHostsSetting">, url: string): Promise<TargetCheck> {
  return checkTargetUrl(url, parseAllowedHosts(await store.getAllowedHostsSetting()));
}

/** Starts this process's sender on `db` (the process's own connection), with the mailer of the environment. */
export function startNotifications(db: Db, log: (line: string) => void, mailer: NotificationMailer = mailerFromEnv()): NotificationSender {
  return startNotificationSender({ store: senderStore({ db: db.kysely, dialect: db.dialect }), mailer, log });
}
