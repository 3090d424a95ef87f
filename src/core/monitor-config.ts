// A monitor's configuration as SDKs send it (a check-in's `monitor_config`, Relay's relay-monitors MonitorConfig) and
// as the API takes it (Sentry's `config`): read into MonitorConfig, or refused with the reason. Slugs as Sentry makes
// them: lowercase letters, digits, "-" and "_", at most 50 characters.
import { MONITOR_LIMITS } from "../config/limits";
import { INTERVAL_UNITS, type IntervalUnit, type MonitorConfig } from "../storage/monitor-ports";
import { crontabProblem, isTimeZone, nextExpected } from "./monitor-schedule";

type Json = Record<string, unknown>;
export type ConfigResult = { config: MonitorConfig } | { error: string };

const SLUG = /^[a-z0-9_-]+$/;

/** Sentry's slugify for a check-in's monitor_slug: lowercased, other characters as "-", cut to 50; null when nothing is left. */
export function slugifyMonitor(raw: string): string | null {
  const slug = raw
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9_\s-]/g, "")
    .trim()
    .replace(/[\s-]+/g, "-")
    .slice(0, MONITOR_LIMITS.slugMaxLength)
    .replace(/^-+|-+$/g, "");
  return slug.length > 0 ? slug : null;
}

/** A slug given to the API: as it is, or refused. */
export const isMonitorSlug = (s: unknown): s is string => typeof s === "string" && s.length > 0 && s.length <= MONITOR_LIMITS.slugMaxLength && SLUG.test(s);

/** An optional whole number in [min, max]; undefined when absent or null, an error text when invalid. */
function wholeNumber(v: unknown, name: string, min: number, max: number): number | null | string {
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) return `${name} must be a whole number from ${min} to ${max}`;
  return v;
}

/** Reads a monitor_config (snake_case, or the API's camelCase aliases), keeping `base` for what it leaves out. */
export function readMonitorConfig(raw: unknown, base?: MonitorConfig): ConfigResult {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { error: "the monitor config must be an object" };
  const c = raw as Json;
  const pick = (snake: string, camel: string) => (c[snake] !== undefined ? c[snake] : c[camel]);
  let scheduleType = (pick("schedule_type", "scheduleType") ?? base?.scheduleType) as unknown;
  let schedule: unknown = c.schedule ?? base?.schedule;
  let unit: unknown = base?.intervalUnit ?? null;
  // Relay's shape: {"schedule": {"type": "crontab", "value": "0 * * * *"}} or {"type": "interval", "value": 5, "unit": "day"}.
  if (typeof schedule === "object" && schedule !== null && !Array.isArray(schedule)) {
    const s = schedule as Json;
    scheduleType = s.type;
    schedule = s.value;
    unit = s.unit;
  } else if (Array.isArray(schedule)) {
    // The API's interval shape: "schedule": [5, "day"].
    scheduleType = scheduleType ?? "interval";
    [schedule, unit] = schedule as unknown[];
  }
  if (c.schedule_type === undefined && c.scheduleType === undefined && typeof schedule === "string" && scheduleType === undefined) scheduleType = "crontab";
  const timezone = pick("timezone", "timezone") ?? base?.timezone ?? "UTC";
  if (typeof timezone !== "string" || !isTimeZone(timezone)) return { error: "timezone must be a tz database name, e.g. Europe/Vienna" };
  let value: string;
  let intervalUnit: IntervalUnit | null = null;
  if (scheduleType === "crontab") {
    if (typeof schedule !== "string" || schedule.length === 0 || schedule.length > MONITOR_LIMITS.crontabMaxLength)
      return { error: "a crontab schedule must be a string of at most 100 characters" };
    const problem = crontabProblem(schedule, timezone);
    if (problem) return { error: problem };
    value = schedule.trim();
  } else if (scheduleType === "interval") {
    const count = wholeNumber(schedule, "an interval", 1, MONITOR_LIMITS.intervalMax);
    if (typeof count === "string" || count === null) return { error: typeof count === "string" ? count : "an interval schedule needs a count" };
    if (typeof unit !== "string" || !(INTERVAL_UNITS as readonly string[]).includes(unit))
      return { error: `an interval's unit is one of ${INTERVAL_UNITS.join(", ")}` };
    value = String(count);
    intervalUnit = unit as IntervalUnit;
    if (nextExpected({ scheduleType, schedule: value, intervalUnit, timezone }, Date.now()) === null)
      return { error: `an interval of ${count} ${unit}s would end after the year 9998` };
  } else return { error: "schedule_type must be crontab or interval" };
  const margin = wholeNumber(pick("checkin_margin", "checkinMargin") ?? base?.checkinMargin, "checkin_margin", 0, MONITOR_LIMITS.marginMax);
  const runtime = wholeNumber(pick("max_runtime", "maxRuntime") ?? base?.maxRuntime, "max_runtime", 1, MONITOR_LIMITS.runtimeMax);
  const failure = wholeNumber(
    pick("failure_issue_threshold", "failureIssueThreshold") ?? base?.failureIssueThreshold,
    "failure_issue_threshold",
    1,
    MONITOR_LIMITS.thresholdMax,
  );
  const recovery = wholeNumber(
    pick("recovery_threshold", "recoveryThreshold") ?? base?.recoveryThreshold,
    "recovery_threshold",
    1,
    MONITOR_LIMITS.thresholdMax,
  );
  for (const v of [margin, runtime, failure, recovery]) if (typeof v === "string") return { error: v };
  return {
    config: {
      scheduleType,
      schedule: value,
      intervalUnit,
      timezone,
      checkinMargin: margin as number | null,
      maxRuntime: runtime as number | null,
      failureIssueThreshold: failure as number | null,
      recoveryThreshold: recovery as number | null,
    },
  };
}
