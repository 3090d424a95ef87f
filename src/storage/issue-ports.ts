// Reading issues: one issue, a project's issues by status, an issue's events per hour, its tag values and activity.
import type { IssueStatus, Page, PageRequest, StoredEvent } from "./records";

export type Issue = {
  id: number;
  projectId: number;
  shortId: number;
  type: string;
  title: string;
  culprit: string;
  level: string;
  platform: string;
  metadata: Record<string, unknown>;
  status: IssueStatus;
  substatus: string | null;
  /** JSON, owned by core/issue-status.ts: how the issue is resolved, or what ends its ignore. */
  resolution: string | null;
  snooze: string | null;
  firstSeen: string;
  lastSeen: string;
  timesSeen: number;
  /** Distinct users the issue's events came from. */
  userCount: number;
  firstRelease: string | null;
  /** Who the issue is assigned to: a user, a team, or neither (never both). */
  assigneeId: string | null;
  assigneeTeamId: number | null;
  /** Comments (activity entries of type "note"). */
  numComments: number;
};

export type IssueTagSummary = {
  key: string;
  totalValues: number;
  uniqueValues: number;
  topValues: { value: string; count: number; firstSeen: string; lastSeen: string }[];
};
export type IssueActivityEntry = { id: number; type: string; userId: string | null; data: Record<string, unknown>; createdAt: string };

/**
 * Whom an issue is assigned to, any of: these users, these teams, nobody (`none`) or anybody (`any`).
 */
export type AssigneeCondition = { userIds: string[]; teamIds: number[]; none: boolean; any: boolean };

/**
 * What an issue list is narrowed to; null and empty mean no narrowing. Text matches title or culprit. Every
 * assignee condition must hold; an issue matches `environments` when it has an event in any of them.
 */
export type IssueFilter = {
  status: IssueStatus | null;
  level: string | null;
  tags: [string, string][];
  text: string[];
  assignee?: AssigneeCondition[];
  environments?: string[];
};
/** Sentry's sorts: "date" last seen (the default), "new" first seen, "freq" events, "user" distinct users; most first. */
export type IssueSort = "date" | "new" | "freq" | "user";

/**
 * A page of issues; `previous` is set when the request had a cursor and issues precede the page: the cursor of the
 * previous page, null for the first one.
 */
export type IssuePage = Page<Issue> & { previous: { cursor: string | null } | null };

/** A status change and the activity that records it. */
export type IssueStatusWrite = {
  status: IssueStatus;
  substatus: string | null;
  resolution: string | null;
  snooze: string | null;
  activity: { type: string; userId: string | null; data: string; createdAt: string };
};

export interface IssueStore {
  getIssue(issueId: number): Promise<Issue | null>;
  setIssueStatus(issueId: number, change: IssueStatusWrite): Promise<void>;
  /** Deletes an issue with its events, hashes, counters and activity. */
  deleteIssue(issueId: number): Promise<void>;
  /** The project's most recently created release. */
  latestRelease(projectId: number): Promise<string | null>;
  /** Issues of one project or of several (an organization's stream), most first by the sort. */
  listIssues(projectIds: number | number[], q: { filter?: IssueFilter; sort?: IssueSort; page: PageRequest }): Promise<IssuePage>;
  /** The issue's events, newest first; "oldest" and "latest" read one end (of the events in `environments`, if any). */
  listIssueEvents(issueId: number, page: PageRequest): Promise<Page<StoredEvent>>;
  issueEventAt(issueId: number, end: "latest" | "oldest", environments?: string[]): Promise<StoredEvent | null>;
  /** Events per day ("2026-11-23") since a day (inclusive); days without events are absent. */
  issueDailyCountsOf(issueIds: number[], sinceDay: string): Promise<Map<number, { day: string; count: number }[]>>;
  /** Events per hour since an hour (inclusive); hours without events are absent. */
  issueCounts(issueId: number, sinceHour: string): Promise<{ hour: string; count: number }[]>;
  /** The same for several issues in one query. */
  issueCountsOf(issueIds: number[], sinceHour: string): Promise<Map<number, { hour: string; count: number }[]>>;
  /** Per tag key, most frequent values first. */
  issueTags(issueId: number, topValues: number): Promise<IssueTagSummary[]>;
  /** One tag key of the issue as issueTags gives it, read from that key's rows only; null when the issue has none. */
  issueTag(issueId: number, key: string, topValues: number): Promise<IssueTagSummary | null>;
  issueActivity(issueId: number): Promise<IssueActivityEntry[]>;
  /**
   * When the issue's stored events in `environment` happened (their timestamps), at or after `since`. The counters
   * are kept per issue only, so the issue page under an environment filter counts these (core/issue-environment.ts).
   */
  issueEventTimesIn(issueId: number, environment: string, since: string): Promise<string[]>;
  /** The issue's newest `limit` stored events in `environment`, newest first. */
  latestIssueEventsIn(issueId: number, environment: string, limit: number): Promise<StoredEvent[]>;
}
