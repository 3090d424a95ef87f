// The rule editor's plain form (no JavaScript needed: fixed fields, one per condition, filter and action) to and from
// the rule shape the core validates (core/alert-rule-schema.ts). Empty or unticked fields leave their node out.
import {
  AGE_FILTER,
  ASSIGNED_FILTER,
  EVENT_FREQUENCY,
  FIRST_SEEN,
  ISSUE_CATEGORY_FILTER,
  LATEST_RELEASE_FILTER,
  LEVEL_FILTER,
  OCCURRENCES_FILTER,
  REAPPEARED,
  REGRESSION,
  type RuleInput,
  TAGGED_FILTER,
  USER_FREQUENCY,
} from "../core/alert-rule-schema";
import { DISCORD_ACTION, EMAIL_ACTION, SLACK_ACTION, TEAMS_ACTION, WEBHOOK_ACTION } from "../storage/notification-ports";

type Form = Record<string, string | undefined>;
const on = (v: string | undefined) => v === "on";

/** The form's fields as the API's rule body (Sentry's shape), for the core to validate. */
export function formToRule(f: Form): Record<string, unknown> {
  const conditions: Record<string, unknown>[] = [];
  if (on(f.firstSeen)) conditions.push({ id: FIRST_SEEN });
  if (on(f.regression)) conditions.push({ id: REGRESSION });
  if (on(f.reappeared)) conditions.push({ id: REAPPEARED });
  for (const [prefix, id] of [
    ["events", EVENT_FREQUENCY],
    ["users", USER_FREQUENCY],
  ] as const) {
    if (on(f[`${prefix}On`]))
      conditions.push({ id, value: f[`${prefix}Value`] ?? "", interval: f[`${prefix}Interval`] ?? "", firstTimeOnly: on(f[`${prefix}Once`]) });
  }
  const filters: Record<string, unknown>[] = [];
  if (f.levelMatch) filters.push({ id: LEVEL_FILTER, match: f.levelMatch, level: f.level ?? "" });
  if (f.tagKey) filters.push({ id: TAGGED_FILTER, key: f.tagKey, match: f.tagMatch ?? "eq", value: f.tagValue ?? "" });
  if (on(f.latestRelease)) filters.push({ id: LATEST_RELEASE_FILTER });
  if (f.release) filters.push({ id: TAGGED_FILTER, key: "release", match: "eq", value: f.release });
  if (f.ageValue) filters.push({ id: AGE_FILTER, comparison_type: f.ageComparison ?? "older", value: f.ageValue, time: f.ageTime ?? "hour" });
  if (f.occurrences) filters.push({ id: OCCURRENCES_FILTER, value: f.occurrences });
  if (f.assigned) {
    const [targetType, targetIdentifier = null] = f.assigned.split(":", 2);
    filters.push({ id: ASSIGNED_FILTER, targetType, targetIdentifier });
  }
  if (f.category) filters.push({ id: ISSUE_CATEGORY_FILTER, value: f.category });
  const actions: Record<string, unknown>[] = [];
  if (f.email) {
    const [targetType, targetIdentifier = null] = f.email.split(":", 2);
    actions.push(
      targetType === "IssueOwners"
        ? { id: EMAIL_ACTION, targetType, fallthroughType: f.fallthrough || "ActiveMembers" }
        : { id: EMAIL_ACTION, targetType, targetIdentifier },
    );
  }
  if (f.webhookUrl) actions.push({ id: WEBHOOK_ACTION, service: "webhooks", url: f.webhookUrl });
  if (f.slackUrl) actions.push({ id: SLACK_ACTION, webhookUrl: f.slackUrl });
  if (f.discordUrl) actions.push({ id: DISCORD_ACTION, webhookUrl: f.discordUrl });
  if (f.teamsUrl) actions.push({ id: TEAMS_ACTION, webhookUrl: f.teamsUrl });
  return {
    name: f.name ?? "",
    environment: f.environment ?? "",
    actionMatch: f.actionMatch ?? "all",
    filterMatch: f.filterMatch ?? "all",
    frequency: f.frequency ?? "",
    status: on(f.disabled) ? "disabled" : "active",
    conditions,
    filters,
    actions,
  };
}

/** A rule's values for the form's fields (a new rule: a new issue e-mails the issue's owners). */
export function ruleToForm(r: RuleInput | null): Form {
  const f: Form = {
    name: r?.name ?? "",
    environment: r?.environment ?? "",
    actionMatch: r?.actionMatch ?? "all",
    filterMatch: r?.filterMatch ?? "all",
    frequency: String(r?.frequency ?? 30),
    disabled: r?.status === "disabled" ? "on" : undefined,
  };
  if (!r) return { ...f, firstSeen: "on", email: "IssueOwners", fallthrough: "ActiveMembers" };
  for (const c of r.conditions) {
    if (c.id === FIRST_SEEN) f.firstSeen = "on";
    else if (c.id === REGRESSION) f.regression = "on";
    else if (c.id === REAPPEARED) f.reappeared = "on";
    else {
      const p = c.id === EVENT_FREQUENCY ? "events" : "users";
      Object.assign(f, { [`${p}On`]: "on", [`${p}Value`]: String(c.value), [`${p}Interval`]: c.interval, [`${p}Once`]: c.firstTimeOnly ? "on" : undefined });
    }
  }
  for (const x of r.filters) {
    if (x.id === LEVEL_FILTER) Object.assign(f, { levelMatch: x.match, level: x.level });
    else if (x.id === TAGGED_FILTER && x.key === "release" && x.match === "eq" && !f.release) f.release = x.value;
    else if (x.id === TAGGED_FILTER) Object.assign(f, { tagKey: x.key, tagMatch: x.match, tagValue: x.value });
    else if (x.id === LATEST_RELEASE_FILTER) f.latestRelease = "on";
    else if (x.id === AGE_FILTER) Object.assign(f, { ageComparison: x.comparison_type, ageValue: String(x.value), ageTime: x.time });
    else if (x.id === OCCURRENCES_FILTER) f.occurrences = String(x.value);
    else if (x.id === ASSIGNED_FILTER) f.assigned = x.targetType === "Unassigned" ? "Unassigned" : `${x.targetType}:${x.targetIdentifier}`;
    else if (x.id === ISSUE_CATEGORY_FILTER) f.category = x.value;
  }
  for (const a of r.actions) {
    if (a.id === EMAIL_ACTION)
      Object.assign(f, { email: a.targetType === "IssueOwners" ? "IssueOwners" : `${a.targetType}:${a.targetIdentifier}`, fallthrough: a.fallthroughType });
    else if (a.id === WEBHOOK_ACTION) f.webhookUrl = a.url;
    else if (a.id === SLACK_ACTION) f.slackUrl = a.webhookUrl;
    else if (a.id === DISCORD_ACTION) f.discordUrl = a.webhookUrl;
    else if (a.id === TEAMS_ACTION) f.teamsUrl = a.webhookUrl;
  }
  return f;
}
