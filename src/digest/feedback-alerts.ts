// Issue alert rules on new user feedback (issue 19), evaluated in the digest's batch transaction right after the
// feedback is written (commit.ts), or in the user-feedback API's own transaction (core/feedback-submit.ts).
//
// In Sentry every new feedback is a new issue of category FEEDBACK (sentry GroupCategory 6; create_feedback_issue in
// sentry/feedback/usecases/create_feedback.py gives each its own random fingerprint), so "A new issue is created"
// (sentry.rules.conditions.first_seen_event.FirstSeenEventCondition) fires on each one, and IssueCategoryFilter with
// value "6" keeps a rule to feedback, "1" to errors. Sentry's docs say so: with the default rule ("Alert me on every
// new issue") nothing more is needed to hear of each feedback; otherwise a rule with "The issue's category is equal
// to Feedback" (getsentry/sentry-javascript#9427, getsentry/sentry-docs#10982). Faultline evaluates each new feedback
// the same way, as an issue that is new with this one event:
// - FirstSeenEventCondition passes; regression and reappeared never do; event and user frequency conditions count the
//   one feedback (1 event, 1 user), so they pass only below 1;
// - filters read what feedback has: level info (Sentry's feedback level), tags (the feedback event's, plus level,
//   environment, release and url), release, age 0, 1 occurrence, assigned to nobody (a new row of the inbox has no
//   assignee yet), category 6; the rule's environment must be the feedback's (a user report takes its associated
//   event's environment and release when that is stored, as Sentry's user-report shim reads them from the event);
// - the frequency limit is per rule and issue: each feedback is its own issue and is evaluated once, when its row is
//   new, so two feedbacks never share a limit and one never fires twice; nothing is kept in alert_rule_issues;
// - outbox rows are keyed by rule, feedback and action, so a batch written again adds nothing.
//
// Sentry notifies on crash-report-modal and user-report-API feedback only when the project option
// "sentry:feedback_user_report_notifications" is on, which it is for every new project. Faultline keeps that default
// with no switch: all three sources (feedback, user_report, api) fire, since the person who wrote a crash report wants
// to be heard as much as one who used the widget, and a rule that should not hear of feedback at all says so with the
// category filter.
import { ISSUE_CATEGORIES, EVENT_FREQUENCY, USER_FREQUENCY } from "../core/alert-rule-schema";
import { formatShortId } from "../core/short-id";
import { NOTIFICATION_LIMITS } from "../config/limits";
import type { AlertIssueFacts, AlertProjectInfo, AlertRule } from "../storage/alert-ports";
import type { DigestTx } from "../storage/digest-ports";
import type { WrittenFeedback } from "../storage/feedback-ports";
import type { FeedbackNotificationPayload, NewNotification } from "../storage/notification-ports";
import { type EventFacts, type IssueFacts, type Lookups, rulePasses } from "./alert-checks";
import { type AlertLinks, actionRows, feedbackLink, issueLink, projectRules } from "./alerts";

const FEEDBACK: keyof typeof ISSUE_CATEGORIES = "6";

/** What a feedback is, read as an event of a new issue. */
function factsOf(w: WrittenFeedback): { environment: string | null; facts: EventFacts } {
  const d = w.row.details;
  const environment = d.environment ?? w.associated?.environment ?? null;
  const release = d.release ?? w.associated?.release ?? null;
  const tags: [string, string][] = [...(d.tags ?? [])];
  const add = (key: string, value: string | null) => {
    if (value && !tags.some(([k]) => k === key)) tags.push([key, value]);
  };
  add("level", "info");
  add("environment", environment);
  add("release", release);
  add("url", w.row.url || null);
  return { environment, facts: { level: "info", release, tags, isNew: true, isRegression: false, hasReappeared: false, category: FEEDBACK } };
}

function payload(
  rule: AlertRule,
  info: AlertProjectInfo,
  w: WrittenFeedback,
  f: { environment: string | null; facts: EventFacts },
  issue: AlertIssueFacts | undefined,
  links: AlertLinks,
): FeedbackNotificationPayload {
  const org = info.organization;
  return {
    kind: "feedback",
    trigger: "first_seen",
    ruleName: rule.name,
    organization: org,
    project: info.project,
    feedback: {
      id: w.id,
      source: w.row.source,
      message: w.row.message.slice(0, NOTIFICATION_LIMITS.feedbackMessageChars),
      name: w.row.name,
      email: w.row.email,
      url: w.row.url,
      environment: f.environment,
      release: f.facts.release,
      receivedAt: w.row.receivedAt,
      feedbackEventId: w.row.feedbackEventId,
      associatedEventId: w.row.associatedEventId,
      tags: f.facts.tags,
    },
    issue: issue
      ? { id: issue.id, shortId: formatShortId(info.project.slug, issue.shortNumber), title: issue.title, url: issueLink(links, org.slug, issue.id) }
      : null,
    feedbackUrl: feedbackLink(links, org.slug, w.id),
  };
}

/** Evaluates the projects' active rules for each new feedback; writes outbox rows. Returns rows newly enqueued. */
export async function evaluateFeedbackAlerts(cacheKey: object, tx: DigestTx, written: WrittenFeedback[], now: Date, links: AlertLinks): Promise<number> {
  const fresh = written.filter((w) => w.isNew);
  if (fresh.length === 0) return 0;
  const { infos, rulesByProject } = await projectRules(cacheKey, tx, [...new Set(fresh.map((w) => w.row.projectId))]);
  if (rulesByProject.size === 0) return 0;
  const linked = [...new Set(fresh.flatMap((w) => (w.issueId !== null && rulesByProject.has(w.row.projectId) ? [w.issueId] : [])))];
  const issues = linked.length > 0 ? await tx.alertIssueFacts(linked) : new Map<number, AlertIssueFacts>();
  const latest = new Map<number, Promise<string | null>>();
  const at = now.toISOString();
  // A new issue with one event: first seen now, seen once, nobody assigned.
  const issueFacts: IssueFacts = { firstSeen: at, timesSeen: 1, assigneeId: null, assigneeTeamId: null };
  const rows: NewNotification[] = [];
  for (const w of fresh) {
    const projectId = w.row.projectId;
    const rules = rulesByProject.get(projectId);
    if (!rules) continue;
    const info = infos.get(projectId)!;
    const f = factsOf(w);
    const lookups: Lookups = {
      // One event by one user: more than N only for N = 0.
      frequency: async (c) => (c.id === EVENT_FREQUENCY || c.id === USER_FREQUENCY) && 1 > c.value,
      latestRelease: () => {
        let answer = latest.get(projectId);
        if (!answer) latest.set(projectId, (answer = tx.latestRelease(projectId)));
        return answer;
      },
    };
    for (const rule of rules) {
      if (rule.environment !== null && f.environment !== rule.environment) continue;
      if (!(await rulePasses(rule, f.facts, issueFacts, false, now, lookups))) continue;
      const body = payload(rule, info, w, f, w.issueId !== null ? issues.get(w.issueId) : undefined, links);
      // The feedback is the rule's issue (issueId null): an e-mail to the issue's owners finds none and falls through
      // (Sentry's new feedback issue is unassigned too). The associated issue is named in the payload.
      rows.push(...actionRows(rule, { organizationId: info.organization.id, projectId, issueId: null, payload: body, createdAt: at }, `feedback:${w.id}`));
    }
  }
  return rows.length > 0 ? tx.enqueueNotifications(rows) : 0;
}
