// Issues in Sentry's API shape (sentry `GroupSerializer` / `BaseGroupSerializerResponse`, as GlitchTip serves it):
// ids and counts as strings, the short id, status details, the assignee, and events per hour or per day in `stats`.
import { parseResolution, parseSnooze, statusDetails } from "../../core/issue-status";
import { formatShortId } from "../../core/short-id";
import type { Issue } from "../../storage/issue-ports";
import type { Project } from "../../storage/ports";
import type { Assignee } from "./triage-serializers";

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
