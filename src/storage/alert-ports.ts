// Issue alert rules (migration 0021): the rules of a project, the organization's "members may write alerts" setting,
// each rule's history (its notifications and their delivery attempts, migration 0020), and what the digest reads and
// writes inside its batch's transaction to evaluate them (AlertTx, part of DigestTx).
import type { RuleInput } from "../core/alert-rule-schema";
import type { NewNotification, Notification, NotificationAttempt } from "./notification-ports";

export type AlertRule = RuleInput & { id: number; projectId: number; createdBy: string | null; createdAt: string; updatedAt: string };

/** A notification with its delivery attempts, newest attempt first. */
export type NotificationWithAttempts = Notification & { attemptList: NotificationAttempt[] };

export interface AlertRuleStore {
  /** The project's rules, oldest first. */
  listAlertRules(projectId: number): Promise<AlertRule[]>;
  getAlertRule(projectId: number, ruleId: number): Promise<AlertRule | null>;
  countAlertRules(projectId: number): Promise<number>;
  createAlertRule(rule: RuleInput & { projectId: number; createdBy: string | null }): Promise<AlertRule>;
  /** Null when the project has no such rule. */
  updateAlertRule(projectId: number, ruleId: number, rule: RuleInput): Promise<AlertRule | null>;
  deleteAlertRule(projectId: number, ruleId: number): Promise<boolean>;
  alertsMemberWrite(organizationId: number): Promise<boolean>;
  setAlertsMemberWrite(organizationId: number, on: boolean): Promise<void>;
  /** Notifications of one rule (source issue_rule, or a test of it), newest first, with their attempts. */
  ruleHistory(projectId: number, ruleId: number, limit: number): Promise<NotificationWithAttempts[]>;
  /** The project's notifications whose last attempt failed (pending with an error, or failed), newest first. */
  failingNotifications(projectId: number, limit: number): Promise<NotificationWithAttempts[]>;
  /** Writes notifications in a transaction of their own (a test notification); returns how many were new. */
  enqueueOutside(rows: NewNotification[]): Promise<number>;
}

/** What the digest knows of a project when it evaluates its rules; `version` changes whenever a rule does. */
export type AlertProjectInfo = {
  version: string;
  organization: { id: number; slug: string; name: string };
  project: { id: number; slug: string; name: string; platform: string | null };
  /** Active rules (0 means nothing to evaluate). */
  activeRules: number;
};

/** An issue's columns as they stand after the batch's updates. */
export type AlertIssueFacts = {
  id: number;
  projectId: number;
  shortNumber: number;
  title: string;
  culprit: string;
  level: string;
  status: string;
  firstSeen: string;
  lastSeen: string;
  timesSeen: number;
  userCount: number;
  assigneeId: string | null;
  assigneeTeamId: number | null;
};

export type RuleIssueState = { lastFiredAt: string; firedOnce: boolean };
export type RuleIssueFired = { ruleId: number; issueId: number; firedAt: string; firedOnce: boolean };

export interface AlertTx {
  /** Of these projects, those that exist, with their rules' version (count, newest id, newest change). */
  alertProjects(projectIds: number[]): Promise<Map<number, AlertProjectInfo>>;
  /** The project's active rules. */
  activeAlertRules(projectId: number): Promise<AlertRule[]>;
  alertIssueFacts(issueIds: number[]): Promise<Map<number, AlertIssueFacts>>;
  /** The state of each (rule, issue) pair that has fired before, keyed "ruleId:issueId". */
  ruleIssueStates(ruleIds: number[], issueIds: number[]): Promise<Map<string, RuleIssueState>>;
  markRulesFired(rows: RuleIssueFired[]): Promise<void>;
  /** The project's newest release (Sentry's LatestReleaseFilter: the release created last), or null. */
  latestRelease(projectId: number): Promise<string | null>;
}
