// The pure part of issue alert rules: whether each condition and filter passes for one event of an issue, as Sentry's
// rule classes decide (sentry/rules/conditions/*.py, sentry/rules/filters/*.py; core/alert-rule-schema.ts names them).
// Counting events and users in an interval needs the database: the caller passes those answers in (alerts.ts).
import {
  AGE_FILTER,
  AGE_UNITS,
  ASSIGNED_FILTER,
  EVENT_FREQUENCY,
  FIRST_SEEN,
  ISSUE_CATEGORY_FILTER,
  type IssueCategory,
  LATEST_RELEASE_FILTER,
  LEVEL_FILTER,
  OCCURRENCES_FILTER,
  REAPPEARED,
  REGRESSION,
  TAGGED_FILTER,
  USER_FREQUENCY,
  type FrequencyCondition,
  type RuleCondition,
  type RuleFilter,
  type TagMatch,
} from "../core/alert-rule-schema";
import type { AlertRule } from "../storage/alert-ports";
import type { IssueTrigger } from "../storage/notification-ports";

/** One event of the batch and what the batch did to its issue. */
export type EventFacts = {
  level: string;
  release: string | null;
  tags: [string, string][];
  /** The issue was created by this event (Sentry's state.is_new). */
  isNew: boolean;
  /** The issue regressed because of this event (state.is_regression). */
  isRegression: boolean;
  /** The ignored issue came back with this event (state.has_reappeared / has_escalated). */
  hasReappeared: boolean;
  /** The issue's category (sentry GroupCategory): 1 errors, 4 monitor failures, 6 user feedback. */
  category: IssueCategory;
};

export type IssueFacts = { firstSeen: string; timesSeen: number; assigneeId: string | null; assigneeTeamId: number | null };

/** Answers the caller computed: a frequency condition passes (its count is above its value), and the latest release. */
export type Lookups = { frequency: (c: FrequencyCondition) => Promise<boolean>; latestRelease: () => Promise<string | null> };

const LEVEL_RANK: Record<string, number> = { debug: 10, info: 20, warning: 30, error: 40, fatal: 50 };

export function conditionTrigger(c: RuleCondition): IssueTrigger {
  switch (c.id) {
    case FIRST_SEEN:
      return "first_seen";
    case REGRESSION:
      return "regression";
    case REAPPEARED:
      return "reappeared";
    case EVENT_FREQUENCY:
      return "event_frequency";
    case USER_FREQUENCY:
      return "user_frequency";
  }
}

/** Whether a condition passes for this event; a "first time only" one that fired for the issue before never does. */
export async function conditionPasses(c: RuleCondition, e: EventFacts, firedOnce: boolean, lookups: Lookups): Promise<boolean> {
  switch (c.id) {
    case FIRST_SEEN:
      return e.isNew;
    case REGRESSION:
      return e.isRegression;
    case REAPPEARED:
      return e.hasReappeared;
    case EVENT_FREQUENCY:
    case USER_FREQUENCY:
      if (c.firstTimeOnly && firedOnce) return false;
      return lookups.frequency(c);
    default:
      return false;
  }
}

/** sentry/rules/filters/tagged_event.py: keys and values compared in lower case; a missing tag passes only "not set". */
export function tagMatches(tags: [string, string][], key: string, match: TagMatch, value: string): boolean {
  const k = key.toLowerCase();
  const values = tags.filter(([tk]) => tk.toLowerCase() === k || (k === "release" && tk === "sentry:release")).map(([, v]) => v.toLowerCase());
  if (match === "is") return values.length > 0;
  if (match === "ns") return values.length === 0;
  if (values.length === 0) return false;
  const want = value.toLowerCase();
  const list = want.split(",").map((s) => s.trim());
  switch (match) {
    case "eq":
      return values.includes(want);
    case "ne":
      return !values.includes(want);
    case "sw":
      return values.some((v) => v.startsWith(want));
    case "nsw":
      return !values.some((v) => v.startsWith(want));
    case "ew":
      return values.some((v) => v.endsWith(want));
    case "new":
      return !values.some((v) => v.endsWith(want));
    case "co":
      return values.some((v) => v.includes(want));
    case "nc":
      return !values.some((v) => v.includes(want));
    case "in":
      return values.some((v) => list.includes(v));
    case "nin":
      return !values.some((v) => list.includes(v));
  }
}

