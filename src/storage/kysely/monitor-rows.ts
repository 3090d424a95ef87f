// Rows of the monitor tables into the port's shapes (storage/monitor-ports.ts), for both dialects.
import type { Selectable } from "kysely";
import type { CheckIn, CheckInStatus, IntervalUnit, Monitor, MonitorEnvironment, MonitorEnvironmentPatch, ScheduleType } from "../monitor-ports";
import type { MonitorCheckinsTable, MonitorEnvironmentsTable, MonitorsTable } from "../monitor-schema";
import type { Dialect } from "../db";
import { dbBool, toBool } from "./shared";

export const toMonitor = (r: Selectable<MonitorsTable>): Monitor => ({
  id: r.id,
  guid: r.guid,
  organizationId: r.organization_id,
  projectId: r.project_id,
  slug: r.slug,
  name: r.name,
  status: r.status === "disabled" ? "disabled" : "active",
  isMuted: toBool(r.is_muted),
  scheduleType: r.schedule_type as ScheduleType,
  schedule: r.schedule,
  intervalUnit: r.interval_unit as IntervalUnit | null,
  timezone: r.timezone,
  checkinMargin: r.checkin_margin,
  maxRuntime: r.max_runtime,
  failureIssueThreshold: r.failure_issue_threshold,
  recoveryThreshold: r.recovery_threshold,
  createdAt: r.created_at,
});

export const toEnvironment = (r: Selectable<MonitorEnvironmentsTable>): MonitorEnvironment => ({
  id: r.id,
  monitorId: r.monitor_id,
  environment: r.environment,
  status: r.status as MonitorEnvironment["status"],
  lastCheckin: r.last_checkin,
  nextCheckin: r.next_checkin,
  nextCheckinLatest: r.next_checkin_latest,
  inIncident: toBool(r.in_incident),
  failures: Number(r.failures),
  successes: Number(r.successes),
});

export const toCheckIn = (r: Selectable<MonitorCheckinsTable>): CheckIn => ({
  id: r.id,
  guid: r.guid,
  monitorId: r.monitor_id,
  environmentId: r.monitor_environment_id,
  projectId: r.project_id,
  status: r.status as CheckInStatus,
  durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
  dateAdded: r.date_added,
  dateUpdated: r.date_updated,
  expectedTime: r.expected_time,
  timeoutAt: r.timeout_at,
});

/** The columns an environment patch writes. */
export function environmentColumns(dialect: Dialect, p: MonitorEnvironmentPatch) {
  return {
    ...(p.status !== undefined && { status: p.status }),
    ...(p.lastCheckin !== undefined && { last_checkin: p.lastCheckin }),
    ...(p.nextCheckin !== undefined && { next_checkin: p.nextCheckin }),
    ...(p.nextCheckinLatest !== undefined && { next_checkin_latest: p.nextCheckinLatest }),
    ...(p.inIncident !== undefined && { in_incident: dbBool(dialect, p.inIncident) }),
    ...(p.failures !== undefined && { failures: p.failures }),
    ...(p.successes !== undefined && { successes: p.successes }),
  };
}

/** Prefixed columns of the three tables, for joins (Kysely has no table.* alias of its own). */
export const MONITOR_COLUMNS = [
  "id",
  "guid",
  "organization_id",
  "project_id",
  "slug",
  "name",
  "status",
  "is_muted",
  "schedule_type",
  "schedule",
  "interval_unit",
  "timezone",
  "checkin_margin",
  "max_runtime",
  "failure_issue_threshold",
  "recovery_threshold",
  "created_at",
] as const;
