// Issue alert rules as Sentry's API takes them (sentry/api/serializers/rest_framework/rule.py RuleSerializer:
// name max 256, environment max 64, actionMatch all|any, filterMatch all|any|none, frequency 5–43,200 minutes,
// conditions, filters and actions as lists of nodes named by their class path). The nodes Faultline evaluates, with
// the fields of Sentry's forms:
// - sentry/rules/conditions/first_seen_event.py, regression_event.py, reappeared_event.py: no fields;
// - sentry/rules/conditions/event_frequency.py EventFrequencyCondition, EventUniqueUserFrequencyCondition:
//   `value`, `interval` (STANDARD_INTERVALS 1m 5m 15m 1h 1d 1w 30d), `comparisonType` "count" (Sentry's "percent"
//   compares with an earlier window, which Faultline does not offer); plus Faultline's `firstTimeOnly`: fire once ever
//   per issue, the first time the threshold is passed (what getsentry/sentry#111828 asks for);
// - sentry/rules/filters/level.py LevelFilter: `match` eq|gte|lte, `level` one of LOG_LEVELS' numbers as a string;
// - sentry/rules/filters/tagged_event.py TaggedEventFilter: `key`, `match` (sentry/rules/match.py MatchType), `value`;
//   the event's release is its tag "release" (Sentry standardizes sentry:release to it), so "a given release" is
//   this filter with key release;
// - sentry/rules/filters/latest_release.py LatestReleaseFilter: no fields;
// - sentry/rules/filters/age_comparison.py AgeComparisonFilter: `comparison_type` older|newer, `value`, `time`;
// - sentry/rules/filters/issue_occurrences.py IssueOccurrencesFilter: `value`;
// - sentry/rules/filters/assigned_to.py AssignedToFilter: `targetType` Unassigned|Team|Member, `targetIdentifier`;
// - sentry/rules/filters/issue_category.py IssueCategoryFilter: `value`, the number of a sentry GroupCategory (ERROR 1,
//   PERFORMANCE 2, PROFILE 3, CRON 4, REPLAY 5, FEEDBACK 6, UPTIME 7, METRIC_ALERT 8), as a string (Sentry's form posts
//   the string of the number; a number is taken too). Faultline's issues are of three of them: errors (1), monitor
//   failures (4, core/monitor-failure.ts) and user feedback (6, digest/feedback-alerts.ts); the others are refused;
// - actions: storage/notification-ports.ts NotificationAction (sentry/mail/actions.py NotifyEmailAction with
//   targetType and fallthroughType; webhook-like actions carry their URL).
import { z } from "zod";
import { ALERT_RULE_LIMITS as L } from "../config/limits";
import { DISCORD_ACTION, EMAIL_ACTION, SLACK_ACTION, TEAMS_ACTION, WEBHOOK_ACTION } from "../storage/notification-ports";
import { AppError } from "./errors";
import { parseInput } from "./schemas";

export const FIRST_SEEN = "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition";
export const REGRESSION = "sentry.rules.conditions.regression_event.RegressionEventCondition";
export const REAPPEARED = "sentry.rules.conditions.reappeared_event.ReappearedEventCondition";
export const EVENT_FREQUENCY = "sentry.rules.conditions.event_frequency.EventFrequencyCondition";
export const USER_FREQUENCY = "sentry.rules.conditions.event_frequency.EventUniqueUserFrequencyCondition";
export const LEVEL_FILTER = "sentry.rules.filters.level.LevelFilter";
export const TAGGED_FILTER = "sentry.rules.filters.tagged_event.TaggedEventFilter";
export const LATEST_RELEASE_FILTER = "sentry.rules.filters.latest_release.LatestReleaseFilter";
export const AGE_FILTER = "sentry.rules.filters.age_comparison.AgeComparisonFilter";
export const OCCURRENCES_FILTER = "sentry.rules.filters.issue_occurrences.IssueOccurrencesFilter";
export const ASSIGNED_FILTER = "sentry.rules.filters.assigned_to.AssignedToFilter";
export const ISSUE_CATEGORY_FILTER = "sentry.rules.filters.issue_category.IssueCategoryFilter";

