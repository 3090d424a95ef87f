// The digest loop: read the spool from the saved position, write a batch and the new position in one transaction,
// report the position (so the intake can delete what lies behind it), repeat. Idempotent: after a crash the batch
// after the saved position is simply written again, and stored events are unique per (project, event id).
import { DIGEST_LIMITS } from "../config/limits";
import type { SpoolReader, SpoolRow } from "../ingest/spool";
import type { DigestStore, Project, ProjectStore } from "../storage/ports";
import { writeBatch } from "./commit";
import { digestRows } from "./items";
import type { RetentionJob } from "./retention";
import type { Symbolicator } from "./symbolicate";

export type DigestLoopOptions = {
  spool: SpoolReader;
  store: DigestStore & Pick<ProjectStore, "getProjectById">;
  onPosition: (position: number) => void;
  log: (line: string) => void;
  /** True once the loop should stop. */
  stopped: () => boolean;
  /** Pruning by age and per-issue cap, one bounded step after each batch and while the spool is empty. */
  retention?: RetentionJob;
  /** Maps JavaScript frames through source maps before grouping; without it events are grouped as sent. */
  symbolicator?: Symbolicator;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Increment = { projectId: number };
const increments = (row: SpoolRow): Increment[] => JSON.parse(Buffer.from(row.payload).toString("utf8")) as Increment[];

/**
 * Drops rows and outcome counts of projects deleted since they were accepted (they would violate the foreign keys).
 * Outcome rows carry counts for any project, so their project ids are looked up too.
 */
async function liveRows(rows: SpoolRow[], store: DigestLoopOptions["store"]): Promise<{ rows: SpoolRow[]; projects: Map<number, Project> }> {
  const ids = new Set<number>();
  for (const r of rows) {
    if (r.kind === "item") ids.add(r.projectId);
    else for (const o of increments(r)) ids.add(o.projectId);
  }
  const live = new Map<number, Project>();
  for (const id of ids) {
    const project = await store.getProjectById(id);
    if (project) live.set(id, project);
  }
  return {
    projects: live,
    rows: rows
      .filter((r) => r.kind === "outcomes" || live.has(r.projectId))
      .map((r) => (r.kind === "outcomes" ? { ...r, payload: Buffer.from(JSON.stringify(increments(r).filter((o) => live.has(o.projectId)))) } : r)),
  };
}

/** Digests one batch; returns the new position, or `position` itself when the spool had nothing after it. */
export async function digestOnce(opts: DigestLoopOptions, position: number): Promise<number> {
  const rows = opts.spool.read(position, DIGEST_LIMITS.batchSize, DIGEST_LIMITS.batchBytes);
  if (rows.length === 0) return position;
  const next = rows[rows.length - 1]!.id;
  const live = await liveRows(rows, opts.store);
  opts.symbolicator?.startBatch();
  const symbolication = opts.symbolicator
    ? { symbolicator: opts.symbolicator, project: (id: number) => ({ id, scrapeJavaScript: live.projects.get(id)?.scrapeJavaScript === true }) }
    : null;
  const { events, rawItems, outcomes, sessions, spans } = await digestRows(live.rows, opts.log, symbolication);
  // One transaction for the batch and `next`: a crash before it commits leaves the saved position where it was, and the
  // batch is read and written again whole; after it commits, the batch is never read again. Counters that add (issue
  // events, outcomes, session counts) rely on this.
  await writeBatch(opts.store, { spoolId: opts.spool.id, position: next, events, rawItems, outcomes, sessions, spans });
  return next;
}

export async function runDigestLoop(opts: DigestLoopOptions): Promise<void> {
  let position = await opts.store.getSpoolPosition(opts.spool.id);
  opts.onPosition(position);
  let failures = 0;
  while (!opts.stopped()) {
    try {
      const next = await digestOnce(opts, position);
      failures = 0;
      if (next === position) {
        // Nothing to digest: retention may use the time, a step at a time, so new items still come first.
        if (!(await opts.retention?.step())) await sleep(DIGEST_LIMITS.idlePollMs);
        continue;
      }
      position = next;
      opts.onPosition(position);
      await opts.retention?.step();
    } catch (err) {
      // A locked or unreachable database: wait and try the same batch again; nothing is lost meanwhile.
      failures++;
      opts.log(`faultline: digest batch after spool position ${position} failed (${failures}x): ${(err as Error).message}`);
      await sleep(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)));
      // A commit whose answer was lost (a dropped connection) may still have happened: go on from the saved position.
      const saved = await opts.store.getSpoolPosition(opts.spool.id).catch(() => position);
      if (saved !== position) {
        position = saved;
        opts.onPosition(position);
      }
    }
  }
}
