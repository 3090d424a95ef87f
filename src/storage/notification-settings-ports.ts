// Personal notification settings (migration 0023) and the workflow notices they govern. Whoever expands an alert's
// e-mail action into people asks `recipientPreferences` who of them wants e-mail from that project and in which
// language; the issue page subscribes and unsubscribes; assignment, comments and the digest's regressions write
// workflow notices (`WorkflowTx`) in the transaction of the change; the weekly summary reads its figures here.
import type { FeedbackStore } from "./feedback-ports";
import type { IssueNotificationPayload, NewNotification, NotificationStore } from "./notification-ports";

export const NOTIFICATION_LOCALES = ["en", "de"] as const;
export type NotificationLocale = (typeof NOTIFICATION_LOCALES)[number];

/** A person's own settings; `locale` null is the instance's default language, `timeZone` null is UTC. */
export type UserNotificationSettings = { locale: NotificationLocale | null; timeZone: string | null; workflow: boolean };
export const DEFAULT_USER_NOTIFICATION_SETTINGS: UserNotificationSettings = { locale: null, timeZone: null, workflow: true };

/** Why someone takes part in an issue (Sentry's GroupSubscriptionReason: assigned, comment, and an explicit subscription). */
export type ParticipationReason = "assigned" | "comment" | "subscribed";
/** `isActive` false: the person unsubscribed, and taking part later does not subscribe them again. */
export type IssueSubscription = { isActive: boolean; reason: ParticipationReason };

/** A person to send to, with the address and language to use. */
export type Recipient = { userId: string; name: string; email: string; locale: NotificationLocale };

export type WorkflowTrigger = "assigned" | "comment" | "regression";

/** One change that people taking part in an issue hear about; the store works out who and writes the outbox rows. */
export type WorkflowNotice = {
  trigger: WorkflowTrigger;
  issueId: number;
  /** Names the change, for the idempotency key: the activity's id (assignment, comment) or the regressing event's id. */
  key: string;
  /** Who did it (never notified of their own change); null for the digest. */
  actorUserId: string | null;
  /** "assignee": the issue's assignee as it is now (a team: its members); "participants": its active subscribers. */
  to: "assignee" | "participants";
  /** Who comes to take part with this change (the assignee, the commenter), before the recipients are worked out. */
  participant?: { userId: string; reason: ParticipationReason } | null;
  /** A comment's text. */
  text?: string | null;
  /** The event that made it due (a regression). */
  event?: IssueNotificationPayload["event"];
  /** FAULTLINE_URL plus the base path (core/links.ts linkBase). */
  linkBase: string;
  createdAt: string;
};

/** Writes workflow notices in the caller's transaction; returns how many outbox rows were new. */
export interface WorkflowTx {
  enqueueWorkflowNotices(notices: WorkflowNotice[]): Promise<number>;
}

/** One person and organization whose weekly summary is on, with what the summary needs to know of them. */
export type SummaryCandidate = {
  userId: string;
  email: string;
  locale: NotificationLocale;
  timeZone: string | null;
  organization: { id: number; slug: string; name: string };
};

/** An organization's figures between two instants (UTC, end exclusive). */
export type SummaryFigures = {
  newIssues: number;
  events: number;
  topIssues: { id: number; shortId: string; title: string; count: number }[];
  sessions: number;
  crashedSessions: number;
};

export interface NotificationSettingsStore {
  getUserNotificationSettings(userId: string): Promise<UserNotificationSettings>;
  setUserNotificationSettings(userId: string, settings: UserNotificationSettings, at: string): Promise<void>;
  /** E-mail alerts per project (absent: on). */
  projectEmailSettings(userId: string, projectIds: number[]): Promise<Map<number, boolean>>;
  setProjectEmail(userId: string, projectId: number, on: boolean): Promise<void>;
  /** The weekly summary per organization (absent: on). */
  weeklySummarySettings(userId: string, organizationIds: number[]): Promise<Map<number, boolean>>;
  setWeeklySummary(userId: string, organizationId: number, on: boolean): Promise<void>;
  getIssueSubscription(userId: string, issueId: number): Promise<IssueSubscription | null>;
  /** An explicit subscribe or unsubscribe: it overrides (and outlives) any participation. */
  setIssueSubscription(userId: string, issueId: number, subscribed: boolean, at: string): Promise<void>;
  /** Who hears of the issue's comments and regressions: active subscribers, members of its organization, workflow on. */
  issueWorkflowRecipients(issueId: number): Promise<Recipient[]>;
  /** Of these people, those in the project's organization who want e-mail alerts from the project, with their language. */
  recipientPreferences(userIds: string[], projectId: number): Promise<Recipient[]>;
  /** Every person and organization whose weekly summary is on. */
  weeklySummaryCandidates(): Promise<SummaryCandidate[]>;
  weeklySummaryFigures(organizationId: number, from: string, to: string, top: number): Promise<SummaryFigures>;
  /** Of these idempotency keys, those already in the outbox. */
  existingNotificationKeys(keys: string[]): Promise<Set<string>>;
  /** Writes notifications decided outside the digest (the weekly summary) in a transaction of their own; returns how many were new. */
  enqueueNotificationRows(rows: NewNotification[]): Promise<number>;
}

/**
 * The notification sender's store: the outbox; who of an e-mail action's people want its mail, in which language; and
 * a feedback's row, whose link to its associated event's issue may have come after the notification was decided.
 */
export type SenderStore = NotificationStore & Pick<NotificationSettingsStore, "recipientPreferences"> & Pick<FeedbackStore, "getFeedback">;
