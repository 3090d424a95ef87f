// What a finished check-in does to its monitor's environment (Sentry's monitors/logic mark_ok and mark_failed): a
// failure (error, missed, timeout) counts towards failure_issue_threshold and, once there, opens an incident whose
// every failure is an event of the monitor's issue; during an incident, recovery_threshold successes in a row end
// it, and its issue is resolved. A muted monitor counts the same but sends no events.
import { MONITOR_LIMITS } from "../config/limits";
import type { CheckInStatus, Monitor, MonitorEnvironment, MonitorEnvironmentPatch } from "../storage/monitor-ports";
import { deadlineOf, nextExpected } from "./monitor-schedule";

export type StateChange = { patch: MonitorEnvironmentPatch; failureEvent: boolean; resolve: boolean };

export const isFailure = (s: CheckInStatus) => s === "error" || s === "missed" || s === "timeout";

export function applyFinishedStatus(
  monitor: Pick<Monitor, "isMuted" | "failureIssueThreshold" | "recoveryThreshold">,
  env: Pick<MonitorEnvironment, "inIncident" | "failures" | "successes">,
  status: CheckInStatus,
): StateChange {
  if (isFailure(status)) {
    const failures = Math.min(env.failures + 1, MONITOR_LIMITS.thresholdMax * 2);
    const incident = env.inIncident || failures >= (monitor.failureIssueThreshold ?? 1);
    return { patch: { status: "error", failures, successes: 0, inIncident: incident }, failureEvent: incident && !monitor.isMuted, resolve: false };
  }
  if (status !== "ok") return { patch: {}, failureEvent: false, resolve: false };
  if (!env.inIncident) return { patch: { status: "ok", failures: 0, successes: 0 }, failureEvent: false, resolve: false };
  const successes = env.successes + 1;
  if (successes >= (monitor.recoveryThreshold ?? 1))
    return { patch: { status: "ok", failures: 0, successes: 0, inIncident: false }, failureEvent: false, resolve: true };
  return { patch: { successes }, failureEvent: false, resolve: false };
}

/** The environment's next expected check-in and deadline after a check-in at `at` (ISO). */
export function schedulePatch(monitor: Monitor, at: string): MonitorEnvironmentPatch {
  const next = nextExpected(monitor, Date.parse(at));
  return { lastCheckin: at, nextCheckin: next?.toISOString() ?? null, nextCheckinLatest: next ? deadlineOf(next, monitor.checkinMargin).toISOString() : null };
}

/**
 * After a missed deadline: the next expected check-in after the one missed, or, when the process was away for
 * several, the first whose deadline is still ahead of `now`, so that one pass writes one missed check-in.
 */
export function afterMissed(monitor: Monitor, missedExpected: string, now: number): MonitorEnvironmentPatch {
  let next = nextExpected(monitor, Date.parse(missedExpected) + 60_000);
  if (next && deadlineOf(next, monitor.checkinMargin).getTime() <= now) next = nextExpected(monitor, now);
  return { nextCheckin: next?.toISOString() ?? null, nextCheckinLatest: next ? deadlineOf(next, monitor.checkinMargin).toISOString() : null };
}
