// `faultline worker`: the digest in a process of its own, for a server started with FAULTLINE_DIGEST=external. The
// same loop as the worker thread, on the spool in FAULTLINE_DATA_DIR (written by the server, on this host or on
// storage both mount) and the same database. New records are found by polling the segment files, as in the thread.
// The OS schedules this process like any other: on the server's host, start it under `nice` to let the intake go
// first under load, as the thread does; on a host of its own there is nothing to yield to.
import { DIGEST_LIMITS } from "../config/limits";
import type { Config } from "../config/env";
import { existingSpoolId, spoolDir } from "../ingest";
import { SpoolReader } from "../ingest/spool";
import { dbOptionsFromConfig, openDb } from "../storage/db";
import { createStore } from "../storage/kysely";
import { migrateToLatest } from "../storage/migrate";
import { lockDigest } from "./lock";
import { runDigestLoop } from "./loop";
import { RetentionJob, retentionSettings } from "./retention";
import { Symbolicator, publicFetcher } from "./symbolicate";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Digests until SIGTERM or SIGINT, then finishes the batch in hand (its transaction commits or was never begun),
 * releases the lock and returns. A second signal exits at once: the batch's transaction rolls back, and the next
 * worker writes it again. Throws DigestLockedError when another digest consumes the spool.
 */
export async function runWorker(config: Config, log: (line: string) => void = console.log): Promise<void> {
  const dir = spoolDir(config.dataDir);
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`faultline: worker interrupted by a second ${signal}; the batch in hand will be digested again`);
      process.exit(1);
    }
    stopping = true;
    log(`faultline: worker stopping (${signal}) after the batch in hand`);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  const db = openDb(dbOptionsFromConfig(config));
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) log(`faultline: applied migrations ${applied.join(", ")}`);
    // The server creates the spool; on a new data dir the worker may be up first.
    if (!existingSpoolId(config.dataDir)) log(`faultline: waiting for the spool in ${dir} (created by faultline start)`);
    while (!existingSpoolId(config.dataDir) && !stopping) await sleep(DIGEST_LIMITS.spoolWaitMs);
    if (stopping) return;
    const lock = lockDigest(dir, "faultline worker");
    const spool = SpoolReader.open(dir);
    let position = 0;
    try {
      log(`faultline: worker digesting the spool in ${dir} (${spool.id}) into ${config.databaseUrl ? "postgres" : "sqlite"}`);
      const store = createStore(db);
      const retention = new RetentionJob(store, retentionSettings(config.retentionDays), log);
      const symbolicator = new Symbolicator({ artifacts: store, fetcher: publicFetcher(), log });
      await runDigestLoop({ spool, store, onPosition: (p) => (position = p), log, stopped: () => stopping, retention, symbolicator });
      log(`faultline: worker stopped at spool position ${position}`);
    } finally {
      spool.close();
      lock.release();
    }
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    await db.close();
  }
}
