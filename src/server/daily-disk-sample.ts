// Today's disk usage sample (ops/disk-samples.ts), taken by the server at its start and then looked for every
// DISK_USAGE_LIMITS.sampleCheckIntervalMs, so the growth per day is there without anyone opening the page. A failure
// (a full disk, the data dir gone) is one log line; the next look tries again.
import { DISK_USAGE_LIMITS } from "../config/limits";
import { recordSample } from "../ops/disk-samples";
import { measureDiskUsage } from "../ops/disk-usage";
import type { Db } from "../storage/db";

export function startDailyDiskSample(dataDir: string, db: Db, log: (line: string) => void): { stop: () => void } {
  let lastError = "";
  const take = () => {
    measureDiskUsage(dataDir, db)
      .then((usage) => recordSample(dataDir, usage, new Date()))
      .then(() => {
        lastError = "";
      })
      .catch((err: unknown) => {
        const line = String((err as Error)?.message ?? err).split("\n", 1)[0];
        if (line !== lastError) log(`faultline: disk usage not sampled: ${line}`);
        lastError = line ?? "";
      });
  };
  const timer = setInterval(take, DISK_USAGE_LIMITS.sampleCheckIntervalMs);
  timer.unref();
  take();
  return { stop: () => clearInterval(timer) };
}
