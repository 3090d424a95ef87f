// Triage of issues: assigning them, commenting on them (activity entries of type "note"), the values of one tag,
// and the events around one event of an issue.
import type { IssueActivityEntry } from "./issue-ports";
import type { WorkflowNotice } from "./notification-settings-ports";
import type { Page, PageRequest, StoredEvent } from "./records";

export type IssueTagValue = { value: string; count: number; firstSeen: string; lastSeen: string };
export type NewIssueActivity = { type: string; userId: string | null; data: string; createdAt: string };

/** A workflow notice of an activity entry: its key is the entry's id, its issue and time the entry's. */
export type ActivityNotice = Omit<WorkflowNotice, "key" | "issueId" | "createdAt">;

export interface IssueTriageStore {
  /**
   * Sets the assignee (a user, a team or nobody) and records the activity, in one transaction; with `notice`, its
   * workflow notices too (keyed by the activity's id).
   */
  setIssueAssignee(
    issueId: number,
    assignee: { userId: string | null; teamId: number | null },
    activity: NewIssueActivity,
    notice?: ActivityNotice,
  ): Promise<void>;
  /** Records an activity entry; with `notice`, its workflow notices in the same transaction (keyed by its id). */
  addIssueActivity(issueId: number, activity: NewIssueActivity, notice?: ActivityNotice): Promise<IssueActivityEntry>;
  getIssueActivity(issueId: number, activityId: number): Promise<IssueActivityEntry | null>;
  /** The issue's activity of one type, newest first. */
  listIssueActivity(issueId: number, type: string, page: PageRequest): Promise<Page<IssueActivityEntry>>;
  updateIssueActivityData(issueId: number, activityId: number, data: string): Promise<void>;
  deleteIssueActivity(issueId: number, activityId: number): Promise<void>;
  /** One tag key's values on the issue, most frequent first (then by value); the cursor is an offset. */
  issueTagValues(issueId: number, key: string, page: PageRequest): Promise<Page<IssueTagValue>>;
  issueEventById(issueId: number, eventId: string): Promise<StoredEvent | null>;
  /**
   * The issue's events just after (`next`, newer) and before (`previous`, older) one of its stored events; only
   * events of `environments` when it names any.
   */
  issueEventNeighbours(issueId: number, eventRowId: number, environments?: string[]): Promise<{ next: string | null; previous: string | null }>;
}
