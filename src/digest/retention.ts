// Retention: events older than FAULTLINE_RETENTION_DAYS (or a project's shorter retention_days), and beyond the newest RETENTION_LIMITS.eventsPerIssue of an
// issue, are deleted, with the other kept items, user feedback, log lines, spans and hourly counters (span rollups too) past retention, and
// issues last seen before it (as Sentry's cleanup deletes groups whose last_seen is past retention) unless an event of
// theirs arrived since, and
// release health past it (session counts by hour, a release's users by when they were last seen). Issue totals (times
// seen, users, tag counts) stay: they were counted when events arrived.
//
// With several nodes on one PostgreSQL, each interval's pass runs on the one node that claims it (job_claims).
//
// On PostgreSQL the per-event tables are partitioned by day of arrival (migration 0029): each pass first makes the
// partitions of today and the days ahead (and of recent days whose rows wait in the DEFAULT partition), then drops
// the days wholly past the instance's retention, which frees their space at once. The row deletes below then only
// meet rows outside every day partition, a project's shorter retention and the per-issue cap.
//
// It never blocks intake: the digest loop calls step() between batches (and while the spool is empty), and a step is
// one bounded delete (RETENTION_LIMITS.chunkRows rows) in its own short statement, so a batch waits for at most one.
// A pass starts every passIntervalMs and goes through the phases below; it ends with one log line when it deleted
// anything.
//
// After the attachments, a few bounded steps of the sweep of attachment blobs that no row names (blob-sweep.ts), whose
// cursor carries on from pass to pass and wraps around.
//
// Age removes everything older, an issue's first event too: what retention promises. The per-issue cap keeps an issue's
// first event (where it began, shown as its oldest event) besides its newest ones, as long as age allows.
import { randomUUID } from "node:crypto";
import { RETENTION_LIMITS, UPLOAD_LIMITS } from "../config/limits";
import { hourOf } from "../core/hours";
import type { RetentionStore } from "../storage/retention-ports";
import type { SpanRetentionStore } from "../storage/span-ports";
import type { ClusterStore } from "../storage/cluster-ports";
import type { AttachmentBlobs, AttachmentStore } from "../storage/attachment-ports";
import { ATTACHMENT_LIMITS } from "../config/limits";
import type { PartitionChange, PartitionStore } from "../storage/partition-ports";
import type { LogStore } from "../storage/log-ports";
import { sweepBlobsStep } from "./blob-sweep";

export type RetentionSettings = {
  days: number;
  eventsPerIssue: number;
  chunkRows: number;
  chunkIssues: number;
  scanEvents: number;
  passIntervalMs: number;
  partitionDaysAhead: number;
  defaultDaysPerPass: number;
  /** Blobs looked at per step of the sweep, and steps of it per pass (ATTACHMENT_LIMITS). */
  blobSweepPerStep: number;
  blobSweepStepsPerPass: number;
};

/** The attachment rows retention deletes, and the blob store it sweeps. */
type RetentionAttachments = Pick<AttachmentStore, "pruneAttachmentsBefore" | "pruneOrphanAttachments" | "namedBlobKeys"> & {
  attachmentBlobs: AttachmentBlobs;
};

const none = (): PartitionChange => ({ partitions: [], rows: 0, bytes: 0 });

export const retentionSettings = (days: number): RetentionSettings => ({
  ...RETENTION_LIMITS,
  blobSweepPerStep: ATTACHMENT_LIMITS.blobSweepPerStep,
  blobSweepStepsPerPass: ATTACHMENT_LIMITS.blobSweepStepsPerPass,
  days,
});

type Counts = {
  events: number;
  projectEvents: number;
  overflow: number;
  rawItems: number;
  feedback: number;
  logs: number;
  attachments: number;
  blobs: number;
  spans: number;
  counters: number;
  releaseHealth: number;
  issues: number;
  artifacts: number;
};
type Phase = keyof Counts;
type Pass = {
  cutoff: string;
  hour: string;
  phase: Phase | "partitions";
  counts: Counts;
  dropped: PartitionChange;
  steps: number;
  blobSteps: number;
  started: number;
};

