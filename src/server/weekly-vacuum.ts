// The server's weekly vacuum (ops/vacuum.ts): at most once every VACUUM_LIMITS.intervalMs, claimed by one node among
// several through job_claims (as retention claims its passes), it returns free space at low priority. On SQLite with
// auto_vacuum=INCREMENTAL that is `PRAGMA incremental_vacuum` in steps of VACUUM_LIMITS.stepPages pages with a pause
// between them, so the digest's batches wait milliseconds at most and the intake (which writes the spool) not at all;
// a database without that setting is never given a full VACUUM here (it would lock it): the log says to run
// `faultline vacuum` once. On PostgreSQL it is VACUUM (ANALYZE) of the largest tables, which blocks no writes.
import { randomUUID } from "node:crypto";
import { VACUUM_LIMITS } from "../config/limits";
import { checkpoint, incrementalStep, sqliteSpace, vacuumPostgres } from "../ops/vacuum";
import type { ClusterStore } from "../storage/cluster-ports";
import type { Db } from "../storage/db";

export type VacuumSettings = { intervalMs: number; checkIntervalMs: number; stepPages: number; stepPauseMs: number };

export type VacuumPass =
  | { ran: false; reason: "not-due" | "claimed-elsewhere" | "stopped" }
  | { ran: true; freedPages?: number; tables?: string[]; needsFullVacuum?: boolean };

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split("\n", 1)[0];

export class WeeklyVacuum {
  private nextAt = 0;
  private stopped = false;
  /** This process's name in job_claims. */
  private readonly holder = randomUUID();

  constructor(
    private readonly db: Db,
    private readonly store: Pick<ClusterStore, "claimJob">,
    private readonly log: (line: string) => void,
    private readonly settings: VacuumSettings = VACUUM_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  /** Runs the week's vacuum when it is due and this node claims it. */
  async pass(): Promise<VacuumPass> {
    const now = this.now();
    if (this.stopped) return { ran: false, reason: "stopped" };
    if (now < this.nextAt) return { ran: false, reason: "not-due" };
    const claimed = await this.store.claimJob("vacuum", this.holder, new Date(now).toISOString(), new Date(now + this.settings.intervalMs).toISOString());
    // Claimed or not, this node looks again a week on: another one holds this week's claim.
    this.nextAt = now + this.settings.intervalMs;
    if (!claimed) return { ran: false, reason: "claimed-elsewhere" };
    if (this.db.dialect === "postgres") {
      const tables = await vacuumPostgres(this.db);
      this.log(`faultline: weekly VACUUM (ANALYZE) of ${tables.length} tables done`);
      return { ran: true, tables };
    }
    const space = await sqliteSpace(this.db);
    if (space.autoVacuum !== "incremental") {
      if (space.freePages > 0)
        this.log(
          `faultline: the SQLite database keeps ${Math.round((space.freePages * space.pageSize) / 1048576)} MiB of free pages; run \`faultline vacuum\` once (a full VACUUM: see README, Command line) and the server returns them weekly after`,
        );
      return { ran: true, freedPages: 0, needsFullVacuum: true };
    }
    let free = space.freePages;
    for (let before = Infinity; free > 0 && free < before && !this.stopped; ) {
      before = free;
      free = await incrementalStep(this.db, this.settings.stepPages);
      await pause(this.settings.stepPauseMs);
    }
    // Once, at the end: empties the WAL the steps went through (it waits on the digest for at most busy_timeout).
    await checkpoint(this.db, "TRUNCATE");
    const freedPages = space.freePages - free;
    if (freedPages > 0) this.log(`faultline: weekly vacuum returned ${Math.round((freedPages * space.pageSize) / 1048576)} MiB to the file system`);
    return { ran: true, freedPages };
  }
}

/** Starts the weekly vacuum in the server: the first look one check interval after the start, then every interval. */
export function startWeeklyVacuum(db: Db, store: Pick<ClusterStore, "claimJob">, log: (line: string) => void): { stop: () => Promise<void> } {
  const job = new WeeklyVacuum(db, store, log);
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = job
      .pass()
      .catch((err: unknown) => log(`faultline: weekly vacuum not done: ${firstLine(err)}`))
      .finally(() => {
        running = null;
      });
  }, VACUUM_LIMITS.checkIntervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      job.stop();
      await running;
    },
  };
}
