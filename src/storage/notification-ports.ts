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
  issue: {
    id: number;
    shortId: string;
    title: string;
    culprit: string;
    level: string;
    status: string;
    firstSeen: string;
    lastSeen: string;
    count: number;
    userCount: number;
  };
  /** The event that made it due (null for assignment, comment and test notices made without one). */
  event: {
    eventId: string;
    message: string;
    timestamp: string;
    environment: string | null;
    release: string | null;
    platform: string | null;
    url: string | null;
    tags: [string, string][];
  } | null;
  /** Absolute link to the issue page: FAULTLINE_URL, base path, default locale path. */
  issueUrl: string;
  /** Workflow notices: who did it (assignment, comment) and what (the comment's text, capped). */
  actor?: { name: string; email: string } | null;
  text?: string | null;
};

/**
 * What an issue alert rule says when it fires on new user feedback (digest/feedback-alerts.ts): in Sentry each new
 * feedback is an issue of its own (category FEEDBACK), so rules fire for it as for a new issue; here the feedback is
 * the subject, with the issue of its associated event when it has one. The name and e-mail are what the person typed
 * to be contacted (Sentry's feedback issue carries them to every action too).
 */
export type FeedbackNotificationPayload = {
  kind: "feedback";
  /** Always first_seen: a new feedback is a new issue. */
  trigger: "first_seen";
  ruleName: string | null;
  organization: Org;
  project: Proj;
  feedback: {
    id: number;
    /** feedback (the widget, captureFeedback), user_report (the crash-report modal's item), api (the user-feedback API). */
    source: "feedback" | "user_report" | "api";
    /** Capped at NOTIFICATION_LIMITS.feedbackMessageChars. */
    message: string;
    name: string;
    email: string;
    url: string;
    environment: string | null;
    release: string | null;
    /** ISO */
    receivedAt: string;
    feedbackEventId: string | null;
    associatedEventId: string | null;
    tags: [string, string][];
  };
  /** The associated event's issue, when it is stored; if it was not yet, the sender reads it again (notify/deliver.ts). */
  issue: { id: number; shortId: string; title: string; url: string } | null;
  /** Absolute link to the feedback in the organization's inbox. */
  feedbackUrl: string;
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

export type NotificationPayload = IssueNotificationPayload | FeedbackNotificationPayload | MetricNotificationPayload | SummaryNotificationPayload;

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

/** One delivery attempt as a sender records it (the notification's id and the row's own id are the store's). */
export type NewNotificationAttempt = Omit<NotificationAttempt, "id" | "notificationId">;

/** What becomes of a claimed notification after an attempt: sent, tried again at `nextAttemptAt`, or given up. */
export type NotificationOutcome =
  | { status: "sent"; sentAt: string }
  | { status: "pending"; nextAttemptAt: string; error: string }
  | { status: "failed"; error: string };

/** A member of an organization who may receive its e-mail. */
export type NotificationRecipient = { userId: string; email: string; name: string };

/**
 * The senders' side of the outbox (notify/). Claims make each notification go through one sender at a time: a claim
 * names its sender and lasts until `claimUntil`; a crashed sender's claims pass, and another sender takes them.
 */
export type NotificationStore = {
  /**
   * Claims up to `limit` due notifications (pending, next attempt at or before `now`, no live claim) for `owner`
   * until `claimUntil`, oldest due first. PostgreSQL: FOR UPDATE SKIP LOCKED, so concurrent senders take disjoint rows.
   */
  claimDueNotifications(owner: string, now: string, claimUntil: string, limit: number): Promise<Notification[]>;
  /**
   * Records `attempt` (when one was made) and, if `owner` still holds the claim, the notification's new state, in one
   * transaction; the claim is released. Returns whether the state was written (false: the claim had passed to another).
   */
  finishNotification(id: number, owner: string, attempt: NewNotificationAttempt | null, outcome: NotificationOutcome): Promise<boolean>;
  /**
   * Replaces a notification by `children` (an e-mail action expanded into one notification per recipient) in one
   * transaction: the children are added (a key already present is skipped), `attempt` recorded, the parent marked sent
   * (if `owner` still holds it). Returns how many children were new.
   */
  expandNotification(id: number, owner: string, children: NewNotification[], attempt: NewNotificationAttempt): Promise<number>;
  getNotification(id: number): Promise<Notification | null>;
  listNotificationAttempts(notificationId: number): Promise<NotificationAttempt[]>;
  /** The project's secret for signing webhook bodies (projects.webhook_secret), or null. */
  getProjectWebhookSecret(projectId: number): Promise<string | null>;
  /**
   * Members of the organization with their e-mail addresses: all, or only `userIds`. Here and in every recipient read
   * (notification-settings-ports.ts), only members who meet the organization's two-factor requirement.
   */
  listOrganizationRecipients(organizationId: number, userIds?: string[]): Promise<NotificationRecipient[]>;
  /** Members of the team, if the team belongs to the organization. */
  listTeamRecipients(organizationId: number, teamId: number): Promise<NotificationRecipient[]>;
  /** The project's team (null: none) and whether the project belongs to the organization at all. */
  getProjectTeam(organizationId: number, projectId: number): Promise<{ teamId: number | null } | null>;
  /** The issue's assignee (a user or a team), if the issue belongs to the organization. */
  getIssueAssignee(organizationId: number, issueId: number): Promise<{ userId: string | null; teamId: number | null } | null>;
  /** The instance setting of hosts allowed despite private addresses (notify/allowed-hosts.ts), as typed. */
  getAllowedHostsSetting(): Promise<string>;
  setAllowedHostsSetting(text: string): Promise<void>;
};
