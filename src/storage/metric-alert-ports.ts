// Metric alerts' port (migration 0022): the rules of an organization, their history and values, the claim of a
// minute's evaluation with its outcome in one transaction, and the computation of an aggregate over a window.
import type { AggregateKind, MetricDataset, MetricStatus, MetricTrigger, QueryFilter, ThresholdType } from "../core/metric-alert-defs";
import type { NewNotification, NotificationAction } from "./notification-ports";

export type MetricAlertProject = { id: number; slug: string; name: string; platform: string | null };

export type MetricAlertRule = {
  id: number;
  organizationId: number;
  /** Null: every project of the organization. */
  project: MetricAlertProject | null;
  name: string;
  aggregate: string;
  dataset: MetricDataset;
  query: string;
  environment: string | null;
  /** Minutes. */
  timeWindow: number;
  thresholdType: ThresholdType;
  resolveThreshold: number | null;
  triggers: MetricTrigger<NotificationAction>[];
  status: MetricStatus;
  lastValue: number | null;
  lastEvaluatedAt: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
};

/** What a rule is made of (validated by core/metric-alerts.ts). */
export type MetricAlertInput = {
  projectId: number | null;
  name: string;
  aggregate: string;
  dataset: MetricDataset;
  query: string;
  environment: string | null;
  timeWindow: number;
  thresholdType: ThresholdType;
  resolveThreshold: number | null;
  triggers: MetricTrigger<NotificationAction>[];
};

export type MetricAlertChange = { id: number; changedAt: string; from: MetricStatus; to: MetricStatus; value: number | null; threshold: number | null };

/** An aggregate over [start, end) of one project's or the organization's data. */
export type MetricQuery = {
  organizationId: number;
  projectId: number | null;
  kind: AggregateKind;
  filters: QueryFilter[];
  environment: string | null;
  start: string;
  end: string;
};

/** What an evaluation decided for the rule as it stood once claimed: its new status, the change, the notifications. */
export type MetricDecision = { status: MetricStatus; change: Omit<MetricAlertChange, "id">; notifications: NewNotification[] };

export type MetricEvaluationResult = { claimed: boolean; change: Omit<MetricAlertChange, "id"> | null; notificationsAdded: number };

export type DueMetricAlert = MetricAlertRule & { organization: { id: number; slug: string; name: string } };

export interface MetricAlertStore {
  createMetricAlert(organizationId: number, input: MetricAlertInput, createdBy: string | null, now: string): Promise<MetricAlertRule>;
  /** Null when the organization has no such rule. A changed rule keeps its status; the next minute judges it anew. */
  updateMetricAlert(organizationId: number, id: number, input: MetricAlertInput, now: string): Promise<MetricAlertRule | null>;
  deleteMetricAlert(organizationId: number, id: number): Promise<boolean>;
  getMetricAlert(organizationId: number, id: number): Promise<MetricAlertRule | null>;
  /** Oldest first. */
  listMetricAlerts(organizationId: number): Promise<MetricAlertRule[]>;
  countMetricAlerts(organizationId: number): Promise<number>;
  /** Newest first. */
  listMetricAlertHistory(ruleId: number, limit: number): Promise<MetricAlertChange[]>;
  /** The values evaluations saw since `since` (ISO), oldest first. */
  listMetricAlertValues(ruleId: number, since: string): Promise<{ minute: string; value: number | null }[]>;
  /** Rules (of every organization) not yet evaluated for `minute`, by id. */
  listDueMetricAlerts(minute: string, limit: number): Promise<DueMetricAlert[]>;
  computeMetricValue(query: MetricQuery): Promise<number | null>;
  /**
   * In one transaction: claims the rule's `minute` (false when this or another process already evaluated it, or the
   * rule is gone), records the value, and applies what `decide` makes of the rule as claimed: its status, a history
   * entry and the outbox rows.
   */
  recordMetricEvaluation(
    ruleId: number,
    minute: string,
    value: number | null,
    now: string,
    decide: (rule: MetricAlertRule) => MetricDecision | null,
  ): Promise<MetricEvaluationResult>;
}
