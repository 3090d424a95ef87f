// Metric alerts (issue 17): thresholds on the counters Faultline keeps, evaluated every minute per organization, on
// one project or all. A rule holds its triggers (critical and warning, each with its threshold and actions) as JSON,
// its current state and the minute it was last evaluated, which is also the claim that lets one process alone
// evaluate a minute (storage/kysely/metric-alerts.ts). Its history keeps every state change; its values, the metric
// as each evaluation saw it, for the chart (pruned after METRIC_ALERT_LIMITS.valuesKeptHours).
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function metricAlerts(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("metric_alert_rules")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        // One project, or null for every project of the organization.
        .addColumn("project_id", "integer", (c) => c.references("projects.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        // Sentry's aggregate string: count(), count_unique(user), p95(transaction.duration), failure_rate(), ...
        .addColumn("aggregate", "text", (c) => c.notNull())
        // events, transactions or sessions (what the aggregate reads).
        .addColumn("dataset", "text", (c) => c.notNull())
        // Sentry's search syntax, the few keys core/metric-alert-query.ts knows; "" for none.
        .addColumn("query", "text", (c) => c.notNull())
        .addColumn("environment", "text")
        // Minutes.
        .addColumn("time_window", "integer", (c) => c.notNull())
        // Sentry's AlertRuleThresholdType: 0 above, 1 below.
        .addColumn("threshold_type", "integer", (c) => c.notNull())
        .addColumn("resolve_threshold", "real")
        // JSON: [{label: "critical"|"warning", alertThreshold, actions: NotificationAction[]}].
        .addColumn("triggers", "text", (c) => c.notNull())
        // resolved, warning or critical.
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("last_value", "real")
        .addColumn("last_evaluated_at", "text")
        // The UTC minute (ISO) last evaluated: a process claims a minute by moving it forward.
        .addColumn("evaluated_minute", "text")
        .addColumn("created_by", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("metric_alert_rules_org_idx").on("metric_alert_rules").columns(["organization_id", "id"]).execute();
      await db.schema.createIndex("metric_alert_rules_due_idx").on("metric_alert_rules").column("evaluated_minute").execute();
      await db.schema
        .createTable("metric_alert_history")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("rule_id", "integer", (c) => c.notNull().references("metric_alert_rules.id").onDelete("cascade"))
        .addColumn("changed_at", "text", (c) => c.notNull())
        .addColumn("from_status", "text", (c) => c.notNull())
        .addColumn("to_status", "text", (c) => c.notNull())
        .addColumn("value", "real")
        .addColumn("threshold", "real")
        .execute();
      await db.schema.createIndex("metric_alert_history_rule_idx").on("metric_alert_history").columns(["rule_id", "changed_at"]).execute();
      await db.schema
        .createTable("metric_alert_values")
        .addColumn("rule_id", "integer", (c) => c.notNull().references("metric_alert_rules.id").onDelete("cascade"))
        .addColumn("minute", "text", (c) => c.notNull())
        .addColumn("value", "real")
        .addPrimaryKeyConstraint("metric_alert_values_pk", ["rule_id", "minute"])
        .execute();
      // count() reads an organization's error events of the last minutes by arrival: without this index that is a scan
      // of every event of the project each minute. About 40 bytes per event (of about 1.6 KB each stores in all).
      await db.schema.createIndex("events_project_received_idx").on("events").columns(["project_id", "received_at"]).execute();
    },
  };
}