/** sentry/rules/conditions/event_frequency.py STANDARD_INTERVALS, in milliseconds. */
export const INTERVALS = { "1m": 60_000, "5m": 300_000, "15m": 900_000, "1h": 3_600_000, "1d": 86_400_000, "1w": 604_800_000, "30d": 2_592_000_000 } as const;
export type Interval = keyof typeof INTERVALS;
/** sentry/constants.py LOG_LEVELS: the numbers LevelFilter's `level` names. */
export const LEVELS = { "10": "debug", "20": "info", "30": "warning", "40": "error", "50": "fatal" } as const;
export type LevelNumber = keyof typeof LEVELS;
/** sentry/rules/match.py MatchType, as TaggedEventFilter offers it. */
export const TAG_MATCHES = ["eq", "ne", "sw", "nsw", "ew", "new", "co", "nc", "is", "ns", "in", "nin"] as const;
export type TagMatch = (typeof TAG_MATCHES)[number];
/** sentry GroupCategory numbers of the issues Faultline has (sentry/issues/grouptype.py), with their names. */
export const ISSUE_CATEGORIES = { "1": "error", "4": "cron", "6": "feedback" } as const;
export type IssueCategory = keyof typeof ISSUE_CATEGORIES;
/** Sentry's other categories: valid there, but no Faultline issue is of them, so a filter on them could never pass. */
const OTHER_CATEGORIES: Record<string, string> = { "2": "performance", "3": "profile", "5": "replay", "7": "uptime", "8": "metric alert" };
/** sentry/rules/filters/age_comparison.py timeranges, in milliseconds. */
export const AGE_UNITS = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 } as const;

export type FrequencyCondition = {
  id: typeof EVENT_FREQUENCY | typeof USER_FREQUENCY;
  value: number;
  interval: Interval;
  comparisonType: "count";
  firstTimeOnly: boolean;
};
export type RuleCondition = { id: typeof FIRST_SEEN } | { id: typeof REGRESSION } | { id: typeof REAPPEARED } | FrequencyCondition;
export type RuleFilter =
  | { id: typeof LEVEL_FILTER; match: "eq" | "gte" | "lte"; level: LevelNumber }
  | { id: typeof TAGGED_FILTER; key: string; match: TagMatch; value: string }
  | { id: typeof LATEST_RELEASE_FILTER }
  | { id: typeof AGE_FILTER; comparison_type: "older" | "newer"; value: number; time: keyof typeof AGE_UNITS }
  | { id: typeof OCCURRENCES_FILTER; value: number }
  | { id: typeof ASSIGNED_FILTER; targetType: "Unassigned" | "Team" | "Member"; targetIdentifier: string | null }
  | { id: typeof ISSUE_CATEGORY_FILTER; value: IssueCategory };
export type RuleAction =
  | {
      id: typeof EMAIL_ACTION;
      targetType: "IssueOwners" | "Team" | "Member";
      targetIdentifier: string | null;
      fallthroughType?: "ActiveMembers" | "AllMembers" | "NoOne";
    }
  | { id: typeof WEBHOOK_ACTION; service: "webhooks"; url: string }
  | { id: typeof SLACK_ACTION | typeof DISCORD_ACTION | typeof TEAMS_ACTION; webhookUrl: string };

export type MatchAll = "all" | "any";
export type FilterMatch = "all" | "any" | "none";

/** A rule as the core and the store hold it. */
export type RuleInput = {
  name: string;
  environment: string | null;
  actionMatch: MatchAll;
  filterMatch: FilterMatch;
  frequency: number;
  conditions: RuleCondition[];
  filters: RuleFilter[];
  actions: RuleAction[];
  status: "active" | "disabled";
};

/** A string without NUL characters (PostgreSQL's text cannot hold them) and within `max` characters. */
const text = (max: number, what: string) =>
  z
    .string({ error: `${what} must be text` })
    .max(max, `${what}: at most ${max} characters`)
    .refine((s) => !s.includes("\u0000"), `${what} must not contain NUL characters`);

/** A whole number from 0 to `max`, given as a number or as digits (Sentry's forms post strings). */
const count = (max: number, what: string) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .max(12)
          .regex(/^\s*\d+\s*$/, `${what} must be a whole number`)
          .transform(Number),
      ],
      { error: `${what} must be a whole number` },
    )
    .pipe(z.number().int(`${what} must be a whole number`).min(0, `${what} must be 0 or more`).max(max, `${what}: at most ${max}`));

const frequencyCondition = (id: typeof EVENT_FREQUENCY | typeof USER_FREQUENCY) =>
  z.object({
    id: z.literal(id),
    value: count(L.countMax, "value"),
    interval: z.enum(Object.keys(INTERVALS) as [Interval, ...Interval[]], { error: `interval must be one of ${Object.keys(INTERVALS).join(", ")}` }),
    comparisonType: z.literal("count", { error: 'comparisonType: only "count" is supported' }).default("count"),
    firstTimeOnly: z.boolean({ error: "firstTimeOnly must be true or false" }).default(false),
  });

