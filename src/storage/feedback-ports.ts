// User feedback (issue 19, migration 0028): written by the digest in its batch transaction (feedback and user_report
// items) and by the user-feedback API; listed per organization for the inbox, per issue for the issue page, and
// triaged (status, assignee) by members.

export const FEEDBACK_STATUSES = ["new", "resolved", "spam"] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];
/** What carried the feedback: the feedback envelope item, the legacy user_report item, or the user-feedback API. */
export type FeedbackSource = "feedback" | "user_report" | "api";

/** Where the feedback came from, as its feedback event tells it (none for user reports). */
export type FeedbackDetails = {
  browser?: string;
  os?: string;
  device?: string;
  environment?: string;
  release?: string;
  user?: { id?: string; email?: string; username?: string; ip_address?: string };
  tags?: [string, string][];
  /** Notes about what was trimmed or dropped from the input (too long, wrong type). */
  notes?: string[];
};

export type NewFeedback = {
  projectId: number;
  source: FeedbackSource;
  feedbackEventId: string | null;
  associatedEventId: string | null;
  message: string;
  name: string;
  email: string;
  url: string;
  details: FeedbackDetails;
  receivedAt: string;
};

export type Feedback = Omit<NewFeedback, "details"> & {
  id: number;
  details: FeedbackDetails;
  issueId: number | null;
  /** The associated event's issue short id and title, when linked. */
  issue: { id: number; shortId: number; title: string } | null;
  /** Whether the associated event is stored (so its page can be opened). */
  eventStored: boolean;
  status: FeedbackStatus;
  assigneeUserId: string | null;
  projectSlug: string;
};

/**
 * What writing one feedback row did: its id; whether it is new (a feedback item seen again, or a user report that
 * replaced an earlier one, is not); the issue of its associated event; and that event's environment and release when
 * it is stored (a user report carries neither itself).
 */
export type WrittenFeedback = {
  id: number;
  isNew: boolean;
  row: NewFeedback;
  issueId: number | null;
  associated: { environment: string | null; release: string | null } | null;
};

export type FeedbackFilter = { organizationId: number; status: FeedbackStatus | null; projectIds?: number[]; limit: number; beforeId?: number | null };

export interface FeedbackTx {
  /**
   * Stores feedback, linking each to its associated event's issue when that event is stored (or is in `issueOfEvent`,
   * the batch's own). A feedback item written twice is stored once; a user report for an event that already has
   * one replaces its name, e-mail and comments (Sentry keeps the newest). Returns what became of each row, in order.
   */
  insertFeedback(rows: NewFeedback[]): Promise<WrittenFeedback[]>;
  /** Links feedback that arrived before its event: rows of the project naming these event ids get their issue. */
  linkFeedback(links: { projectId: number; eventId: string; issueId: number }[]): Promise<void>;
}

export interface FeedbackStore {
  /** Newest first, by id; `beforeId` pages on. */
  listFeedback(filter: FeedbackFilter): Promise<Feedback[]>;
  countFeedback(organizationId: number): Promise<Record<FeedbackStatus, number>>;
  getFeedback(organizationId: number, id: number): Promise<Feedback | null>;
  listIssueFeedback(issueId: number, limit: number): Promise<Feedback[]>;
  updateFeedback(organizationId: number, id: number, change: { status?: FeedbackStatus; assigneeUserId?: string | null }): Promise<Feedback | null>;
}
