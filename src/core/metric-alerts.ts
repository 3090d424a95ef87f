// Metric alerts of an organization (issue 17): rules on one project or all, in Sentry's alert-rule shape, read with
// alert:read and changed with alert:write (core/permissions.ts). Every entry point (API, server actions, pages) goes
// through these functions, which check access and validate the input.
import { z } from "zod";
import { METRIC_ALERT_LIMITS } from "../config/limits";
import type { MetricAlertChange, MetricAlertInput, MetricAlertRule } from "../storage/metric-alert-ports";
import { type OrgAccess, requireId, requireOrg } from "./access";
import { audit } from "./audit";
import type { CoreContext } from "./context";
import { canWriteAlerts } from "./alert-rules";
import { AppError, forbidden, notFound } from "./errors";
import { actionSchema, checkActions } from "./metric-alert-actions";
import { type MetricDataset, normalizeDataset, parseAggregate, parseMetricQuery, THRESHOLD_ABOVE, type ThresholdType } from "./metric-alert-defs";
import { parseInput } from "./schemas";

const L = METRIC_ALERT_LIMITS;
/** Thresholds are counts, milliseconds, percentages or ratios: anything beyond this is a mistake, not a threshold. */
const MAX_THRESHOLD = 1e12;

/** A number, or a numeric string as HTML forms send it. */
const numeric = (what: string) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d+(\.\d+)?$/, `${what} must be a number`)
          .transform(Number),
      ],
      { error: `${what} must be a number` },
    )
    .pipe(z.number().finite().min(-MAX_THRESHOLD, `${what} is out of range`).max(MAX_THRESHOLD, `${what} is out of range`));
const optionalNumeric = (what: string) => z.union([z.null(), z.literal("").transform(() => null), numeric(what)]).optional();

const inputSchema = z.object({
  name: z.string({ error: "Enter a name" }).trim().min(1, "Enter a name").max(L.maxNameLength, `At most ${L.maxNameLength} characters`),
  aggregate: z.string({ error: "Choose what to measure" }).max(200),
  dataset: z.string().max(40).optional(),
  query: z.string().max(L.maxQueryLength, `At most ${L.maxQueryLength} characters`).optional(),
  environment: z.union([z.null(), z.string().trim().max(64, "At most 64 characters")]).optional(),
  timeWindow: numeric("The time window").refine(
    (n) => (L.timeWindowsMinutes as readonly number[]).includes(n),
    `The time window must be one of ${L.timeWindowsMinutes.join(", ")} minutes`,
  ),
  thresholdType: z.union([z.literal(0), z.literal(1), z.literal("0").transform(() => 0 as const), z.literal("1").transform(() => 1 as const)], {
    error: "thresholdType is 0 (above) or 1 (below)",
  }),
  resolveThreshold: optionalNumeric("The resolve threshold"),
  projects: z.array(z.string().max(100)).max(1, "A metric alert watches one project, or all of them (no projects)").optional(),
  triggers: z
    .array(
      z.object({
        label: z.enum(["critical", "warning"], { error: "A trigger's label is critical or warning" }),
        alertThreshold: numeric("The threshold"),
        actions: z.array(actionSchema).max(L.maxActionsPerTrigger, `At most ${L.maxActionsPerTrigger} actions`).default([]),
      }),
    )
    .min(1, "Add a critical trigger")
    .max(2, "A critical and a warning trigger at most"),
});

/** The rule as the editor and the API's PUT start from: the stored rule in the input's shape. */
export function ruleAsInput(rule: MetricAlertRule): Record<string, unknown> {
  return {
    name: rule.name,
    aggregate: rule.aggregate,
    dataset: rule.dataset,
    query: rule.query,
    environment: rule.environment,
    timeWindow: rule.timeWindow,
    thresholdType: rule.thresholdType,
    resolveThreshold: rule.resolveThreshold,
    projects: rule.project ? [rule.project.slug] : [],
    triggers: rule.triggers,
  };
}

function bad(field: string, message: string): AppError {
  return new AppError("bad_request", `${field}: ${message}`, { [field]: [message] }, true);
}

/** The range a threshold of this aggregate can take (percent for crash-free rates, a ratio for failure rate and Apdex). */
function thresholdRange(kind: string): [number, number] {
  if (kind === "crash_free_sessions" || kind === "crash_free_users") return [0, 100];
  if (kind === "failure_rate" || kind === "apdex") return [0, 1];
  return [0, MAX_THRESHOLD];
}

