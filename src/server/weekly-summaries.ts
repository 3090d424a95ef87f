// The weekly summary's scheduler in the server process: every PERSONAL_NOTIFICATION_LIMITS.summaryIntervalMs it
// writes the summaries due by then (core/weekly-summary.ts) to the outbox. Several processes on one PostgreSQL may
// each run it: the outbox's key per person, organization and week keeps one of each. A failed pass (the database
// away) is logged and the next one tries again.
import { PERSONAL_NOTIFICATION_LIMITS } from "../config/limits";
import { linkBase } from "../core/links";
import { writeDueSummaries } from "../core/weekly-summary";
import type { Store } from "../storage/ports";

export function startWeeklySummaries(
  store: Store,
  log: (line: string) => void,
  intervalMs: number = PERSONAL_NOTIFICATION_LIMITS.summaryIntervalMs,
): { stop: () => Promise<void> } {
  let running: Promise<void> | null = null;
  const pass = () => {
    if (running) return;
    running = writeDueSummaries(store, new Date(), linkBase())
      .then((n) => {
        if (n > 0) log(`faultline: ${n} weekly ${n === 1 ? "summary" : "summaries"} queued`);
      })
      .catch((err: unknown) => log(`faultline: weekly summaries not queued: ${String((err as Error)?.message ?? err).split("\n", 1)[0]}`))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  pass();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
