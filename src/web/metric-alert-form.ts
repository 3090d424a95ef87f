// The metric alert editor's plain form (it works without JavaScript) to and from the core's input in Sentry's shape:
// flat fields, and up to ACTION_ROWS actions per trigger as a type and a target each. Actions beyond those rows
// (made through the API) are kept as they are.
import type { MetricAlertRule } from "../storage/metric-alert-ports";
import { DISCORD_ACTION, EMAIL_ACTION, type NotificationAction, SLACK_ACTION, TEAMS_ACTION, WEBHOOK_ACTION } from "../storage/notification-ports";

export const ACTION_ROWS = 3;
export const ACTION_TYPES = ["", "webhook", "slack", "discord", "teams", "member", "team"] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
type Label = "critical" | "warning";

const text = (form: Record<string, string | undefined>, key: string) => form[key]?.trim() ?? "";

function toAction(type: string, target: string): Record<string, unknown> | null {
  switch (type) {
    case "webhook":
      return { id: WEBHOOK_ACTION, service: "webhooks", url: target };
    case "slack":
      return { id: SLACK_ACTION, webhookUrl: target };
    case "discord":
      return { id: DISCORD_ACTION, webhookUrl: target };
    case "teams":
      return { id: TEAMS_ACTION, webhookUrl: target };
    case "member":
      return { id: EMAIL_ACTION, targetType: "Member", targetIdentifier: target };
    case "team":
      return { id: EMAIL_ACTION, targetType: "Team", targetIdentifier: target };
    case "":
      return null;
    default:
      return { id: type };
  }
}

export function actionRow(a: NotificationAction): { type: ActionType; target: string } {
  switch (a.id) {
    case WEBHOOK_ACTION:
      return { type: "webhook", target: a.url };
    case SLACK_ACTION:
      return { type: "slack", target: a.webhookUrl };
    case DISCORD_ACTION:
      return { type: "discord", target: a.webhookUrl };
    case TEAMS_ACTION:
      return { type: "teams", target: a.webhookUrl };
    case EMAIL_ACTION:
      return { type: a.targetType === "Team" ? "team" : "member", target: String(a.targetIdentifier ?? "") };
    default:
      return { type: "", target: "" };
  }
}

/** The form's fields → the core's input; `current` keeps the actions the form does not show. */
export function formToInput(form: Record<string, string | undefined>, current: MetricAlertRule | null): Record<string, unknown> {
  const trigger = (label: Label) => {
    const actions: unknown[] = [];
    for (let i = 0; i < ACTION_ROWS; i++) {
      const a = toAction(text(form, `${label}.action.${i}.type`), text(form, `${label}.action.${i}.target`));
      if (a) actions.push(a);
    }
    const kept = current?.triggers.find((t) => t.label === label)?.actions.slice(ACTION_ROWS) ?? [];
    return { label, alertThreshold: text(form, label), actions: [...actions, ...kept] };
  };
  const warning = text(form, "warning") !== "";
  return {
    name: text(form, "name"),
    aggregate: text(form, "aggregate"),
    query: text(form, "query"),
    environment: text(form, "environment") || null,
    timeWindow: text(form, "timeWindow"),
    thresholdType: text(form, "thresholdType"),
    resolveThreshold: text(form, "resolve") || null,
    projects: text(form, "project") ? [text(form, "project")] : [],
    triggers: warning ? [trigger("critical"), trigger("warning")] : [trigger("critical")],
  };
}

/** The core's field names (Sentry's) → the form's, so errors show next to their field. */
export function formField(field: string, hasWarning: boolean): string {
  const m = /^triggers\.(\d)\.(alertThreshold|actions)(?:\.(\d+))?/.exec(field);
  if (m) {
    const label = m[1] === "0" ? "critical" : hasWarning ? "warning" : "critical";
    if (m[2] === "alertThreshold") return label;
    return m[3] !== undefined ? `${label}.action.${m[3]}.target` : `${label}.action.0.type`;
  }
  return { projects: "project", resolveThreshold: "resolve", triggers: "critical" }[field] ?? field;
}
