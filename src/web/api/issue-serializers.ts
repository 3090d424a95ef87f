// Issues in Sentry's API shape (sentry `GroupSerializer` / `BaseGroupSerializerResponse`, as GlitchTip serves it):
// ids and counts as strings, the short id, status details, and 24 hourly buckets of events in `stats`.
import { hourOf } from "../../core/hours";
import { parseResolution, parseSnooze, statusDetails } from "../../core/issue-status";
import { formatShortId } from "../../core/short-id";
import type { Issue } from "../../storage/issue-ports";
import type { Project } from "../../storage/ports";

const HOUR = 3600_000;

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

export function serializeIssue(issue: Issue, project: Project, counts: { hour: string; count: number }[], permalink: string) {
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
    numComments: 0,
    assignedTo: null,
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
    stats: { "24h": dayBuckets(counts) },
  };
}
