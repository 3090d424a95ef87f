// An issue's row as the digest reads it (the columns that decide its lifecycle), and its IssueState.
import type { IssueState, IssueStatus } from "../digest-ports";
import type { Database } from "../schema";

type IssueRow = Pick<
  Database["issues"],
  "project_id" | "short_id" | "status" | "substatus" | "resolution" | "snooze" | "first_seen" | "last_seen" | "times_seen"
> & { id: number };

export const toIssue = (r: IssueRow): IssueState => ({
  id: r.id,
  projectId: r.project_id,
  shortId: r.short_id,
  status: r.status as IssueStatus,
  substatus: r.substatus,
  resolution: r.resolution,
  snooze: r.snooze,
  firstSeen: r.first_seen,
  lastSeen: r.last_seen,
  timesSeen: Number(r.times_seen),
});

export const ISSUE_COLUMNS = ["id", "project_id", "short_id", "status", "substatus", "resolution", "snooze", "first_seen", "last_seen", "times_seen"] as const;