const PHASES: (Phase | "partitions")[] = [
  "partitions",
  "events",
  "projectEvents",
  "overflow",
  "rawItems",
  "feedback",
  "logs",
  "spans",
  "counters",
  "releaseHealth",
  "issues",
  "attachments",
  "blobs",
  "artifacts",
];

export class RetentionJob {
  private pass: Pass | null = null;
  private nextPassAt = 0;
  /**
   * Events after this id have not been looked at for crowded issues yet. Read from the store at the first step of each
   * pass's per-issue cap (null until then), so that it survives restarts and follows the other nodes' passes.
   */
  private overflowCursor: number | null = null;
  /** The cursor as the store has it. */
  private savedOverflowCursor = 0;
  /** Attachments after this id have not been looked at for a missing event in this pass. */
  private orphanCursor = 0;
  /** The sweep of unnamed blobs goes on after this blob (storage order); it survives passes and wraps around. */
  private blobCursor = "";
  private pendingIssues: number[] = [];
  /** The hour whose counters and issues were last pruned: those are pruned once per hour of cutoff. */
  private hourlyDoneFor = "";
  /** This job's name in job_claims: one per process. */
  private readonly holder = randomUUID();

  constructor(
    private readonly store: RetentionStore &
      SpanRetentionStore &
      PartitionStore &
      Pick<ClusterStore, "claimJob"> &
      RetentionAttachments &
      Pick<LogStore, "pruneLogsBefore">,
    private readonly settings: RetentionSettings,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs one bounded step of the current pass, starting a pass when one is due. True when more work remains. */
  async step(): Promise<boolean> {
    const now = this.now();
    if (!this.pass) {
      if (now < this.nextPassAt) return false;
      if (!(await this.claim(now))) return false;
      const cutoff = new Date(now - this.settings.days * 86_400_000).toISOString();
      const counts = {
        events: 0,
        projectEvents: 0,
        overflow: 0,
        rawItems: 0,
        feedback: 0,
        logs: 0,
        attachments: 0,
        blobs: 0,
        spans: 0,
        counters: 0,
        releaseHealth: 0,
        issues: 0,
        artifacts: 0,
      };
      this.pass = { cutoff, hour: hourOf(cutoff), phase: "partitions", counts, dropped: none(), steps: 0, blobSteps: 0, started: now };
      // Crowded issues a failed pass left are found again from the saved cursor.
      this.overflowCursor = null;
      this.pendingIssues = [];
    }
    const pass = this.pass;
    try {
      pass.steps++;
      if (await this.run(pass)) return true;
      const next = PHASES[PHASES.indexOf(pass.phase) + 1];
      if (next) {
        pass.phase = next;
        return true;
      }
      this.finish(pass);
      return false;
    } catch (err) {
      // A locked or unreachable database: this pass ends; the next one starts on time and goes on from there.
      this.log(`faultline: retention step (${pass.phase}) failed: ${(err as Error).message}`);
      this.finish(pass);
      return false;
    }
  }

  /**
   * Whether this node runs the pass due now: with several nodes on one database, one of them claims each interval's
   * pass (job_claims), and the others look again at the next interval. A claim that fails to be asked is no pass.
   */
  private async claim(now: number): Promise<boolean> {
    try {
      if (await this.store.claimJob("retention", this.holder, new Date(now).toISOString(), new Date(now + this.settings.passIntervalMs).toISOString()))
        return true;
    } catch (err) {
      this.log(`faultline: retention pass not claimed: ${(err as Error).message}`);
    }
    this.nextPassAt = now + this.settings.passIntervalMs;
    return false;
  }

  /** One delete of the pass's phase; true when the phase has more to do. */
  private async run(pass: Pass): Promise<boolean> {
    const { chunkRows, chunkIssues, eventsPerIssue, scanEvents } = this.settings;
    const hourly = this.hourlyDoneFor !== pass.hour;
    switch (pass.phase) {
      case "partitions":
        await this.partitions(pass);
        return false;
      case "events":
        return this.count(pass, "events", await this.store.pruneEventsBefore(pass.cutoff, chunkRows), chunkRows);
      case "projectEvents":
        // Projects with a shorter retention of their own (projects.retention_days, issue 18).
        return this.count(
          pass,
          "projectEvents",
          await this.store.pruneProjectEvents(new Date(this.now()).toISOString(), this.settings.days, chunkRows),
          chunkRows,
        );
      case "rawItems":
        return this.count(pass, "rawItems", await this.store.pruneRawItemsBefore(pass.cutoff, chunkRows), chunkRows);
      case "feedback":
        return this.count(pass, "feedback", await this.store.pruneFeedbackBefore(pass.cutoff, chunkRows), chunkRows);
      case "logs":
        // Log lines by the instance's retention, and by a project's own shorter one (issue 19).
        return this.count(
          pass,
          "logs",
          await this.store.pruneLogsBefore(pass.cutoff, new Date(this.now()).toISOString(), this.settings.days, chunkRows),
          chunkRows,
        );
      case "spans":
        return this.count(pass, "spans", await this.store.pruneSpansBefore(pass.cutoff, chunkRows), chunkRows);
      case "counters": {
        if (!hourly) return false;
        const deleted = (await this.store.pruneHourlyCountersBefore(pass.hour, chunkRows)) + (await this.store.pruneSpanHoursBefore(pass.hour, chunkRows));
        return this.count(pass, "counters", deleted, chunkRows);
      }
      case "releaseHealth":
        return hourly && this.count(pass, "releaseHealth", await this.store.pruneReleaseHealthBefore(pass.cutoff, pass.hour, chunkRows), chunkRows);
      case "issues": {
        const more = hourly && this.count(pass, "issues", await this.store.pruneIssuesBefore(pass.cutoff, chunkIssues), chunkIssues);
        if (!more) this.hourlyDoneFor = pass.hour;
        return more;
      }
      case "attachments": {
        // Attachments past the cutoff, then (issue 19) those whose event is gone: deleted by age, the per-issue cap,
        // its project's retention or its issue's deletion, or never stored (ATTACHMENT_LIMITS.orphanGraceMs after).
        if (this.count(pass, "attachments", await this.store.pruneAttachmentsBefore(pass.cutoff, chunkRows), chunkRows)) return true;
        const before = new Date(this.now() - ATTACHMENT_LIMITS.orphanGraceMs).toISOString();
        const { deleted, lastId } = await this.store.pruneOrphanAttachments(this.orphanCursor, ATTACHMENT_LIMITS.orphanScanRows, before);
        pass.counts.attachments += deleted;
        const moved = lastId !== this.orphanCursor;
        this.orphanCursor = moved ? lastId : 0;
        return moved;
      }
      case "blobs": {
        // Blobs no attachment row names, and partial writes, once ATTACHMENT_LIMITS.blobSweepGraceMs has passed.
        const before = this.now() - ATTACHMENT_LIMITS.blobSweepGraceMs;
        const { removed, next } = await sweepBlobsStep(this.store.attachmentBlobs, this.store, this.blobCursor, this.settings.blobSweepPerStep, before);
        pass.counts.blobs += removed;
        this.blobCursor = next ?? "";
        return next !== null && ++pass.blobSteps < this.settings.blobSweepStepsPerPass;
      }
      case "artifacts": {
        // Bundles by their own 90 days after last use (as Sentry), whatever the event retention; unassembled chunks after a day.
        const bundleCutoff = new Date(this.now() - UPLOAD_LIMITS.bundleRetentionDays * 86_400_000).toISOString();
        const chunkCutoff = new Date(this.now() - UPLOAD_LIMITS.chunkMaxAgeHours * 3_600_000).toISOString();
        return this.count(pass, "artifacts", await this.store.pruneArtifactsBefore(bundleCutoff, chunkCutoff, chunkRows), chunkRows);
      }
      case "overflow": {
        const issueId = this.pendingIssues[0];
        if (issueId === undefined) {
          if (this.overflowCursor === null) this.overflowCursor = this.savedOverflowCursor = await this.store.overflowCursor();
          // Every issue of the events up to the cursor is within its cap now: a restart goes on from there.
          if (this.overflowCursor !== this.savedOverflowCursor) {
            await this.store.saveOverflowCursor(this.overflowCursor);
            this.savedOverflowCursor = this.overflowCursor;
          }
          const { issueIds, lastEventId } = await this.store.crowdedIssuesAfter(this.overflowCursor, scanEvents, eventsPerIssue);
          const moved = lastEventId !== this.overflowCursor;
          this.overflowCursor = lastEventId;
          this.pendingIssues = issueIds;
          return moved;
        }
        const deleted = await this.store.pruneIssueOverflow(issueId, eventsPerIssue, chunkRows);
        pass.counts.overflow += deleted;
        if (deleted < chunkRows) this.pendingIssues.shift();
        return true;
      }
    }
  }

  /**
   * PostgreSQL's day partitions (SQLite: nothing): today's and the days ahead made, recent days waiting in the DEFAULT
   * partition given theirs, whole days past the cutoff dropped. A failure (a lock not had in time) is logged and the
   * pass goes on with its deletes; the next pass tries again.
   */
  private async partitions(pass: Pass): Promise<void> {
    const { partitionDaysAhead, defaultDaysPerPass } = this.settings;
    const today = new Date(this.now()).toISOString().slice(0, 10);
    const ahead = Array.from({ length: partitionDaysAhead + 1 }, (_, i) =>
      new Date(Date.parse(`${today}T00:00:00.000Z`) + i * 86_400_000).toISOString().slice(0, 10),
    );
    try {
      const waiting = await this.store.daysInDefaultPartitions(pass.cutoff.slice(0, 10), ahead.at(-1)!, defaultDaysPerPass);
      await this.store.ensureDayPartitions([...waiting, ...ahead]);
      pass.dropped = await this.store.dropDayPartitionsBefore(pass.cutoff);
    } catch (err) {
      this.log(`faultline: retention could not change the day partitions: ${(err as Error).message}`);
    }
  }

  private count(pass: Pass, key: keyof Counts, deleted: number, limit: number): boolean {
    pass.counts[key] += deleted;
    return deleted >= limit;
  }

  private finish(pass: Pass): void {
    this.pass = null;
    this.nextPassAt = pass.started + this.settings.passIntervalMs;
    const c = pass.counts;
    // Making the days ahead is routine and says nothing; dropping days says what it freed.
    const { dropped } = pass;
    if (dropped.partitions.length > 0) {
      this.log(
        `faultline: retention dropped the day partitions ${dropped.partitions.join(", ")} (${dropped.rows > 0 ? `about ${Math.round(dropped.rows)} rows ` : ""}received before ${pass.cutoff}, ${(dropped.bytes / 1048576).toFixed(1)} MiB freed)`,
      );
    }
    if (Object.values(c).every((n) => n === 0)) return;
    this.log(
      `faultline: retention removed ${c.events} events received before ${pass.cutoff} (${this.settings.days} days), ` +
        `${c.projectEvents} events past their project's shorter retention, ` +
        `${c.overflow} events beyond ${this.settings.eventsPerIssue} per issue, ${c.rawItems} other items, ${c.feedback} user feedback, ${c.logs} log lines, ${c.attachments} attachments, ${c.blobs} attachment blobs no attachment named, ${c.spans} spans, ` +
        `${c.counters} hourly counters, ${c.releaseHealth} release health rows and ${c.issues} issues last seen before then, ` +
        `${c.artifacts} artifact bundles and upload chunks, in ${pass.steps} steps over ${this.now() - pass.started} ms`,
    );
  }
}
