// Issue alert rules, evaluated inside the digest's batch transaction (commit.ts writeBatch), as Sentry's
// RuleProcessor does after each event (sentry/rules/processing/processor.py): for each issue the batch touched and
// each active rule of its project, the rule's environment, its conditions (actionMatch) and filters (filterMatch) are
// checked event by event in batch order; the first event that passes fires the rule, unless the rule fired for the
// issue less than `frequency` minutes ago (Sentry's GroupRuleStatus.last_active, here alert_rule_issues, so the limit
// holds across batches and restarts). Firing writes one outbox row per action, keyed by rule, issue, event and action,
// so a batch written again adds nothing.
import { INTERVALS, EVENT_FREQUENCY, type FrequencyCondition } from "../core/alert-rule-schema";
import { isMonitorFailure } from "../core/monitor-failure";
import { formatShortId } from "../core/short-id";
import { ALERT_RULE_LIMITS } from "../config/limits";
import type { AlertIssueFacts, AlertProjectInfo, AlertRule, RuleIssueFired, RuleIssueState } from "../storage/alert-ports";
import type { DigestTx } from "../storage/digest-ports";
import type { IssueNotificationPayload, IssueTrigger, NewNotification } from "../storage/notification-ports";
import { type EventFacts, type Lookups, conditionTrigger, rulePasses } from "./alert-checks";
import type { DigestedEvent } from "./items";

/** What the batch did, as the rules read it. */
export type AlertBatch = {
  stored: DigestedEvent[];
  issueOf: Map<DigestedEvent, number>;
  created: Set<number>;
  /** Issues that regressed in the batch, with the event id that made them regress. */
  regressed: Map<number, string>;
  /** Ignored issues that came back in the batch. */
  reappeared: Set<number>;
  now: Date;
};

/** Where issue links point: FAULTLINE_URL plus the base path (no trailing slash). */
export type AlertLinks = { base: string };

type CachedRules = { version: string; rules: AlertRule[] };

/**
 * Each store's rules per project (the digest's store lives as long as its thread): read again only when the
 * project's rule version (alert-ports.ts AlertProjectInfo) moved, which one grouped query per batch tells.
 */
const caches = new WeakMap<object, Map<number, CachedRules>>();

async function rulesOf(cache: Map<number, CachedRules>, tx: DigestTx, info: AlertProjectInfo): Promise<AlertRule[]> {
  const id = info.project.id;
  const hit = cache.get(id);
  if (hit && hit.version === info.version) return hit.rules;
  const rules = await tx.activeAlertRules(id);
  cache.delete(id);
  cache.set(id, { version: info.version, rules });
  // Least recently read first out, beyond the bound.
  while (cache.size > ALERT_RULE_LIMITS.cachedProjects) cache.delete(cache.keys().next().value!);
  return rules;
}

/** The projects' infos, and the active rules of those that have any (read through the store's cache). */
export async function projectRules(
  cacheKey: object,
  tx: DigestTx,
  projectIds: number[],
): Promise<{ infos: Map<number, AlertProjectInfo>; rulesByProject: Map<number, AlertRule[]> }> {
  const infos = await tx.alertProjects(projectIds);
  const rulesByProject = new Map<number, AlertRule[]>();
  const live = [...infos.values()].filter((i) => i.activeRules > 0);
  if (live.length === 0) return { infos, rulesByProject };
  let cache = caches.get(cacheKey);
  if (!cache) caches.set(cacheKey, (cache = new Map()));
  for (const info of live) rulesByProject.set(info.project.id, await rulesOf(cache, tx, info));
  return { infos, rulesByProject };
}

const stateKey = (ruleId: number, issueId: number) => `${ruleId}:${issueId}`;

/** One issue's events in the batch, with what each did to it. */
function issueEvents(batch: AlertBatch): Map<number, { event: DigestedEvent; facts: EventFacts }[]> {
  const out = new Map<number, { event: DigestedEvent; facts: EventFacts }[]>();
  for (const e of batch.stored) {
    const issueId = batch.issueOf.get(e);
    if (issueId === undefined) continue;
    const list = out.get(issueId) ?? [];
    const first = list.length === 0;
    list.push({
      event: e,
      facts: {
        level: e.level,
        release: e.release,
        tags: e.tags,
        isNew: first && batch.created.has(issueId),
        isRegression: batch.regressed.get(issueId) === e.eventId,
        hasReappeared: first && batch.reappeared.has(issueId),
        category: isMonitorFailure(e.tags) ? "4" : "1",
      },
    });
    out.set(issueId, list);
  }
  return out;
}

function payload(
  rule: AlertRule,
  trigger: IssueTrigger,
  info: AlertProjectInfo,
  issue: AlertIssueFacts,
  e: DigestedEvent,
  links: AlertLinks,
): IssueNotificationPayload {
  const url = e.tags.find(([k]) => k === "url")?.[1] ?? null;
  return {
    kind: "issue",
    trigger,
    ruleName: rule.name,
    organization: info.organization,
    project: info.project,
    issue: {
      id: issue.id,
      shortId: formatShortId(info.project.slug, issue.shortNumber),
      title: issue.title,
      culprit: issue.culprit,
      level: issue.level,
      status: issue.status,
      firstSeen: issue.firstSeen,
      lastSeen: issue.lastSeen,
      count: issue.timesSeen,
      userCount: issue.userCount,
    },
    event: {
      eventId: e.eventId,
      message: e.message,
      timestamp: e.timestamp,
      environment: e.environment,
      release: e.release,
      platform: e.platform,
      url,
      tags: e.tags,
    },
    issueUrl: issueLink(links, info.organization.slug, issue.id),
  };
}

