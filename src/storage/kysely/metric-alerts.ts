// Metric alert rules, their history and values (storage/metric-alert-ports.ts) on SQLite and PostgreSQL. A minute's
// evaluation is claimed by moving the rule's evaluated_minute forward in a conditional UPDATE: on PostgreSQL a second
// process's UPDATE waits for the first's transaction and then finds the minute taken (READ COMMITTED re-reads the
// row), on SQLite writers take turns; so one process alone records a minute and writes its notifications.
import type { Kysely } from "kysely";
import { METRIC_ALERT_LIMITS } from "../../config/limits";
import type { MetricDataset, MetricStatus, ThresholdType } from "../../core/metric-alert-defs";
import type { MetricAlertInput, MetricAlertRule, MetricAlertStore } from "../metric-alert-ports";
import type { Database } from "../schema";
import { notificationOutbox } from "./notification-outbox";
import { metricValue } from "./metric-values";
import type { Ctx } from "./shared";

type Row = {
  id: number;
  organization_id: number;
  project_id: number | null;
  name: string;
  aggregate: string;
  dataset: string;
  query: string;
  environment: string | null;
  time_window: number;
  threshold_type: number;
  resolve_threshold: number | null;
  triggers: string;
  status: string;
  last_value: number | null;
  last_evaluated_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  p_slug: string | null;
  p_name: string | null;
  p_platform: string | null;
};

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

