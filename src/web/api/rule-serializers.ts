// Sentry's issue alert rule shape (sentry/api/serializers/models/rule.py RuleSerializer): string id, name,
// environment, actionMatch, filterMatch, frequency, conditions, filters, actions, dateCreated, createdBy, owner,
// projects, status.
import type { RuleCreator } from "../../core/alert-rules";
import type { AlertRule } from "../../storage/alert-ports";

export function serializeRule(r: AlertRule, projectSlug: string, creators: Map<string, RuleCreator>) {
  return {
    id: String(r.id),
    name: r.name,
    environment: r.environment,
    actionMatch: r.actionMatch,
    filterMatch: r.filterMatch,
    frequency: r.frequency,
    conditions: r.conditions,
    filters: r.filters,
    actions: r.actions,
    dateCreated: r.createdAt,
    createdBy: r.createdBy !== null ? (creators.get(r.createdBy) ?? null) : null,
    owner: null,
    projects: [projectSlug],
    status: r.status,
    snooze: false,
  };
}
