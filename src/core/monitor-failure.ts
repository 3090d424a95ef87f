// The event a monitor's failure becomes (Sentry's MonitorFailure occurrence, "Cron failure: <name>"): an error-level
// message event with a fingerprint of the monitor and environment, so each monitor's failures in an environment are
// one issue, and alert rules, notifications and the issue stream treat it as any issue. Its event id derives from the
// check-in, so the same failure sent twice (a scheduler retried, two processes) is stored once.
import { createHash } from "node:crypto";
import type { CheckInStatus, Monitor } from "../storage/monitor-ports";

const REASONS: Partial<Record<CheckInStatus, string>> = {
  error: "An error check-in was detected",
  missed: "A missed check-in was detected",
  timeout: "A timeout check-in was detected",
};

/** The fingerprint of a monitor's failure issue in an environment. */
export const monitorFingerprint = (monitor: Pick<Monitor, "guid">, environment: string) => ["monitor-failure", monitor.guid, environment];

export function failureEventId(monitor: Pick<Monitor, "guid">, environment: string, checkInGuid: string): string {
  return createHash("sha256").update(`monitor-failure\0${monitor.guid}\0${environment}\0${checkInGuid}`).digest("hex").slice(0, 32);
}

/**
 * Whether a digested event is a monitor's failure (Sentry's issue category CRON, 4): the tags this file gives it, the
 * logger "monitors" and the monitor's id. An SDK that sends both itself only recategorizes its own project's issue.
 */
export function isMonitorFailure(tags: [string, string][]): boolean {
  return tags.some(([k, v]) => k === "logger" && v === "monitors") && tags.some(([k]) => k === "monitor.id");
}

export type FailureCheckIn = { guid: string; status: CheckInStatus; dateAdded: string; expectedTime: string | null };

export function monitorFailureEvent(monitor: Monitor, environment: string, checkIn: FailureCheckIn): { eventId: string; event: Record<string, unknown> } {
  const eventId = failureEventId(monitor, environment, checkIn.guid);
  const reason = REASONS[checkIn.status] ?? "The monitor has reached its failure threshold";
  return {
    eventId,
    event: {
      event_id: eventId,
      timestamp: Date.parse(checkIn.dateAdded) / 1000,
      level: "error",
      platform: "other",
      logger: "monitors",
      environment,
      message: `Cron failure: ${monitor.name}`,
      culprit: reason,
      fingerprint: monitorFingerprint(monitor, environment),
      tags: { "monitor.slug": monitor.slug, "monitor.id": monitor.guid },
      contexts: {
        monitor: {
          type: "default",
          id: monitor.guid,
          slug: monitor.slug,
          name: monitor.name,
          status: checkIn.status,
          reason,
          check_in_id: checkIn.guid,
          expected_time: checkIn.expectedTime,
          schedule: monitor.scheduleType === "crontab" ? monitor.schedule : `${monitor.schedule} ${monitor.intervalUnit}`,
          timezone: monitor.timezone,
        },
      },
      sdk: { name: "faultline.monitors", version: "1" },
    },
  };
}
