// The notification outbox's port (migration 0020). Whatever decides that someone must hear about something (an issue
// alert rule in the digest's transaction, a metric alert's evaluation, an assignment, the weekly summary) writes a
// NewNotification in the same transaction as the change that made it due; senders (notify/) claim due rows, deliver
// them at least once with the idempotency key, and record each attempt.

/**
 * One action of a rule, with Sentry's ids so that rules written for Sentry's API carry over. Webhook-like actions
 * name their URL here (Sentry keeps it in an integration; Faultline has none to keep it in).
 */
export type NotificationAction =
  | {
      id: "sentry.mail.actions.NotifyEmailAction";
      /** IssueOwners: the issue's assignee, falling back to `fallthroughType`; Team and Member: that team or member. */
      targetType: "IssueOwners" | "Team" | "Member";
      /** A team's id or a member's user id; absent for IssueOwners. */
      targetIdentifier?: string | number | null;
      /** Who gets it when an IssueOwners issue has no assignee: the project's team members, everyone, or nobody. */
      fallthroughType?: "ActiveMembers" | "AllMembers" | "NoOne";
    }
  | { id: "sentry.rules.actions.notify_event_service.NotifyEventServiceAction"; service: "webhooks"; url: string }
  | { id: "sentry.integrations.slack.notify_action.SlackNotifyServiceAction"; webhookUrl: string }
  | { id: "sentry.integrations.discord.notify_action.DiscordNotifyServiceAction"; webhookUrl: string }
  | { id: "sentry.integrations.msteams.notify_action.MsTeamsNotifyServiceAction"; webhookUrl: string }
  /** One person by e-mail, resolved already (an e-mail action expanded to its recipients, a workflow notice, a summary). */
  | { id: "faultline.mail.recipient"; userId: string; email: string; locale: string };

export const EMAIL_ACTION = "sentry.mail.actions.NotifyEmailAction";
export const WEBHOOK_ACTION = "sentry.rules.actions.notify_event_service.NotifyEventServiceAction";
export const SLACK_ACTION = "sentry.integrations.slack.notify_action.SlackNotifyServiceAction";
export const DISCORD_ACTION = "sentry.integrations.discord.notify_action.DiscordNotifyServiceAction";
export const TEAMS_ACTION = "sentry.integrations.msteams.notify_action.MsTeamsNotifyServiceAction";
export const RECIPIENT_ACTION = "faultline.mail.recipient";

export type NotificationSource = "issue_rule" | "metric_alert" | "workflow" | "weekly_summary" | "test";

/** Why an issue alert fired (the condition that passed), or what a workflow notice is about. */
export type IssueTrigger = "first_seen" | "regression" | "reappeared" | "event_frequency" | "user_frequency" | "assigned" | "comment" | "test";

type Org = { id: number; slug: string; name: string };
type Proj = { id: number; slug: string; name: string; platform: string | null };

/** What an issue notification says; everything a sender needs, so it never reads the issue again. */
export type IssueNotificationPayload = {
  kind: "issue";
  trigger: IssueTrigger;
  /** The rule's name (issue rules), or null. */
  ruleName: string | null;
  organization: Org;
  project: Proj;
  issue: { id: number; shortId: string; title: string; culprit: string; level: string; status: string; firstSeen: string; lastSeen: string; count: number; userCount: number };
  /** The event that made it due (null for assignment, comment and test notices made without one). */
  event: { eventId: string; message: string; timestamp: string; environment: string | null; release: string | null; platform: string | null; url: string | null; tags: [string, string][] } | null;
  /** Absolute link to the issue page: FAULTLINE_URL, base path, default locale path. */
  issueUrl: string;
  /** Workflow notices: who did it (assignment, comment) and what (the comment's text, capped). */
  actor?: { name: string; email: string } | null;
  text?: string | null;
};

/** What a metric alert's state change says. */
export type MetricNotificationPayload = {
  kind: "metric";
  ruleName: string;
  status: "critical" | "warning" | "resolved";
  /** The metric's value in the window that changed the state, and the threshold it crossed. */
  value: number | null;
  threshold: number | null;
  aggregate: string;
  /** Minutes. */
  timeWindow: number;
  organization: Org;
  project: Proj | null;
  url: string;
};

/** The weekly summary of one organization for one person. */
export type SummaryNotificationPayload = {
  kind: "summary";
  organization: Org;
  /** ISO dates of the week's first and last day, in the person's time zone. */
  from: string;
  to: string;
  newIssues: number;
  events: number;
  topIssues: { shortId: string; title: string; count: number; url: string }[];
  /** Percent, null without sessions. */
  crashFreeSessions: number | null;
  url: string;
};

export type NotificationPayload = IssueNotificationPayload | MetricNotificationPayload | SummaryNotificationPayload;

export type NewNotification = {
  organizationId: number;
  projectId: number | null;
  source: NotificationSource;
  ruleId: number | null;
  issueId: number | null;
  action: NotificationAction;
  payload: NotificationPayload;
  /**
   * Names the decision, so that writing it again (a batch replayed after a crash, two evaluators) adds nothing:
   * e.g. `rule:12:issue:345:event:<event id>:action:0`.
   */
  idempotencyKey: string;
  /** ISO; when it was decided (and first due). */
  createdAt: string;
};

/** Adds notifications in the caller's transaction; a key already present is skipped. Returns how many were new. */
export type NotificationOutbox = { enqueueNotifications(rows: NewNotification[]): Promise<number> };

export type NotificationStatus = "pending" | "sent" | "failed";

export type Notification = NewNotification & {
  id: number;
  status: NotificationStatus;
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  sentAt: string | null;
};

export type NotificationAttempt = {
  id: number;
  notificationId: number;
  attemptedAt: string;
  durationMs: number;
  /** The webhook's origin and path, or the e-mail address. */
  target: string;
  statusCode: number | null;
  ok: boolean;
  error: string | null;
  responseExcerpt: string | null;
};