async function validate(ctx: CoreContext, access: OrgAccess, raw: unknown): Promise<MetricAlertInput> {
  const input = parseInput(inputSchema, raw);
  const parsed = parseAggregate(input.aggregate);
  if (!parsed)
    throw bad(
      "aggregate",
      "Not an aggregate Faultline can alert on (count(), count_unique(user), crash-free rates, p50/p75/p95(transaction.duration), failure_rate(), apdex(T))",
    );
  let dataset: MetricDataset = parsed.dataset;
  if (input.dataset !== undefined && input.dataset !== "") {
    const given = normalizeDataset(input.dataset);
    if (given === null) throw bad("dataset", "Unknown dataset");
    if (given !== parsed.dataset) throw bad("dataset", `${parsed.aggregate} reads the ${parsed.dataset} dataset`);
    dataset = given;
  }
  const query = (input.query ?? "").trim();
  const filters = parseMetricQuery(query, dataset);
  if (typeof filters === "string") throw bad("query", filters);
  const environment = input.environment ? input.environment : null;
  if (parsed.kind.kind === "users" && (environment !== null || filters.length > 0)) {
    throw bad("environment", "count_unique(user) cannot be narrowed by environment or query: users are counted per issue, not per event");
  }
  let projectId: number | null = null;
  const slug = input.projects?.[0];
  if (slug) {
    const project = await ctx.store.getProjectBySlug(access.org.id, slug);
    if (!project) throw bad("projects", `No project ${slug} in this organization`);
    projectId = project.id;
  }
  const labels = input.triggers.map((t) => t.label);
  if (!labels.includes("critical")) throw bad("triggers", "Add a critical trigger");
  if (new Set(labels).size !== labels.length) throw bad("triggers", "One critical and at most one warning trigger");
  const thresholdType = input.thresholdType as ThresholdType;
  const above = thresholdType === THRESHOLD_ABOVE;
  const [min, max] = thresholdRange(parsed.kind.kind);
  const critical = input.triggers.find((t) => t.label === "critical")!.alertThreshold;
  const warning = input.triggers.find((t) => t.label === "warning")?.alertThreshold;
  for (const [i, t] of input.triggers.entries())
    if (t.alertThreshold < min || t.alertThreshold > max) throw bad(`triggers.${i}.alertThreshold`, `Between ${min} and ${max} for ${parsed.aggregate}`);
  if (warning !== undefined && (above ? warning >= critical : warning <= critical)) {
    throw bad(
      "triggers",
      above ? "The critical threshold must be higher than the warning threshold" : "The critical threshold must be lower than the warning threshold",
    );
  }
  const resolveThreshold = input.resolveThreshold ?? null;
  if (resolveThreshold !== null) {
    const lowest = warning ?? critical;
    if (above ? resolveThreshold >= lowest : resolveThreshold <= lowest) {
      throw bad(
        "resolveThreshold",
        above ? "The resolve threshold must be lower than the alert thresholds" : "The resolve threshold must be higher than the alert thresholds",
      );
    }
  }
  const ordered = [...input.triggers].sort((a, b) => (a.label === b.label ? 0 : a.label === "critical" ? -1 : 1));
  const actions = await checkActions(ctx.store, access.org.id, ordered);
  return {
    projectId,
    name: input.name,
    aggregate: parsed.aggregate,
    dataset,
    query,
    environment,
    timeWindow: input.timeWindow,
    thresholdType,
    resolveThreshold,
    triggers: ordered.map((t, i) => ({ label: t.label, alertThreshold: t.alertThreshold, actions: actions[i]! })),
  };
}

/** alert:write; members too when the organization lets them (a setting this branch's schema does not have yet: off). */
/** Admins and owners; members too where the organization lets them (the setting issue alert rules share). */
async function requireAlertWrite(ctx: CoreContext, orgSlug: string): Promise<OrgAccess> {
  const access = await requireOrg(ctx, orgSlug, "alert:read");
  if (!(await canWriteAlerts(ctx, access))) throw forbidden();
  return access;
}

