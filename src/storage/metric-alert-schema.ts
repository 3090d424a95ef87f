// The metric alerts' tables (migration 0022), as Kysely sees them.
import type { Generated } from "kysely";

export type MetricAlertRulesTable = {
  id: Generated<number>;
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
  /** JSON: MetricAlertTrigger[]. */
  triggers: string;
  status: string;
  last_value: number | null;
  last_evaluated_at: string | null;
  evaluated_minute: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
};

export type MetricAlertHistoryTable = {
  id: Generated<number>;
  rule_id: number;
  changed_at: string;
  from_status: string;
  to_status: string;
  value: number | null;
  threshold: number | null;
};

export type MetricAlertValuesTable = { rule_id: number; minute: string; value: number | null };

export type MetricAlertTables = {
  metric_alert_rules: MetricAlertRulesTable;
  metric_alert_history: MetricAlertHistoryTable;
  metric_alert_values: MetricAlertValuesTable;
};
