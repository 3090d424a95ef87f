// The tables of cron monitors (migration 0027), as Kysely sees them.
import type { Generated } from "kysely";

export type MonitorsTable = {
  id: Generated<number>;
  guid: string;
  organization_id: number;
  project_id: number;
  slug: string;
  name: string;
  status: string;
  is_muted: Generated<boolean | number>;
  schedule_type: string;
  schedule: string;
  interval_unit: string | null;
  timezone: string;
  checkin_margin: number | null;
  max_runtime: number | null;
  failure_issue_threshold: number | null;
  recovery_threshold: number | null;
  created_at: string;
};

export type MonitorEnvironmentsTable = {
  id: Generated<number>;
  monitor_id: number;
  environment: string;
  status: string;
  last_checkin: string | null;
  next_checkin: string | null;
  next_checkin_latest: string | null;
  in_incident: Generated<boolean | number>;
  failures: Generated<number>;
  successes: Generated<number>;
};

export type MonitorCheckinsTable = {
  id: Generated<number>;
  guid: string;
  monitor_id: number;
  monitor_environment_id: number;
  project_id: number;
  status: string;
  duration_ms: number | string | null;
  date_added: string;
  date_updated: string;
  expected_time: string | null;
  timeout_at: string | null;
};

export type MonitorTables = { monitors: MonitorsTable; monitor_environments: MonitorEnvironmentsTable; monitor_checkins: MonitorCheckinsTable };