export async function filterPasses(f: RuleFilter, e: EventFacts, issue: IssueFacts, now: Date, lookups: Lookups): Promise<boolean> {
  switch (f.id) {
    case LEVEL_FILTER: {
      // sentry/rules/filters/level.py: the event's level against the chosen one, by LOG_LEVELS' numbers.
      const rank = LEVEL_RANK[e.level.toLowerCase()];
      if (rank === undefined) return false;
      const want = Number(f.level);
      return f.match === "eq" ? rank === want : f.match === "gte" ? rank >= want : rank <= want;
    }
    case TAGGED_FILTER:
      return tagMatches(e.tags, f.key, f.match, f.value);
    case LATEST_RELEASE_FILTER: {
      if (e.release === null) return false;
      return e.release === (await lookups.latestRelease());
    }
    case AGE_FILTER: {
      // sentry/rules/filters/age_comparison.py: older passes when first_seen < now − value·time, newer when after.
      const cutoff = now.getTime() - f.value * AGE_UNITS[f.time];
      const first = Date.parse(issue.firstSeen);
      return f.comparison_type === "older" ? first < cutoff : first > cutoff;
    }
    case OCCURRENCES_FILTER:
      // sentry/rules/filters/issue_occurrences.py: times_seen >= value.
      return issue.timesSeen >= f.value;
    case ASSIGNED_FILTER:
      if (f.targetType === "Unassigned") return issue.assigneeId === null && issue.assigneeTeamId === null;
      if (f.targetType === "Member") return issue.assigneeId !== null && issue.assigneeId === f.targetIdentifier;
      return issue.assigneeTeamId !== null && String(issue.assigneeTeamId) === f.targetIdentifier;
    case ISSUE_CATEGORY_FILTER:
      // sentry/rules/filters/issue_category.py: the group's issue_category equals the chosen GroupCategory.
      return e.category === f.value;
    default:
      return false;
  }
}

/** Sentry's matching of a list: all, any, or (filters) none; an empty list passes. */
export async function matchList<T>(items: T[], mode: "all" | "any" | "none", passes: (item: T) => Promise<boolean>): Promise<boolean> {
  if (items.length === 0) return true;
  if (mode === "all") {
    for (const item of items) if (!(await passes(item))) return false;
    return true;
  }
  let some = false;
  for (const item of items) {
    if (await passes(item)) {
      some = true;
      break;
    }
  }
  return mode === "any" ? some : !some;
}

/**
 * Whether a rule fires for one event: its conditions as its actionMatch asks, then its filters as its filterMatch
 * asks (the rule's environment is the caller's to check). Returns the conditions that passed, in the rule's order
 * (the first names the trigger), or null.
 */
export async function rulePasses(
  rule: Pick<AlertRule, "conditions" | "actionMatch" | "filters" | "filterMatch">,
  e: EventFacts,
  issue: IssueFacts,
  firedOnce: boolean,
  now: Date,
  lookups: Lookups,
): Promise<RuleCondition[] | null> {
  const passed: RuleCondition[] = [];
  for (const c of rule.conditions) {
    if (await conditionPasses(c, e, firedOnce, lookups)) passed.push(c);
    else if (rule.actionMatch === "all") break;
  }
  if (rule.actionMatch === "all" ? passed.length !== rule.conditions.length : passed.length === 0) return null;
  return (await matchList(rule.filters, rule.filterMatch, (f) => filterPasses(f, e, issue, now, lookups))) ? passed : null;
}
