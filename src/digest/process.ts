// `faultline worker`: the digest in a process of its own, for a server started with FAULTLINE_DIGEST=external. The
// same digest thread as the server's, supervised the same way (supervisor.ts: a record that blocks it is set aside),
// on the spool in FAULTLINE_DATA_DIR (written by the server, on this host or on storage both mount) and the same
// database. New records are found by polling the segment files, as in the server. The OS schedules this process like
// any other: on the server's host, start it under `nice` to let the intake go first under load, as the server's
// thread does; on a host of its own there is nothing to yield to.
import { startMetricsListener } from "../observability/http";
import { metrics } from "../observability/metrics";
import { watchPool } from "../observability/pools";
import { DIGEST_LIMITS, STORAGE_LIMITS } from "../config/limits";
import type { Config } from "../config/env";
import { existingSpoolId, spoolDir } from "../ingest";
import { dbOptionsFromConfig, openDb } from "../storage/db";
import { startNotifications } from "../notify";
import { migrateToLatest } from "../storage/migrate";
import { lockDigest } from "./lock";
import { type SupervisorOptions, superviseDigest } from "./supervisor";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type WorkerOptions = Pick<SupervisorOptions, "entry" | "budgetMs"> & {
  /** Stops the worker as SIGTERM does (for a caller that runs it in its own process). */
  signal?: AbortSignal;
};

/**
 * Digests until SIGTERM or SIGINT (or `options.signal`), then finishes the batch in hand (its transaction commits or
 * was never begun), releases the lock and returns. A second signal exits at once: the batch's transaction rolls
 * back, and the next worker writes it again. Throws DigestLockedError when another digest consumes the spool.
 */
export async function runWorker(config: Config, log: (line: string) => void = console.log, options: WorkerOptions = {}): Promise<void> {
  const dir = spoolDir(config.dataDir);
  let stopping = false;
  let stopped: () => void = () => undefined;
  const untilStopped = new Promise<void>((resolve) => (stopped = resolve));
  const onSignal = (signal: NodeJS.Signals | "abort") => {
    if (stopping) {
      log(`faultline: worker interrupted by a second ${signal}; the batch in hand will be digested again`);
      process.exit(1);
    }
    stopping = true;
    log(`faultline: worker stopping (${signal}) after the batch in hand`);
    stopped();
  };
  const onAbort = () => onSignal("abort");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  const dbOptions = dbOptionsFromConfig(config);
  const db = openDb(dbOptions.dialect === "sqlite" ? { ...dbOptions, cacheKiB: STORAGE_LIMITS.digestCacheKiB } : dbOptions);
  watchPool("server", db.pool);
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) log(`faultline: applied migrations ${applied.join(", ")}`);
    // The server creates the spool; on a new data dir the worker may be up first.
    if (!existingSpoolId(config.dataDir)) log(`faultline: waiting for the spool in ${dir} (created by faultline start)`);
    while (!existingSpoolId(config.dataDir) && !stopping) await sleep(DIGEST_LIMITS.spoolWaitMs);
    if (stopping) return;
    const lock = lockDigest(dir, "faultline worker");
    let position = 0;
    // The worker sends the outbox too, woken by its own digest thread: no wait for the server's next poll.
    const sender = startNotifications(db, log);
    try {
      log(`faultline: worker digesting the spool in ${dir} (${existingSpoolId(config.dataDir)}) into ${config.databaseUrl ? "postgres" : "sqlite"}`);
      const digest = superviseDigest({
        data: { spoolDir: dir, db: dbOptionsFromConfig(config), retentionDays: config.retentionDays, prepareThread: config.digestThreads === 2 },
        onPosition: (p) => (position = p),
        log,
        entry: options.entry,
        budgetMs: options.budgetMs,
        onNotifications: () => sender.wake(),
        onBatch: (b) => metrics().digestBatch(b),
      });
      // Its own figures (the digest's, notifications, the process) on FAULTLINE_METRICS_ADDRESS when set.
      const metricsServer = config.metrics.address ? await startMetricsListener(config.metrics.address) : null;
      await untilStopped;
      metricsServer?.close();
      await Promise.all([digest.stop(), sender.stop()]);
      log(`faultline: worker stopped at spool position ${position}`);
    } finally {
      await sender.stop();
      lock.release();
    }
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    options.signal?.removeEventListener("abort", onAbort);
    await db.close();
  }
}
