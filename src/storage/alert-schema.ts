// Issue alert rules' tables (migration 0021), as Kysely sees them; organizations.alerts_member_write and
// projects.webhook_secret are in schema.ts with their tables.
import type { Generated } from "kysely";

export type AlertRulesTable = {
  id: Generated<number>;
  project_id: number;
  name: string;
  environment: string | null;
  action_match: string;
  filter_match: string;
  frequency: number;
  /** JSON arrays (core/alert-rule-schema.ts). */
  conditions: string;
  filters: string;
  actions: string;
  status: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
};

export type AlertRuleIssuesTable = {
  rule_id: number;
  issue_id: number;
  last_fired_at: string;
  /** 0/1 on SQLite. */
  fired_once: Generated<boolean | number>;
};

export type AlertTables = { alert_rules: AlertRulesTable; alert_rule_issues: AlertRuleIssuesTable };