const toRule = (r: Row): MetricAlertRule => ({
  id: r.id,
  organizationId: r.organization_id,
  project: r.project_id !== null && r.p_slug !== null ? { id: r.project_id, slug: r.p_slug, name: r.p_name ?? r.p_slug, platform: r.p_platform } : null,
  name: r.name,
  aggregate: r.aggregate,
  dataset: r.dataset as MetricDataset,
  query: r.query,
  environment: r.environment,
  timeWindow: r.time_window,
  thresholdType: r.threshold_type as ThresholdType,
  resolveThreshold: num(r.resolve_threshold),
  triggers: JSON.parse(r.triggers) as MetricAlertRule["triggers"],
  status: r.status as MetricStatus,
  lastValue: num(r.last_value),
  lastEvaluatedAt: r.last_evaluated_at,
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const columns = (input: MetricAlertInput) => ({
  project_id: input.projectId,
  name: input.name,
  aggregate: input.aggregate,
  dataset: input.dataset,
  query: input.query,
  environment: input.environment,
  time_window: input.timeWindow,
  threshold_type: input.thresholdType,
  resolve_threshold: input.resolveThreshold,
  triggers: JSON.stringify(input.triggers),
});

function selectRules(db: Kysely<Database>) {
  return db
    .selectFrom("metric_alert_rules as r")
    .leftJoin("projects as p", "p.id", "r.project_id")
    .select([
      "r.id",
      "r.organization_id",
      "r.project_id",
      "r.name",
      "r.aggregate",
      "r.dataset",
      "r.query",
      "r.environment",
      "r.time_window",
      "r.threshold_type",
      "r.resolve_threshold",
      "r.triggers",
      "r.status",
      "r.last_value",
      "r.last_evaluated_at",
      "r.created_by",
      "r.created_at",
      "r.updated_at",
      "p.slug as p_slug",
      "p.name as p_name",
      "p.platform as p_platform",
    ]);
}

export function metricAlertStore(ctx: Ctx): MetricAlertStore {
  const { db } = ctx;
  const byId = async (organizationId: number, id: number) => {
    const row = await selectRules(db).where("r.organization_id", "=", organizationId).where("r.id", "=", id).executeTakeFirst();
    return row ? toRule(row as Row) : null;
  };
  return {
    async createMetricAlert(organizationId, input, createdBy, now) {
      const { id } = await db
        .insertInto("metric_alert_rules")
        .values({
          organization_id: organizationId,
          ...columns(input),
          status: "resolved",
          last_value: null,
          last_evaluated_at: null,
          evaluated_minute: null,
          created_by: createdBy,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return (await byId(organizationId, id))!;
    },
    async updateMetricAlert(organizationId, id, input, now) {
      const r = await db
        .updateTable("metric_alert_rules")
        .set({ ...columns(input), updated_at: now })
        .where("organization_id", "=", organizationId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0 ? byId(organizationId, id) : null;
    },
    async deleteMetricAlert(organizationId, id) {
      const r = await db.deleteFrom("metric_alert_rules").where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    getMetricAlert: byId,
    async listMetricAlerts(organizationId) {
      const rows = await selectRules(db).where("r.organization_id", "=", organizationId).orderBy("r.id").execute();
      return rows.map((r) => toRule(r as Row));
    },
    async countMetricAlerts(organizationId) {
      const r = await db
        .selectFrom("metric_alert_rules")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("organization_id", "=", organizationId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async listMetricAlertHistory(ruleId, limit) {
      const rows = await db.selectFrom("metric_alert_history").selectAll().where("rule_id", "=", ruleId).orderBy("id", "desc").limit(limit).execute();
      return rows.map((r) => ({
        id: r.id,
        changedAt: r.changed_at,
        from: r.from_status as MetricStatus,
        to: r.to_status as MetricStatus,
        value: num(r.value),
        threshold: num(r.threshold),
      }));
    },
    async listMetricAlertValues(ruleId, since) {
      const rows = await db
        .selectFrom("metric_alert_values")
        .select(["minute", "value"])
        .where("rule_id", "=", ruleId)
        .where("minute", ">=", since)
        .orderBy("minute")
        .execute();
      return rows.map((r) => ({ minute: r.minute, value: num(r.value) }));
    },
    async listDueMetricAlerts(minute, limit) {
      const rows = await selectRules(db)
        .innerJoin("organizations as o", "o.id", "r.organization_id")
        .select(["o.slug as o_slug", "o.name as o_name"])
        .where((eb) => eb.or([eb("r.evaluated_minute", "is", null), eb("r.evaluated_minute", "<", minute)]))
        .orderBy("r.id")
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...toRule(r as Row), organization: { id: r.organization_id, slug: r.o_slug, name: r.o_name } }));
    },
    computeMetricValue: (query) => metricValue(ctx, query),
    async recordMetricEvaluation(ruleId, minute, value, now, decide) {
      return db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable("metric_alert_rules")
          .set({ evaluated_minute: minute, last_value: value, last_evaluated_at: now })
          .where("id", "=", ruleId)
          .where((eb) => eb.or([eb("evaluated_minute", "is", null), eb("evaluated_minute", "<", minute)]))
          .returning(["id", "organization_id"])
          .executeTakeFirst();
        if (!claimed) return { claimed: false, change: null, notificationsAdded: 0 };
        await trx
          .insertInto("metric_alert_values")
          .values({ rule_id: ruleId, minute, value })
          .onConflict((oc) => oc.columns(["rule_id", "minute"]).doNothing())
          .execute();
        const keepFrom = new Date(Date.parse(minute) - METRIC_ALERT_LIMITS.valuesKeptHours * 3_600_000).toISOString();
        await trx.deleteFrom("metric_alert_values").where("rule_id", "=", ruleId).where("minute", "<", keepFrom).execute();
        const row = await selectRules(trx).where("r.id", "=", ruleId).executeTakeFirstOrThrow();
        const decision = decide(toRule(row as Row));
        if (!decision) return { claimed: true, change: null, notificationsAdded: 0 };
        await trx.updateTable("metric_alert_rules").set({ status: decision.status }).where("id", "=", ruleId).execute();
        const c = decision.change;
        await trx
          .insertInto("metric_alert_history")
          .values({ rule_id: ruleId, changed_at: c.changedAt, from_status: c.from, to_status: c.to, value: c.value, threshold: c.threshold })
          .execute();
        const added = decision.notifications.length > 0 ? await notificationOutbox(trx).enqueueNotifications(decision.notifications) : 0;
        return { claimed: true, change: c, notificationsAdded: added };
      });
    },
  };
}
