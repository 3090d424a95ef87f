// Issue alert rules of a project (Sentry's project rules: GET/POST …/rules/, GET/PUT/DELETE …/rules/{id}/). Everyone
// in the organization reads them (alert:read); owners and admins write them (alert:write), and members too when the
// organization lets them (Sentry's "Let members create alerts", organizations.alerts_member_write). Webhook URLs are
// checked when saved (alert-rule-urls.ts); e-mail targets must be a team or a member of the organization.
import { z } from "zod";
import { ALERT_RULE_LIMITS } from "../config/limits";
import type { AlertRule, NotificationWithAttempts } from "../storage/alert-ports";
import { EMAIL_ACTION, type IssueNotificationPayload, type NewNotification } from "../storage/notification-ports";
import type { Project } from "../storage/ports";
import { allowed, type OrgAccess, requireId, requireOrg, requireText } from "./access";
import { audit } from "./audit";
import { actionUrls, ASSIGNED_FILTER, FIRST_SEEN, parseRule, type RuleInput } from "./alert-rule-schema";
import { parseAllowedHosts } from "../notify/allowed-hosts";
import { assertWebhookUrls, type UrlCheckOptions } from "./alert-rule-urls";
import type { CoreContext } from "./context";
import { AppError, forbidden, notFound } from "./errors";
import { parseInput } from "./schemas";
import { formatShortId } from "./short-id";

type Scope = { access: OrgAccess; project: Project };

/** Whether the actor may create, change and delete alert rules in this organization. */
export async function canWriteAlerts(ctx: CoreContext, access: OrgAccess): Promise<boolean> {
  if (allowed(access, "alert:write")) return true;
  // Members, when the organization lets them (a person's role only: an organization token's scopes never give it).
  return access.scopes === null && access.role === "member" && (await ctx.store.alertsMemberWrite(access.org.id));
}

async function projectScope(ctx: CoreContext, orgSlug: string, projectSlug: string, write: boolean): Promise<Scope> {
  const access = await requireOrg(ctx, orgSlug, "alert:read");
  const project = await ctx.store.getProjectBySlug(access.org.id, requireText(projectSlug, "Project"));
  if (!project) throw notFound("Project");
  if (write && !(await canWriteAlerts(ctx, access))) throw forbidden();
  return { access, project };
}

/** A rule's settings without its ids and times, as the audit trail keeps them. */
const ruleFields = ({ id: _id, projectId: _p, createdBy: _c, createdAt: _a, updatedAt: _u, ...rest }: AlertRule): RuleInput => rest;

async function ruleIn(ctx: CoreContext, scope: Scope, ruleId: unknown): Promise<AlertRule> {
  const rule = await ctx.store.getAlertRule(scope.project.id, requireId(ruleId, "Rule"));
  if (!rule) throw notFound("Rule");
  return rule;
}

/**
 * E-mail actions and the "assigned to" filter name a team or a member of this organization; webhook URLs must be public
 * http(s). Another organization's user or team in a filter was kept (it could never match, and showed their id).
 */
async function checkTargets(ctx: CoreContext, scope: Scope, rule: RuleInput, urls: UrlCheckOptions): Promise<void> {
  const named: { field: string; targetType: "Team" | "Member"; targetIdentifier: string | null }[] = [];
  for (const [i, a] of rule.actions.entries()) {
    if (a.id === EMAIL_ACTION && a.targetType !== "IssueOwners") named.push({ field: `actions.${i}.targetIdentifier`, ...a, targetType: a.targetType });
  }
  for (const [i, f] of rule.filters.entries()) {
    if (f.id === ASSIGNED_FILTER && f.targetType !== "Unassigned") named.push({ field: `filters.${i}.targetIdentifier`, ...f, targetType: f.targetType });
  }
  for (const { field, targetType, targetIdentifier } of named) {
    const bad = (what: string) =>
      new AppError("bad_request", `${field}: no such ${what} in this organization`, { [field]: [`No such ${what} in this organization`] }, true);
    if (targetType === "Team") {
      const id = Number(targetIdentifier);
      if (!Number.isSafeInteger(id) || !(await ctx.store.getTeamById(scope.access.org.id, id))) throw bad("team");
    } else if (!(await ctx.store.getMembership(scope.access.org.id, targetIdentifier!))) throw bad("member");
  }
  const allowedHosts = urls.allowedHosts ?? parseAllowedHosts(await ctx.store.getAllowedHostsSetting());
  await assertWebhookUrls(actionUrls(rule.actions), { ...urls, allowedHosts });
}