export async function listMetricAlerts(ctx: CoreContext, orgSlug: string): Promise<MetricAlertRule[]> {
  const { org } = await requireOrg(ctx, orgSlug, "alert:read");
  return ctx.store.listMetricAlerts(org.id);
}

export async function getMetricAlert(ctx: CoreContext, orgSlug: string, id: unknown): Promise<MetricAlertRule> {
  const { org } = await requireOrg(ctx, orgSlug, "alert:read");
  const rule = await ctx.store.getMetricAlert(org.id, requireId(id, "Alert rule"));
  if (!rule) throw notFound("Alert rule");
  return rule;
}

export async function createMetricAlert(ctx: CoreContext, orgSlug: string, raw: unknown): Promise<MetricAlertRule> {
  const access = await requireAlertWrite(ctx, orgSlug);
  const input = await validate(ctx, access, raw);
  if ((await ctx.store.countMetricAlerts(access.org.id)) >= L.maxRulesPerOrganization) {
    throw new AppError("bad_request", `An organization has at most ${L.maxRulesPerOrganization} metric alerts`);
  }
  const createdBy = "user" in ctx.actor ? ctx.actor.user.id : null;
  const rule = await ctx.store.createMetricAlert(access.org.id, input, createdBy, new Date().toISOString());
  await audit(ctx, {
    organizationId: access.org.id,
    event: "alertrule.create",
    target: rule.id,
    note: `created the metric alert ${rule.name}`,
    data: { new: ruleAsInput(rule) },
  });
  return rule;
}

/** Sentry's PUT: the fields given replace the rule's; those left out keep their values. */
export async function updateMetricAlert(ctx: CoreContext, orgSlug: string, id: unknown, raw: unknown): Promise<MetricAlertRule> {
  const access = await requireAlertWrite(ctx, orgSlug);
  const ruleId = requireId(id, "Alert rule");
  const current = await ctx.store.getMetricAlert(access.org.id, ruleId);
  if (!current) throw notFound("Alert rule");
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new AppError("bad_request", "Request body must be a JSON object");
  const merged = { ...ruleAsInput(current), ...(raw as Record<string, unknown>) };
  // A new aggregate may read another dataset: the old one is not carried over unless given.
  if ("aggregate" in (raw as object) && !("dataset" in (raw as object))) delete merged.dataset;
  const input = await validate(ctx, access, merged);
  const rule = await ctx.store.updateMetricAlert(access.org.id, ruleId, input, new Date().toISOString());
  if (!rule) throw notFound("Alert rule");
  await audit(ctx, {
    organizationId: access.org.id,
    event: "alertrule.edit",
    target: rule.id,
    note: `changed the metric alert ${rule.name}`,
    data: { old: ruleAsInput(current), new: ruleAsInput(rule) },
  });
  return rule;
}

export async function deleteMetricAlert(ctx: CoreContext, orgSlug: string, id: unknown): Promise<void> {
  const access = await requireAlertWrite(ctx, orgSlug);
  const ruleId = requireId(id, "Alert rule");
  const current = await ctx.store.getMetricAlert(access.org.id, ruleId);
  if (!current || !(await ctx.store.deleteMetricAlert(access.org.id, ruleId))) throw notFound("Alert rule");
  await audit(ctx, {
    organizationId: access.org.id,
    event: "alertrule.remove",
    target: ruleId,
    note: `deleted the metric alert ${current.name}`,
    data: { old: ruleAsInput(current) },
  });
}

export type MetricAlertDetail = { rule: MetricAlertRule; history: MetricAlertChange[]; values: { minute: string; value: number | null }[]; canWrite: boolean };

/** A rule's page: the rule, its state changes (newest first) and the values of the last 24 hours (oldest first). */
export async function metricAlertDetail(ctx: CoreContext, orgSlug: string, id: unknown, now = Date.now()): Promise<MetricAlertDetail> {
  const access = await requireOrg(ctx, orgSlug, "alert:read");
  const rule = await ctx.store.getMetricAlert(access.org.id, requireId(id, "Alert rule"));
  if (!rule) throw notFound("Alert rule");
  const [history, values] = await Promise.all([
    ctx.store.listMetricAlertHistory(rule.id, L.historyShown),
    ctx.store.listMetricAlertValues(rule.id, new Date(now - 24 * 3_600_000).toISOString()),
  ]);
  return { rule, history, values, canWrite: await canWriteAlerts(ctx, access) };
}
