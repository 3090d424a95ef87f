// Sentry's issue status model (sentry-protocol.md §5): what a PUT's status and statusDetails ask for, whether a new
// event regresses a resolved issue (GroupResolution.has_resolution, event_manager `_handle_regression`), and whether
// an ignored issue's snooze has ended (GroupSnooze.is_valid). Pure: the callers read and write the rows.
import { z } from "zod";
import type { IssueStatus } from "../storage/digest-ports";
import { AppError } from "./errors";
import { instantSchema, parseInput } from "./schemas";

export type Resolution = { type: "now" | "in_release" | "in_next_release"; release: string | null; at: string };
export type Snooze = {
  until: string | null;
  count: number | null;
  /** minutes */
  window: number | null;
  userCount: number | null;
  /** minutes */
  userWindow: number | null;
  /** The issue's totals when the snooze was set. */
  baseline: { timesSeen: number; userCount: number };
  at: string;
};
export type StatusChange = {
  status: IssueStatus;
  substatus: string | null;
  resolution: Resolution | null;
  snooze: Snooze | null;
  activity: { type: string; data: Record<string, unknown> };
};

/** minutes (7 days); the longest window an ignore condition may count over, as Sentry allows. */
const MAX_WINDOW_MINUTES = 7 * 24 * 60;
const count = z.number().int().positive().max(1_000_000_000);
const minutes = z.number().int().positive().max(MAX_WINDOW_MINUTES);

const bodySchema = z.object({
  status: z.enum(["resolved", "resolvedInNextRelease", "unresolved", "ignored", "muted"]),
  substatus: z.enum(["archived_until_escalating", "archived_until_condition_met", "archived_forever", "ongoing", "new", "regressed", "escalating"]).nullish(),
  statusDetails: z
    .object({
      inRelease: z.string().min(1).max(250).optional(),
      inNextRelease: z.boolean().optional(),
      ignoreDuration: z
        .number()
        .int()
        .positive()
        .max(365 * 24 * 60)
        .optional(),
      ignoreUntil: instantSchema.optional(),
      ignoreCount: count.optional(),
      ignoreWindow: minutes.optional(),
      ignoreUserCount: count.optional(),
      ignoreUserWindow: minutes.optional(),
    })
    .default({}),
});

export type StatusUpdate = z.infer<typeof bodySchema>;

/** A PUT body's status part; other fields (hasSeen, isBookmarked…) are not statuses and are left to their callers. */
export function parseStatusUpdate(body: unknown): StatusUpdate | null {
  if (typeof body !== "object" || body === null || !("status" in body)) return null;
  return parseInput(bodySchema, body);
}

/**
 * The change a status update makes to an issue with these totals. `latestRelease` is the project's newest release,
 * which "inRelease: latest" and "resolvedInNextRelease" refer to.
 */
export function statusChange(update: StatusUpdate, totals: { timesSeen: number; userCount: number }, latestRelease: string | null, now: Date): StatusChange {
  const at = now.toISOString();
  const d = update.statusDetails;
  if (update.status === "resolved" || update.status === "resolvedInNextRelease") {
    const nextRelease = update.status === "resolvedInNextRelease" || d.inNextRelease === true;
    if (nextRelease) {
      if (!latestRelease) throw new AppError("bad_request", "The project has no release to resolve after");
      return {
        status: "resolved",
        substatus: null,
        snooze: null,
        resolution: { type: "in_next_release", release: latestRelease, at },
        activity: { type: "set_resolved_in_release", data: { inNextRelease: true, current_release_version: latestRelease } },
      };
    }
    if (d.inRelease) {
      const release = d.inRelease === "latest" ? latestRelease : d.inRelease;
      if (!release) throw new AppError("bad_request", "The project has no release to resolve in");
      return {
        status: "resolved",
        substatus: null,
        snooze: null,
        resolution: { type: "in_release", release, at },
        activity: { type: "set_resolved_in_release", data: { version: release } },
      };
    }
    return { status: "resolved", substatus: null, snooze: null, resolution: { type: "now", release: null, at }, activity: { type: "set_resolved", data: {} } };
  }
  if (update.status === "unresolved") {
    return { status: "unresolved", substatus: "ongoing", resolution: null, snooze: null, activity: { type: "set_unresolved", data: {} } };
  }
  const until = d.ignoreUntil
    ? new Date(d.ignoreUntil).toISOString()
    : d.ignoreDuration
      ? new Date(now.getTime() + d.ignoreDuration * 60_000).toISOString()
      : null;
  if ((d.ignoreWindow && !d.ignoreCount) || (d.ignoreUserWindow && !d.ignoreUserCount)) throw new AppError("bad_request", "A window needs its count");
  const conditional = until !== null || d.ignoreCount !== undefined || d.ignoreUserCount !== undefined;
  const snooze: Snooze | null = conditional
    ? {
        until,
        count: d.ignoreCount ?? null,
        window: d.ignoreWindow ?? null,
        userCount: d.ignoreUserCount ?? null,
        userWindow: d.ignoreUserWindow ?? null,
        // The two figures alone: the caller passes the whole issue row, whose own snooze would nest in this one, and
        // each ignore of an ignored issue doubled the stored text (a member could grow it until the server ran out of memory).
        baseline: { timesSeen: totals.timesSeen, userCount: totals.userCount },
        at,
      }
    : null;
  const substatus = conditional
    ? "archived_until_condition_met"
    : update.substatus === "archived_until_escalating"
      ? "archived_until_escalating"
      : "archived_forever";
  const data: Record<string, unknown> = {};
  for (const key of ["ignoreDuration", "ignoreUntil", "ignoreCount", "ignoreWindow", "ignoreUserCount", "ignoreUserWindow"] as const)
    if (d[key] !== undefined) data[key] = d[key];
  return { status: "ignored", substatus, resolution: null, snooze, activity: { type: "set_ignored", data } };
}

