// Metric alert rules in Sentry's alert-rule shape (AlertRuleSerializer): `status` is Sentry's rule status (0, active);
// the rule's current state (resolved, warning, critical) is Faultline's `state`, with the value last seen.
import type { MetricAlertRule } from "../../storage/metric-alert-ports";

/** Sentry's SnubaQuery.Type: 0 error, 1 performance, 2 crash rate. */
const QUERY_TYPE = { events: 0, transactions: 1, sessions: 2 } as const;

export function serializeMetricAlert(rule: MetricAlertRule) {
  return {
    id: String(rule.id),
    name: rule.name,
    organizationId: String(rule.organizationId),
    status: 0,
    state: rule.status,
    queryType: QUERY_TYPE[rule.dataset],
    dataset: rule.dataset,
    query: rule.query,
    aggregate: rule.aggregate,
    thresholdType: rule.thresholdType,
    resolveThreshold: rule.resolveThreshold,
    timeWindow: rule.timeWindow,
    resolution: 1,
    thresholdPeriod: 1,
    environment: rule.environment,
    projects: rule.project ? [rule.project.slug] : [],
    eventTypes: rule.dataset === "events" ? ["error", "default"] : rule.dataset === "transactions" ? ["transaction"] : [],
    triggers: rule.triggers.map((t) => ({
      id: `${rule.id}-${t.label}`,
      alertRuleId: String(rule.id),
      label: t.label,
      thresholdType: rule.thresholdType,
      alertThreshold: t.alertThreshold,
      resolveThreshold: rule.resolveThreshold,
      dateCreated: rule.createdAt,
      actions: t.actions,
    })),
    owner: null,
    latestValue: rule.lastValue,
    lastEvaluated: rule.lastEvaluatedAt,
    dateModified: rule.updatedAt,
    dateCreated: rule.createdAt,
  };
}
