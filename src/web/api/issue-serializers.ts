// Issues in Sentry's API shape (sentry `GroupSerializer` / `BaseGroupSerializerResponse`, as GlitchTip serves it):
// ids and counts as strings, the short id, status details, the assignee, and events per hour or per day in `stats`.
import { hourOf } from "../../core/hours";
import { parseResolution, parseSnooze, statusDetails } from "../../core/issue-status";
import { formatShortId } from "../../core/short-id";
import type { Issue } from "../../storage/issue-ports";
import type { Project } from "../../storage/ports";
import type { Assignee } from "./triage-serializers";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** The last 24 hours as Sentry's `[[epochSeconds, count], …]`, oldest first, zeros included. */
export function dayBuckets(counts: { hour: string; count: number }[], now = Date.now()): [number, number][] {
  const byHour = new Map(counts.map((c) => [Date.parse(c.hour), c.count]));
  const last = Date.parse(hourOf(now));
  return Array.from({ length: 24 }, (_, i) => {
    const at = last - (23 - i) * HOUR;
    return [at / 1000, byHour.get(at) ?? 0] as [number, number];
  });
}

export const statsSince = (now = Date.now()) => hourOf(Date.parse(hourOf(now)) - 23 * HOUR);

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The first of the last `days` UTC days ("2026-11-10"), the day daily buckets start at. */
export const dailyStatsSince = (days: number, now = Date.now()) => dayOf(now - (days - 1) * DAY);

/** The last `days` days as Sentry's `[[epochSeconds, count], …]`, oldest first, zeros included. */
export function dailyBuckets(counts: { day: string; count: number }[], days: number, now = Date.now()): [number, number][] {
  const byDay = new Map(counts.map((c) => [c.day, c.count]));
  const today = Date.parse(dayOf(now));
  return Array.from({ length: days }, (_, i) => {
    const at = today - (days - 1 - i) * DAY;
    return [at / 1000, byDay.get(dayOf(at)) ?? 0] as [number, number];
  });
}

export type IssueStats = Record<string, [number, number][]>;

export function serializeIssue(issue: Issue, project: Project, stats: IssueStats, permalink: string, assignedTo: Assignee | null) {
  return {
    id: String(issue.id),
    shortId: formatShortId(project.slug, issue.shortId),
    title: issue.title,
    culprit: issue.culprit,
    permalink,
    logger: null,
    level: issue.level,
    status: issue.status,
    substatus: issue.substatus,
    statusDetails: statusDetails(parseResolution(issue.resolution), parseSnooze(issue.snooze)),
    isPublic: false,
    platform: issue.platform,
    project: { id: String(project.id), name: project.name, slug: project.slug, platform: project.platform },
    type: issue.type,
    issueType: issue.type === "error" || issue.type === "default" || issue.type === "csp" ? "error" : issue.type,
    issueCategory: "error",
    metadata: issue.metadata,
    numComments: issue.numComments,
    assignedTo,
    isBookmarked: false,
    isSubscribed: false,
    hasSeen: false,
    annotations: [],
    isUnhandled: false,
    count: String(issue.timesSeen),
    userCount: issue.userCount,
    firstSeen: issue.firstSeen,
    lastSeen: issue.lastSeen,
    firstRelease: issue.firstRelease ? { version: issue.firstRelease } : null,
    stats,
  };
}