/** Sentry's statusDetails for an issue's resolution or snooze, as its serializer shows them. */
export function statusDetails(resolution: Resolution | null, snooze: Snooze | null): Record<string, unknown> {
  if (resolution?.type === "in_next_release") return { inNextRelease: true };
  if (resolution?.type === "in_release") return { inRelease: resolution.release };
  if (!snooze) return {};
  const out: Record<string, unknown> = {};
  if (snooze.until) out.ignoreUntil = snooze.until;
  if (snooze.count) out.ignoreCount = snooze.count;
  if (snooze.window) out.ignoreWindow = snooze.window;
  if (snooze.userCount) out.ignoreUserCount = snooze.userCount;
  if (snooze.userWindow) out.ignoreUserWindow = snooze.userWindow;
  return out;
}

const SEMVER = /^(?:[^@\s]+@)?v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Semantic-version order of two releases ("pkg@1.2.3" or "1.2.3"); null when either is not a version. */
export function compareSemver(a: string, b: string): number | null {
  const x = SEMVER.exec(a);
  const y = SEMVER.exec(b);
  if (!x || !y) return null;
  for (let i = 1; i <= 3; i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return Math.sign(d);
  }
  // A pre-release sorts before its release; two pre-releases compare as text (enough for -alpha < -beta < -rc).
  if (x[4] === y[4]) return 0;
  if (x[4] === undefined) return 1;
  if (y[4] === undefined) return -1;
  return x[4] < y[4] ? -1 : 1;
}

/** Orders releases: by semantic version when both are versions, else by when Faultline first saw them. */
export type ReleaseOrder = (a: string, b: string) => number;

/** Whether an event of `release` regresses an issue resolved with `resolution` (not has_resolution, in Sentry). */
export function isRegression(resolution: Resolution | null, release: string | null, order: ReleaseOrder): boolean {
  if (!resolution || resolution.type === "now" || resolution.release === null) return true;
  if (release === null) return false;
  const cmp = order(release, resolution.release);
  // In the next release: the resolution release itself, or an older one, still has the bug.
  if (resolution.type === "in_next_release") return cmp > 0;
  // In a release: an event of that release, or of a newer one, is a regression; older releases still have the bug.
  return cmp >= 0;
}

/** Whether an ignored issue's snooze has ended; the counts are the issue's now, and within each window. */
export function snoozeEnded(
  snooze: Snooze,
  now: Date,
  counts: { timesSeen: number; userCount: number; eventsInWindow: number; usersInWindow: number },
): "expired" | "escalating" | null {
  if (snooze.until !== null && snooze.until <= now.toISOString()) return "expired";
  if (snooze.count !== null) {
    const seen = snooze.window !== null ? counts.eventsInWindow : counts.timesSeen - snooze.baseline.timesSeen;
    if (seen >= snooze.count) return "escalating";
  }
  if (snooze.userCount !== null) {
    const users = snooze.userWindow !== null ? counts.usersInWindow : counts.userCount - snooze.baseline.userCount;
    if (users >= snooze.userCount) return "escalating";
  }
  return null;
}

export const parseResolution = (json: string | null): Resolution | null => (json ? (JSON.parse(json) as Resolution) : null);
export const parseSnooze = (json: string | null): Snooze | null => (json ? (JSON.parse(json) as Snooze) : null);