export async function listAlertRules(ctx: CoreContext, orgSlug: string, projectSlug: string): Promise<Scope & { rules: AlertRule[]; canWrite: boolean }> {
  const scope = await projectScope(ctx, orgSlug, projectSlug, false);
  return { ...scope, rules: await ctx.store.listAlertRules(scope.project.id), canWrite: await canWriteAlerts(ctx, scope.access) };
}

export async function getAlertRule(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  ruleId: unknown,
): Promise<Scope & { rule: AlertRule; canWrite: boolean }> {
  const scope = await projectScope(ctx, orgSlug, projectSlug, false);
  return { ...scope, rule: await ruleIn(ctx, scope, ruleId), canWrite: await canWriteAlerts(ctx, scope.access) };
}

const actorUserId = (ctx: CoreContext) => ("user" in ctx.actor ? ctx.actor.user.id : null);

export async function createAlertRule(ctx: CoreContext, orgSlug: string, projectSlug: string, input: unknown, urls: UrlCheckOptions = {}): Promise<AlertRule> {
  const scope = await projectScope(ctx, orgSlug, projectSlug, true);
  const rule = parseRule(input);
  await checkTargets(ctx, scope, rule, urls);
  if ((await ctx.store.countAlertRules(scope.project.id)) >= ALERT_RULE_LIMITS.rulesPerProject) {
    throw new AppError("bad_request", `A project has at most ${ALERT_RULE_LIMITS.rulesPerProject} alert rules`);
  }
  const created = await ctx.store.createAlertRule({ ...rule, projectId: scope.project.id, createdBy: actorUserId(ctx) });
  await audit(ctx, {
    organizationId: scope.project.organizationId,
    event: "rule.create",
    target: created.id,
    note: `created the alert rule ${created.name} of ${scope.project.slug}`,
    data: { project: scope.project.slug, new: rule },
  });
  return created;
}

/** Sentry's PUT replaces the rule with the body (its serializer requires the same fields as a create). */
export async function updateAlertRule(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  ruleId: unknown,
  input: unknown,
  urls: UrlCheckOptions = {},
): Promise<AlertRule> {
  const scope = await projectScope(ctx, orgSlug, projectSlug, true);
  const before = await ruleIn(ctx, scope, ruleId);
  const rule = parseRule(input);
  await checkTargets(ctx, scope, rule, urls);
  const updated = await ctx.store.updateAlertRule(scope.project.id, requireId(ruleId, "Rule"), rule);
  if (!updated) throw notFound("Rule");
  await audit(ctx, {
    organizationId: scope.project.organizationId,
    event: "rule.edit",
    target: updated.id,
    note: `changed the alert rule ${updated.name} of ${scope.project.slug}`,
    data: { project: scope.project.slug, old: ruleFields(before), new: rule },
  });
  return updated;
}

export async function deleteAlertRule(ctx: CoreContext, orgSlug: string, projectSlug: string, ruleId: unknown): Promise<void> {
  const scope = await projectScope(ctx, orgSlug, projectSlug, true);
  const before = await ruleIn(ctx, scope, ruleId);
  if (!(await ctx.store.deleteAlertRule(scope.project.id, before.id))) throw notFound("Rule");
  await audit(ctx, {
    organizationId: scope.project.organizationId,
    event: "rule.remove",
    target: before.id,
    note: `deleted the alert rule ${before.name} of ${scope.project.slug}`,
    data: { project: scope.project.slug, old: ruleFields(before) },
  });
}

/** The organization's "Let members create alerts" setting (owners and admins change it, as the organization's settings). */
export async function getAlertsMemberWrite(ctx: CoreContext, orgSlug: string): Promise<boolean> {
  const access = await requireOrg(ctx, orgSlug, "org:read");
  return ctx.store.alertsMemberWrite(access.org.id);
}

export async function setAlertsMemberWrite(ctx: CoreContext, orgSlug: string, input: unknown): Promise<boolean> {
  const { alertsMemberWrite } = parseInput(z.object({ alertsMemberWrite: z.boolean({ error: "alertsMemberWrite must be true or false" }) }), input);
  const access = await requireOrg(ctx, orgSlug, "org:update");
  await ctx.store.setAlertsMemberWrite(access.org.id, alertsMemberWrite);
  return alertsMemberWrite;
}

/** A rule's notifications (fired and tests), newest first, with every delivery attempt. */
export async function alertRuleHistory(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  ruleId: unknown,
): Promise<Scope & { rule: AlertRule; history: NotificationWithAttempts[] }> {
  const scope = await projectScope(ctx, orgSlug, projectSlug, false);
  const rule = await ruleIn(ctx, scope, ruleId);
  return { ...scope, rule, history: await ctx.store.ruleHistory(scope.project.id, rule.id, ALERT_RULE_LIMITS.historyPageSize) };
}