const CONDITIONS: Record<string, z.ZodType<RuleCondition>> = {
  [FIRST_SEEN]: z.object({ id: z.literal(FIRST_SEEN) }),
  [REGRESSION]: z.object({ id: z.literal(REGRESSION) }),
  [REAPPEARED]: z.object({ id: z.literal(REAPPEARED) }),
  [EVENT_FREQUENCY]: frequencyCondition(EVENT_FREQUENCY),
  [USER_FREQUENCY]: frequencyCondition(USER_FREQUENCY),
};

const identifier = z.union([
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).transform(String),
  text(200, "targetIdentifier").pipe(z.string().trim().min(1, "targetIdentifier is required")),
]);

const FILTERS: Record<string, z.ZodType<RuleFilter>> = {
  [LEVEL_FILTER]: z.object({
    id: z.literal(LEVEL_FILTER),
    match: z.enum(["eq", "gte", "lte"], { error: "match must be eq, gte or lte" }),
    level: z
      .union([z.number().transform(String), z.string()])
      .pipe(z.enum(Object.keys(LEVELS) as [LevelNumber, ...LevelNumber[]], { error: `level must be one of ${Object.keys(LEVELS).join(", ")}` })),
  }),
  [TAGGED_FILTER]: z
    .object({
      id: z.literal(TAGGED_FILTER),
      key: text(L.tagKeyMaxLength, "key").pipe(z.string().trim().min(1, "key is required")),
      match: z.enum(TAG_MATCHES, { error: `match must be one of ${TAG_MATCHES.join(", ")}` }),
      value: text(L.tagValueMaxLength, "value").default(""),
    })
    .refine((f) => f.match === "is" || f.match === "ns" || f.value !== "", { message: "value is required for this match", path: ["value"] }),
  [LATEST_RELEASE_FILTER]: z.object({ id: z.literal(LATEST_RELEASE_FILTER) }),
  [AGE_FILTER]: z.object({
    id: z.literal(AGE_FILTER),
    comparison_type: z.enum(["older", "newer"], { error: "comparison_type must be older or newer" }),
    value: count(L.ageMax, "value"),
    time: z.enum(["minute", "hour", "day", "week"], { error: "time must be minute, hour, day or week" }),
  }),
  [OCCURRENCES_FILTER]: z.object({ id: z.literal(OCCURRENCES_FILTER), value: count(L.countMax, "value") }),
  [ASSIGNED_FILTER]: z
    .object({
      id: z.literal(ASSIGNED_FILTER),
      targetType: z.enum(["Unassigned", "Team", "Member"], { error: "targetType must be Unassigned, Team or Member" }),
      targetIdentifier: identifier.nullish().transform((v) => v ?? null),
    })
    .refine((f) => f.targetType === "Unassigned" || f.targetIdentifier !== null, {
      message: "targetIdentifier is required for Team and Member",
      path: ["targetIdentifier"],
    }),
  [ISSUE_CATEGORY_FILTER]: z.object({
    id: z.literal(ISSUE_CATEGORY_FILTER),
    value: z
      .union([z.number().int().transform(String), z.string().trim()], { error: "value must be the number of an issue category" })
      .superRefine((v, ctx) => {
        if (Object.hasOwn(ISSUE_CATEGORIES, v)) return;
        const other = Object.hasOwn(OTHER_CATEGORIES, v) ? OTHER_CATEGORIES[v] : undefined;
        const known = Object.entries(ISSUE_CATEGORIES)
          .map(([n, name]) => `${n} (${name})`)
          .join(", ");
        ctx.addIssue({
          code: "custom",
          message: other ? `value: Faultline has no ${other} issues (category ${v}); use ${known}` : `value must be the number of an issue category: ${known}`,
        });
      })
      .transform((v) => v as IssueCategory),
  }),
};

const url = (field: string) => text(L.webhookUrlMaxLength, field).pipe(z.string().trim().min(1, `${field} is required`));

const ACTIONS: Record<string, z.ZodType<RuleAction>> = {
  [EMAIL_ACTION]: z
    .object({
      id: z.literal(EMAIL_ACTION),
      targetType: z.enum(["IssueOwners", "Team", "Member"], { error: "targetType must be IssueOwners, Team or Member" }),
      targetIdentifier: identifier.nullish().transform((v) => v ?? null),
      fallthroughType: z.enum(["ActiveMembers", "AllMembers", "NoOne"], { error: "fallthroughType must be ActiveMembers, AllMembers or NoOne" }).optional(),
    })
    .refine((a) => a.targetType === "IssueOwners" || a.targetIdentifier !== null, {
      message: "targetIdentifier is required for Team and Member",
      path: ["targetIdentifier"],
    })
    .transform((a) =>
      a.targetType === "IssueOwners"
        ? { ...a, targetIdentifier: null, fallthroughType: a.fallthroughType ?? "ActiveMembers" }
        : { id: a.id, targetType: a.targetType, targetIdentifier: a.targetIdentifier },
    ),
  [WEBHOOK_ACTION]: z.object({
    id: z.literal(WEBHOOK_ACTION),
    service: z.literal("webhooks", { error: 'service must be "webhooks"' }).default("webhooks"),
    url: url("url"),
  }),
  [SLACK_ACTION]: z.object({ id: z.literal(SLACK_ACTION), webhookUrl: url("webhookUrl") }),
  [DISCORD_ACTION]: z.object({ id: z.literal(DISCORD_ACTION), webhookUrl: url("webhookUrl") }),
  [TEAMS_ACTION]: z.object({ id: z.literal(TEAMS_ACTION), webhookUrl: url("webhookUrl") }),
};

