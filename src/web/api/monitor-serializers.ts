// Cron monitors in Sentry's shapes (MonitorSerializer, MonitorCheckInSerializer): ids are the monitor's and the
// check-in's GUIDs, the config snake_case, an interval schedule [count, unit], durations in milliseconds.
import type { MonitorView } from "../../core/monitors";
import type { CheckIn, Monitor, MonitorEnvironment } from "../../storage/monitor-ports";

export function serializeMonitorConfig(m: Monitor) {
  return {
    schedule_type: m.scheduleType,
    schedule: m.scheduleType === "interval" ? [Number(m.schedule), m.intervalUnit] : m.schedule,
    checkin_margin: m.checkinMargin,
    max_runtime: m.maxRuntime,
    timezone: m.timezone,
    failure_issue_threshold: m.failureIssueThreshold,
    recovery_threshold: m.recoveryThreshold,
  };
}

const serializeEnvironment = (m: Monitor, e: MonitorEnvironment) => ({
  name: e.environment,
  status: e.status,
  isMuted: m.isMuted,
  lastCheckIn: e.lastCheckin,
  nextCheckIn: e.nextCheckin,
  nextCheckInLatest: e.nextCheckinLatest,
  activeIncident: e.inIncident ? { failures: e.failures } : null,
});

export function serializeMonitor(m: MonitorView) {
  return {
    id: m.guid,
    slug: m.slug,
    name: m.name,
    status: m.status,
    isMuted: m.isMuted,
    type: "cron_job",
    config: serializeMonitorConfig(m),
    dateCreated: m.createdAt,
    project: { id: String(m.project.id), slug: m.project.slug, name: m.project.name },
    environments: m.environments.map((e) => serializeEnvironment(m, e)),
  };
}

export function serializeCheckIn(c: CheckIn, environments: MonitorEnvironment[]) {
  return {
    id: c.guid,
    environment: environments.find((e) => e.id === c.environmentId)?.environment ?? null,
    status: c.status,
    duration: c.durationMs,
    dateCreated: c.dateAdded,
    dateUpdated: c.dateUpdated,
    expectedTime: c.expectedTime,
  };
}
