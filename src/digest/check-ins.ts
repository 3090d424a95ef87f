// A check_in item (Relay's relay-monitors CheckIn) read for the digest: the monitor's slug as Sentry slugifies it,
// the status (an SDK's "missed" is read as unknown, as Relay does: only the server decides a check-in was missed),
// the environment ("production" when absent, as Sentry), the duration in milliseconds and the monitor_config, if any
// and valid. Whatever cannot be read drops the check-in with its reason, counted as an invalid outcome.
import { MONITOR_LIMITS } from "../config/limits";
import { readMonitorConfig } from "../core/monitor-config";
import { slugifyMonitor } from "../core/monitor-config";
import type { CheckInStatus, MonitorConfig } from "../storage/monitor-ports";

export const NIL_GUID = "00000000000000000000000000000000";

export type CheckInItem = {
  projectId: number;
  receivedAt: string;
  /** 32 hex digits; NIL_GUID when the SDK (or the HTTP endpoint) named none. */
  guid: string;
  slug: string;
  status: CheckInStatus;
  environment: string;
  durationMs: number | null;
  config: MonitorConfig | null;
  /** Why the monitor_config was ignored, when it was sent and not valid. */
  configProblem: string | null;
};

export type CheckInRead = { item: CheckInItem } | { dropped: string };

const STATUSES = new Set(["ok", "error", "in_progress"]);
const GUID = /^[0-9a-f]{32}$/;

function environmentOf(v: unknown): string | null {
  if (v === undefined || v === null || v === "") return "production";
  if (typeof v !== "string" || v.length > MONITOR_LIMITS.environmentMaxLength || /[\n\r\f/\u0000]/.test(v) || v === "none") return null;
  return v;
}

export function readCheckIn(value: unknown, projectId: number, receivedAt: string): CheckInRead {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { dropped: "invalid_check_in" };
  const c = value as Record<string, unknown>;
  const rawSlug = typeof c.monitor_slug === "string" ? c.monitor_slug.slice(0, 4 * MONITOR_LIMITS.slugMaxLength) : "";
  const slug = slugifyMonitor(rawSlug);
  if (!slug) return { dropped: "invalid_monitor_slug" };
  const status = typeof c.status === "string" && STATUSES.has(c.status) ? (c.status as CheckInStatus) : "unknown";
  if (status === "unknown") return { dropped: "invalid_check_in_status" };
  const environment = environmentOf(c.environment);
  if (environment === null) return { dropped: "invalid_environment" };
  const guid = typeof c.check_in_id === "string" ? c.check_in_id.replace(/-/g, "").toLowerCase() : NIL_GUID;
  if (!GUID.test(guid)) return { dropped: "invalid_check_in_id" };
  const seconds = typeof c.duration === "number" && Number.isFinite(c.duration) && c.duration >= 0 ? c.duration : null;
  const durationMs = seconds === null ? null : Math.min(Math.round(seconds * 1000), MONITOR_LIMITS.durationMaxMs);
  let config: MonitorConfig | null = null;
  let configProblem: string | null = null;
  if (c.monitor_config !== undefined && c.monitor_config !== null) {
    const read = readMonitorConfig(c.monitor_config);
    if ("config" in read) config = read.config;
    else configProblem = read.error;
  }
  return { item: { projectId, receivedAt, guid, slug, status, environment, durationMs, config, configProblem } };
}