export const CONDITION_IDS = Object.keys(CONDITIONS);
export const FILTER_IDS = Object.keys(FILTERS);
export const ACTION_IDS = Object.keys(ACTIONS);

/** Each node parsed by the schema of its id; an unknown id is a 400 that names it (as Sentry's RuleNodeField). */
function nodes<T>(list: unknown, field: string, known: Record<string, z.ZodType<T>>): T[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new AppError("bad_request", `${field} must be a list`, { [field]: ["must be a list"] }, true);
  if (list.length > L.nodesPerList) throw new AppError("bad_request", `${field}: at most ${L.nodesPerList}`, { [field]: [`at most ${L.nodesPerList}`] }, true);
  return list.map((node, i) => {
    const id = typeof node === "object" && node !== null && !Array.isArray(node) ? (node as { id?: unknown }).id : undefined;
    if (typeof id !== "string") throw new AppError("bad_request", `${field}.${i}: each node needs an id`, { [`${field}.${i}.id`]: ["required"] }, true);
    const schema = Object.hasOwn(known, id) ? known[id] : undefined;
    if (!schema)
      throw new AppError(
        "bad_request",
        `${field}.${i}: unknown id ${JSON.stringify(id.slice(0, 200))}`,
        { [`${field}.${i}.id`]: [`unknown id ${id.slice(0, 200)}`] },
        true,
      );
    try {
      return parseInput(schema, node);
    } catch (err) {
      const e = err as AppError;
      const fields = Object.fromEntries(Object.entries(e.fields ?? {}).map(([k, v]) => [`${field}.${i}.${k}`, v]));
      throw new AppError("bad_request", `${field}.${i} (${id}): ${e.message}`, fields, true);
    }
  });
}

const ruleSchema = z.object({
  name: text(L.nameMaxLength, "name").pipe(z.string().trim().min(1, "Enter a name")),
  environment: text(L.environmentMaxLength, "environment")
    .nullish()
    .transform((v) => (v === undefined || v === null || v.trim() === "" ? null : v.trim())),
  actionMatch: z.enum(["all", "any"], { error: "actionMatch must be all or any" }),
  filterMatch: z.enum(["all", "any", "none"], { error: "filterMatch must be all, any or none" }).default("all"),
  frequency: count(L.frequencyMax, "frequency")
    .pipe(z.number().min(L.frequencyMin, `frequency must be from ${L.frequencyMin} to ${L.frequencyMax} minutes`))
    .default(L.frequencyDefault),
  status: z.enum(["active", "disabled"], { error: "status must be active or disabled" }).default("active"),
});

/**
 * A rule from the API or a form (Sentry's field names). Sentry requires at least one action ("You must add an action
 * for this alert to fire"); Faultline also requires a condition, since a rule without one could never fire.
 */
export function parseRule(input: unknown): RuleInput {
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw new AppError("bad_request", "A rule must be a JSON object");
  const body = input as Record<string, unknown>;
  const head = parseInput(ruleSchema, body);
  const conditions = nodes(body.conditions, "conditions", CONDITIONS);
  const filters = nodes(body.filters, "filters", FILTERS);
  const actions = nodes(body.actions, "actions", ACTIONS);
  if (conditions.length === 0)
    throw new AppError("bad_request", "conditions: add at least one condition", { conditions: ["Add at least one condition"] }, true);
  if (actions.length === 0)
    throw new AppError(
      "bad_request",
      "actions: You must add an action for this alert to fire.",
      { actions: ["You must add an action for this alert to fire."] },
      true,
    );
  return { ...head, conditions, filters, actions };
}

/** The URLs of a rule's webhook-like actions, with where each sits (for error messages). */
export function actionUrls(actions: RuleAction[]): { field: string; url: string }[] {
  return actions.flatMap((a, i) =>
    "url" in a ? [{ field: `actions.${i}.url`, url: a.url }] : "webhookUrl" in a ? [{ field: `actions.${i}.webhookUrl`, url: a.webhookUrl }] : [],
  );
}