/** The issue page in the default locale (src/app/[locale]/(app)/orgs/[org]/issues/[issueId]). */
export const issueLink = (links: AlertLinks, orgSlug: string, issueId: number) => `${links.base}/en/orgs/${encodeURIComponent(orgSlug)}/issues/${issueId}`;
/** The feedback in the organization's inbox, default locale (src/app/[locale]/(app)/orgs/[org]/feedback/[feedbackId]). */
export const feedbackLink = (links: AlertLinks, orgSlug: string, feedbackId: number) =>
  `${links.base}/en/orgs/${encodeURIComponent(orgSlug)}/feedback/${feedbackId}`;

/** Whether the issue has more than `value` events (or users) since `interval` ago: exact from the stored events. */
async function frequencyPasses(tx: DigestTx, c: FrequencyCondition, issue: AlertIssueFacts, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - INTERVALS[c.interval]).toISOString();
  if (c.id === EVENT_FREQUENCY) {
    // Never more in the interval than ever: most issues are settled without a query.
    if (issue.timesSeen <= c.value) return false;
    return tx.hasEventsSince(issue.id, c.value + 1, since);
  }
  if (issue.userCount <= c.value) return false;
  return (await tx.userCount(issue.id, since)) > c.value;
}

/**
 * The outbox rows of a rule that fired: one per action, keyed by the rule, `subject` (what it fired for, e.g.
 * `issue:12:event:<id>`) and the action's place, so a batch written again adds nothing.
 */
export function actionRows(
  rule: Pick<AlertRule, "id" | "actions">,
  row: Pick<NewNotification, "organizationId" | "projectId" | "issueId" | "payload" | "createdAt">,
  subject: string,
): NewNotification[] {
  return rule.actions.map((action, i) => ({
    ...row,
    source: "issue_rule",
    ruleId: rule.id,
    action,
    idempotencyKey: `rule:${rule.id}:${subject}:action:${i}`,
  }));
}

/** Evaluates the project's rules for the batch's issues; writes outbox rows and rule states. Returns rows newly enqueued. */
export async function evaluateAlerts(cacheKey: object, tx: DigestTx, batch: AlertBatch, links: AlertLinks): Promise<number> {
  const events = issueEvents(batch);
  if (events.size === 0) return 0;
  const projectOfIssue = new Map<number, number>();
  for (const [issueId, list] of events) projectOfIssue.set(issueId, list[0]!.event.projectId);
  const { infos, rulesByProject } = await projectRules(cacheKey, tx, [...new Set(projectOfIssue.values())]);
  if (rulesByProject.size === 0) return 0;
  const issueIds = [...events.keys()].filter((id) => rulesByProject.has(projectOfIssue.get(id)!));
  if (issueIds.length === 0) return 0;
  const facts = await tx.alertIssueFacts(issueIds);
  const ruleIds = [...rulesByProject.values()].flatMap((rules) => rules.map((r) => r.id));
  const states = await tx.ruleIssueStates(ruleIds, issueIds);
  const latest = new Map<number, Promise<string | null>>();
  const rows: NewNotification[] = [];
  const fired: RuleIssueFired[] = [];
  const at = batch.now.toISOString();
  for (const issueId of issueIds) {
    const issue = facts.get(issueId);
    const projectId = projectOfIssue.get(issueId)!;
    if (!issue) continue;
    const info = infos.get(projectId)!;
    const counted = new Map<string, Promise<boolean>>();
    const lookups: Lookups = {
      // Each distinct condition is counted once per issue and batch, and only when a rule gets that far.
      frequency: (c) => {
        const key = `${c.id}:${c.value}:${c.interval}`;
        let answer = counted.get(key);
        if (!answer) counted.set(key, (answer = frequencyPasses(tx, c, issue, batch.now)));
        return answer;
      },
      latestRelease: () => {
        let answer = latest.get(projectId);
        if (!answer) latest.set(projectId, (answer = tx.latestRelease(projectId)));
        return answer;
      },
    };
    for (const rule of rulesByProject.get(projectId)!) {
      const state: RuleIssueState | undefined = states.get(stateKey(rule.id, issueId));
      if (state && Date.parse(state.lastFiredAt) + rule.frequency * 60_000 > batch.now.getTime()) continue;
      const firedOnce = state?.firedOnce ?? false;
      for (const { event, facts: e } of events.get(issueId)!) {
        if (rule.environment !== null && event.environment !== rule.environment) continue;
        const passed = await rulePasses(rule, e, issue, firedOnce, batch.now, lookups);
        if (!passed) continue;
        const body = payload(rule, conditionTrigger(passed[0]!), info, issue, event, links);
        rows.push(
          ...actionRows(
            rule,
            { organizationId: info.organization.id, projectId, issueId, payload: body, createdAt: at },
            `issue:${issueId}:event:${event.eventId}`,
          ),
        );
        fired.push({ ruleId: rule.id, issueId, firedAt: at, firedOnce: firedOnce || passed.some((c) => "firstTimeOnly" in c && c.firstTimeOnly) });
        break;
      }
    }
  }
  if (fired.length > 0) await tx.markRulesFired(fired);
  return rows.length > 0 ? tx.enqueueNotifications(rows) : 0;
}
