// A batch's preparation: everything the digest does to spool records before its transaction, and nothing it writes.
// The records of projects deleted since are dropped, each project's scrubbing settings read, then every record parsed,
// normalized, scrubbed, symbolicated, grouped and encoded (items.ts). It reads the database (projects, settings, uploaded
// artifacts) and never writes it, so it can run ahead of the transaction: in a thread of its own (prepare-thread.ts)
// while the digest thread writes the batch before, or in the digest thread itself (loop.ts's default).
import type { SpoolRow } from "../ingest/spool";
import type { AttachmentBlobs } from "../storage/attachment-ports";
import { encodeEventData } from "../storage/event-codec";
import type { Project, ProjectStore } from "../storage/ports";
import type { ScrubbingSettingsStore } from "../storage/scrubbing-ports";
import { type DigestedRows, digestRows, emptyRows } from "./items";
import { NO_PROGRESS, type RecordProgress } from "./progress";
import { scrubbersOf } from "./scrubbers";
import type { Symbolicator } from "./symbolicate";

/** What preparing reads: projects and their scrubbing settings (and, through the symbolicator, artifacts). */
export type PrepareStore = Pick<ProjectStore, "getProjectById"> & Pick<ScrubbingSettingsStore, "dataScrubbingOfProjects">;

export type PrepareContext = {
  store: PrepareStore;
  log: (line: string) => void;
  /** Maps JavaScript frames through source maps before grouping; without it events are grouped as sent. */
  symbolicator?: Symbolicator;
  /** Hears of each record as its processing begins and ends (the digest's watchdog, progress.ts). */
  progress?: RecordProgress;
  /** Where multipart uploads staged their files (ingest/attachment-staging.ts); without it such records are dropped. */
  stagingDir?: string | null;
};

/** Prepares the batch's rows; the digest's transaction writes what this returns. */
export type PrepareRows = (rows: SpoolRow[]) => Promise<DigestedRows>;

/** The store the digest loop works with: what preparing reads, and attachment blobs it writes before a batch. */
export type LoopPrepareStore = PrepareStore & { attachmentBlobs: AttachmentBlobs };

type Increment = { projectId: number };

/**
 * A record's project options for the symbolicator. Called per record through a function made per batch: bound, so that
 * its code outlives the batch (storage/kysely/batch-rows.ts sumBy says why an arrow's would not).
 */
function projectOptionsOf(projects: Map<number, Project>, id: number): { id: number; scrapeJavaScript: boolean } {
  return { id, scrapeJavaScript: projects.get(id)?.scrapeJavaScript === true };
}
const increments = (row: SpoolRow): Increment[] => JSON.parse(Buffer.from(row.payload).toString("utf8")) as Increment[];

/**
 * Drops rows and outcome counts of projects deleted since they were accepted (they would violate the foreign keys).
 * Outcome rows carry counts for any project, so their project ids are looked up too.
 */
async function liveRows(rows: SpoolRow[], store: PrepareStore): Promise<{ rows: SpoolRow[]; projects: Map<number, Project> }> {
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

/**
 * Prepares `rows` with what `ctx` gives: the rows' events ready for the batch's transaction. With `onPart`, the rows
 * are prepared `partRows` at a time and each part handed over as it is done (the preparing thread sends it on), so
 * that a part's results need not stay alive while the rest of the batch is prepared; what it returns is then empty.
 */
export async function prepareRows(
  ctx: PrepareContext,
  rows: SpoolRow[],
  parts?: { partRows: number; onPart: (part: DigestedRows) => void },
): Promise<DigestedRows> {
  const live = await liveRows(rows, ctx.store);
  ctx.symbolicator?.startBatch();
  const symbolication = ctx.symbolicator ? { symbolicator: ctx.symbolicator, project: projectOptionsOf.bind(null, live.projects) } : null;
  const scrubbers = await scrubbersOf(ctx.store, live.projects.keys());
  const prepare = async (part: SpoolRow[]) => {
    const digested = await digestRows(part, ctx.log, symbolication, ctx.progress ?? NO_PROGRESS, scrubbers, ctx.stagingDir ?? null);
    // events.data's bytes (deflate, 7 % of the digest's time in a profile) are made here, beside the rest of the CPU
    // work; the transaction writes them, and the JSON text is not kept (5 KB an event).
    for (const e of digested.events) {
      e.encoded = encodeEventData(e.data);
      e.data = "";
    }
    return digested;
  };
  if (!parts) return prepare(live.rows);
  for (let at = 0; at < live.rows.length; at += parts.partRows) parts.onPart(await prepare(live.rows.slice(at, at + parts.partRows)));
  return emptyRows();
}
