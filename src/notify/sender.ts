// The sender: claims due notifications in small batches, delivers them side by side (deliver.ts), records each
// attempt and outcome. Every Faultline process that sends runs one (the server, `faultline worker`); claims in the
// database make each notification go through one sender at a time. Woken at once when the digest wrote
// notifications (`wake()`), else it looks every NOTIFICATION_LIMITS.pollMs. Delivery is at least once: a sender that
// dies between claiming and recording leaves its claims to pass (claimMs), and another sender delivers them again
// with the same idempotency key.
import { metrics } from "../observability/metrics";
import { randomBytes } from "node:crypto";
import os from "node:os";
import { NOTIFICATION_LIMITS } from "../config/limits";
import type { Resolve } from "../digest/symbolicate/fetch";
import type { Notification } from "../storage/notification-ports";
import type { SenderStore } from "../storage/notification-settings-ports";
import { parseAllowedHosts } from "./allowed-hosts";
import { type DeliveryContext, deliverNotification } from "./deliver";
import type { NotificationMailer } from "./mailer";

export type SenderOptions = {
  store: SenderStore;
  mailer: NotificationMailer;
  log: (line: string) => void;
  /** Names this sender in its claims; by default host, process id and a random part. */
  owner?: string;
  /** The defaults are NOTIFICATION_LIMITS'; tests shorten them. */
  pollMs?: number;
  batchSize?: number;
  claimMs?: number;
  requestTimeoutMs?: number;
  retryBaseMs?: number;
  /** milliseconds since the epoch; tests move it forward to reach the end of the retry window. */
  now?: () => number;
  resolve?: Resolve;
};

export type NotificationSender = {
  /** Looks for due notifications now (or as soon as the pass in hand ends). */
  wake(): void;
  /** One pass: claims and delivers one batch; resolves with how many it claimed. */
  runOnce(): Promise<number>;
  /** Stops after the deliveries in hand (their outcomes are recorded). */
  stop(): Promise<void>;
};

export const defaultSenderId = () => `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

/** Starts a sender that runs until stopped. */
export function startNotificationSender(opts: SenderOptions): NotificationSender {
  const sender = createSender(opts);
  let running = true;
  let woken = false;
  let wakeUp: (() => void) | null = null;
  const pollMs = opts.pollMs ?? NOTIFICATION_LIMITS.pollMs;
  const batchSize = opts.batchSize ?? NOTIFICATION_LIMITS.batchSize;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || !running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });
  const loop = (async () => {
    let failures = 0;
    while (running) {
      woken = false;
      try {
        const claimed = await sender.runOnce();
        if (failures > 0) opts.log("faultline: sending notifications works again");
        failures = 0;
        // A full batch: more may be due at once.
        if (claimed >= batchSize) continue;
        await pause(pollMs);
      } catch (err) {
        // The database is away: nothing is lost (the rows wait in the outbox); said once per outage.
        if (failures === 0) opts.log(`faultline: cannot send notifications: ${(err as Error).message}`);
        failures++;
        await pause(Math.min(30_000, pollMs * 2 ** Math.min(failures, 6)));
      }
    }
  })();
  return {
    wake() {
      woken = true;
      wakeUp?.();
    },
    runOnce: () => sender.runOnce(),
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
    },
  };
}

/** A sender without a loop of its own: each `runOnce` is one pass (tests drive it; the loop above runs it). */
export function createSender(opts: SenderOptions): Pick<NotificationSender, "runOnce"> {
  const owner = opts.owner ?? defaultSenderId();
  const now = opts.now ?? Date.now;
  const claimMs = opts.claimMs ?? NOTIFICATION_LIMITS.claimMs;
  const batchSize = opts.batchSize ?? NOTIFICATION_LIMITS.batchSize;

  const deliverOne = async (n: Notification, ctx: DeliveryContext) => {
    const result = await deliverNotification(n, ctx);
    if (result.kind === "done") metrics().notification(n.source, result.outcome.status);
    if (result.kind === "expand") {
      await opts.store.expandNotification(n.id, owner, result.children, result.attempt);
      return;
    }
    const written = await opts.store.finishNotification(n.id, owner, result.attempt, result.outcome);
    if (written && result.outcome.status === "failed") opts.log(`faultline: notification ${n.id} (${n.source}) failed: ${result.outcome.error}`);
  };

  return {
    async runOnce() {
      const at = now();
      const claimed = await opts.store.claimDueNotifications(owner, new Date(at).toISOString(), new Date(at + claimMs).toISOString(), batchSize);
      if (claimed.length === 0) return 0;
      const ctx: DeliveryContext = {
        store: opts.store,
        mailer: opts.mailer,
        allowedHosts: parseAllowedHosts(await opts.store.getAllowedHostsSetting()),
        now,
        requestTimeoutMs: opts.requestTimeoutMs ?? NOTIFICATION_LIMITS.requestTimeoutMs,
        retryBaseMs: opts.retryBaseMs ?? NOTIFICATION_LIMITS.retryBaseMs,
        resolve: opts.resolve,
      };
      const results = await Promise.allSettled(claimed.map((n) => deliverOne(n, ctx)));
      // A failure here is the database's (recording the outcome): the claim passes and the row is delivered again.
      const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
      if (failed) throw failed.reason;
      return claimed.length;
    },
  };
}
