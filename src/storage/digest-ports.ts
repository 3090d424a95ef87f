// The storage port of the digest: one transaction per spool batch, with the few operations that turn events into
// issues. The digest decides (grouping, regressions, counters); the store only reads and writes rows, so the same
// decisions hold on SQLite and PostgreSQL.
import type { UserDataTx } from "./user-data-ports";
import type { FeedbackTx } from "./feedback-ports";
import type { AttachmentTx } from "./attachment-ports";
import type { AlertTx } from "./alert-ports";
import type { NotificationOutbox } from "./notification-ports";
import type { WorkflowTx } from "./notification-settings-ports";
import type { DeadLetterTx } from "./dead-letter-ports";
import type { Issue } from "./issue-ports";
import type { IssueStatus, NewEvent, NewRawItem, OutcomeIncrement } from "./records";
import type { SessionTx } from "./session-ports";
import type { SpanTx } from "./span-ports";
import type { MonitorTx } from "./monitor-ports";
import type { LogTx } from "./log-ports";

export type { IssueStatus } from "./records";

/** An issue as the digest needs it when its events arrive: the columns that decide its lifecycle. */
export type IssueState = Pick<
  Issue,
  "id" | "projectId" | "shortId" | "status" | "substatus" | "resolution" | "snooze" | "firstSeen" | "lastSeen" | "timesSeen"
>;

export type NewIssue = {
  projectId: number;
  type: string;
  title: string;
  culprit: string;
  level: string;
  platform: string;
  /** JSON. */
  metadata: string;
  firstSeen: string;
  firstRelease: string | null;
};

/** What a batch changes on an existing issue; absent fields stay as they are. */
export type IssueUpdate = {
  id: number;
  /** Added to times_seen. */
  newEvents: number;
  lastSeen: string;
  title?: string;
  culprit?: string;
  level?: string;
  metadata?: string;
  status?: IssueStatus;
  substatus?: string | null;
  resolution?: string | null;
  snooze?: string | null;
};

export type NewActivity = { issueId: number; type: string; userId: string | null; data: string; createdAt: string };
export type IssueCountIncrement = { issueId: number; hour: string; count: number };
export type IssueUserSighting = { issueId: number; userKey: string; seen: string };
export type IssueTagSighting = { issueId: number; key: string; value: string; count: number; firstSeen: string; lastSeen: string };
export type ReleaseSighting = { projectId: number; version: string; firstEvent: string; lastEvent: string; newIssues: number };
export type EnvironmentSighting = { projectId: number; name: string };
/** An event to store, with the issue it belongs to (none for transactions). */
export type NewGroupedEvent = NewEvent & { issueId: number | null };

/** What keeps concurrent digests (several nodes on PostgreSQL) from deciding the same thing twice. */
export interface IssueClaimTx {
  /**
   * Waits until no other transaction can be creating an issue for these hashes, and keeps it so until commit: hashes
   * read as unknown are read again after this, and then either found or created by this transaction alone.
   */
  lockHashes(hashes: { projectId: number; hash: string }[]): Promise<void>;
  /** The issues as they stand now (read again after updateIssues holds their rows). */
  issueStates(ids: number[]): Promise<Map<number, IssueState>>;
}

/** What a batch's events name, counted: tag values per issue, releases, environments, outcomes. */
export interface SightingTx {
  sightTags(rows: IssueTagSighting[]): Promise<void>;
  /** Creates releases (per organization) and their per-project rows as events name them; widens first/last event. */
  sightReleases(rows: ReleaseSighting[]): Promise<void>;
  sightEnvironments(rows: EnvironmentSighting[]): Promise<void>;
  addOutcomes(increments: OutcomeIncrement[]): Promise<void>;
  /** When the project's organization first saw each of these releases (absent: never). */
  releaseDates(projectId: number, versions: string[]): Promise<Map<string, string>>;
}

export interface DigestTx
  extends SightingTx,
    MonitorTx,
    SessionTx,
    SpanTx,
    DeadLetterTx,
    NotificationOutbox,
    WorkflowTx,
    AlertTx,
    UserDataTx,
    IssueClaimTx,
    FeedbackTx,
    AttachmentTx,
    LogTx {
  /**
   * Of these events' ids, those the project already has. On PostgreSQL, among the events received within
   * DIGEST_LIMITS.duplicateWindowHours of these (events are partitioned by day), after waiting for any other
   * transaction that may be storing the same ids; until commit, none can.
   */
  existingEventIds(projectId: number, events: { eventId: string; receivedAt: string }[]): Promise<Set<string>>;
  /** The issues these hashes lead to, by hash. */
  issuesByHash(projectId: number, hashes: string[]): Promise<Map<string, IssueState>>;
  /** Creates an issue with the project's next short id, unresolved and new, seen once. */
  createIssue(issue: NewIssue): Promise<IssueState>;
  /** Points hashes at an issue; a hash that already leads somewhere keeps its issue. */
  addHashes(projectId: number, issueId: number, hashes: string[], groupingConfig: string): Promise<void>;
  /** Stores events; one whose (project, event id) is already stored is skipped. Returns "projectId:eventId" → events.id of those stored. */
  insertEvents(events: NewGroupedEvent[]): Promise<Map<string, number>>;
  insertRawItems(items: NewRawItem[]): Promise<void>;
  updateIssues(updates: IssueUpdate[]): Promise<void>;
  addActivity(rows: NewActivity[]): Promise<void>;
  countIssueEvents(rows: IssueCountIncrement[]): Promise<void>;
  sightUsers(rows: IssueUserSighting[]): Promise<void>;
  /** Whether the issue has at least `n` events with a timestamp at or after `since` (beyond the per-issue cap of kept events, counted by the hour). */
  hasEventsSince(issueId: number, n: number, since: string): Promise<boolean>;
  /** Distinct users of the issue, all of them or those seen at or after `since`. */
  userCount(issueId: number, since?: string): Promise<number>;
  setSpoolPosition(spoolId: string, position: number): Promise<void>;
}

export interface DigestStore {
  /** The last spool position whose data is committed (0 when none). */
  getSpoolPosition(spoolId: string): Promise<number>;
  /** Runs `work` in one transaction: all of a batch, with its spool position, or none of it. */
  digestTransaction<T>(work: (tx: DigestTx) => Promise<T>): Promise<T>;
}