/** The project's deliveries that are failing (retrying after an error) or failed for good, newest first. */
export async function failingDeliveries(ctx: CoreContext, orgSlug: string, projectSlug: string): Promise<NotificationWithAttempts[]> {
  const scope = await projectScope(ctx, orgSlug, projectSlug, false);
  return ctx.store.failingNotifications(scope.project.id, ALERT_RULE_LIMITS.historyPageSize);
}

/**
 * "Send test notification": one outbox row (source "test") per action of the rule, saying what a real one would,
 * about the project's most recently seen issue (or a sample when it has none). Returns how many were enqueued.
 */
export async function sendTestNotification(ctx: CoreContext, orgSlug: string, projectSlug: string, ruleId: unknown, linkBase: string): Promise<number> {
  const scope = await projectScope(ctx, orgSlug, projectSlug, true);
  const rule = await ruleIn(ctx, scope, ruleId);
  const { org } = scope.access;
  const { project } = scope;
  const latest = (await ctx.store.listIssues(project.id, { page: { limit: 1 } })).items[0];
  const now = new Date().toISOString();
  const issue = latest
    ? {
        id: latest.id,
        shortId: formatShortId(project.slug, latest.shortId),
        title: latest.title,
        culprit: latest.culprit,
        level: latest.level,
        status: latest.status,
        firstSeen: latest.firstSeen,
        lastSeen: latest.lastSeen,
        count: latest.timesSeen,
        userCount: latest.userCount,
      }
    : {
        id: 0,
        shortId: formatShortId(project.slug, 0),
        title: "TestError: this is a test notification",
        culprit: "faultline.alerts.test",
        level: "error",
        status: "unresolved",
        firstSeen: now,
        lastSeen: now,
        count: 1,
        userCount: 0,
      };
  const payload: IssueNotificationPayload = {
    kind: "issue",
    trigger: "test",
    ruleName: rule.name,
    organization: { id: org.id, slug: org.slug, name: org.name },
    project: { id: project.id, slug: project.slug, name: project.name, platform: project.platform },
    issue,
    event: null,
    issueUrl: latest ? `${linkBase}/en/orgs/${encodeURIComponent(org.slug)}/issues/${latest.id}` : `${linkBase}/en/orgs/${encodeURIComponent(org.slug)}/issues`,
  };
  const nonce = `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
  const rows: NewNotification[] = rule.actions.map((action, i) => ({
    organizationId: org.id,
    projectId: project.id,
    source: "test",
    ruleId: rule.id,
    issueId: latest?.id ?? null,
    action,
    payload,
    idempotencyKey: `test:rule:${rule.id}:${nonce}:action:${i}`,
    createdAt: now,
  }));
  return ctx.store.enqueueOutside(rows);
}

/**
 * Sentry's default rule for a new project (sentry/receivers/rules.py DEFAULT_RULE_LABEL, DEFAULT_RULE_DATA,
 * DEFAULT_RULE_ACTIONS): when a new issue is created, e-mail the issue's owners, falling through to the project's team
 * members (ActiveMembers), at most every 30 minutes per issue.
 */
export const DEFAULT_RULE: RuleInput = {
  name: "Send a notification for new issues",
  environment: null,
  actionMatch: "all",
  filterMatch: "all",
  frequency: ALERT_RULE_LIMITS.frequencyDefault,
  conditions: [{ id: FIRST_SEEN }],
  filters: [],
  actions: [{ id: EMAIL_ACTION, targetType: "IssueOwners", targetIdentifier: null, fallthroughType: "ActiveMembers" }],
  status: "active",
};

export type RuleCreator = { id: string; name: string; email: string };

/** Who made each rule (Sentry's `createdBy`), for the API's answers. */
export async function ruleCreators(ctx: CoreContext, rules: AlertRule[]): Promise<Map<string, RuleCreator>> {
  const out = new Map<string, RuleCreator>();
  for (const id of new Set(rules.map((r) => r.createdBy).filter((v): v is string => v !== null))) {
    const u = await ctx.store.getUserById(id);
    if (u) out.set(id, { id: u.id, name: u.name, email: u.email });
  }
  return out;
}

/** Whom an e-mail action or an assignee filter can name: the organization's teams and members. */
export async function ruleTargets(
  ctx: CoreContext,
  orgSlug: string,
): Promise<{ teams: { id: number; slug: string }[]; members: { userId: string; name: string; email: string }[] }> {
  const access = await requireOrg(ctx, orgSlug, "alert:read");
  const teams = (await ctx.store.listTeams(access.org.id, { limit: 100 })).items.map((t) => ({ id: t.id, slug: t.slug }));
  const members = (await ctx.store.listMembers(access.org.id)).map((m) => ({ userId: m.userId, name: m.name, email: m.email }));
  return { teams, members };
}
