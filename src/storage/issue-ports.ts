// Reading issues: one issue, a project's issues by status, an issue's events per hour, its tag values and activity.
import type { IssueStatus } from "./digest-ports";
import type { Page, PageRequest } from "./ports";

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
  firstSeen: string;
  lastSeen: string;
  timesSeen: number;
  /** Distinct users the issue's events came from. */
  userCount: number;
  firstRelease: string | null;
  assigneeId: string | null;
};

export type IssueTagSummary = { key: string; totalValues: number; uniqueValues: number; topValues: { value: string; count: number; firstSeen: string; lastSeen: string }[] };
export type IssueActivityEntry = { id: number; type: string; userId: string | null; data: Record<string, unknown>; createdAt: string };

export interface IssueStore {
  getIssue(issueId: number): Promise<Issue | null>;
  /** Most recently seen first; `status` null for all. */
  listIssues(projectId: number, q: { status: IssueStatus | null; page: PageRequest }): Promise<Page<Issue>>;
  /** Events per hour since an hour (inclusive); hours without events are absent. */
  issueCounts(issueId: number, sinceHour: string): Promise<{ hour: string; count: number }[]>;
  /** Per tag key, most frequent values first. */
  issueTags(issueId: number, topValues: number): Promise<IssueTagSummary[]>;
  issueActivity(issueId: number): Promise<IssueActivityEntry[]>;
}
