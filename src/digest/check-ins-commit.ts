// Check-ins applied in the batch's transaction (issue 19): the monitor found, or created or updated from the SDK's
// monitor_config; the check-in stored, or the in-progress one it finishes updated; the environment's next deadline and
// incident counters (core/monitor-state.ts). A failure that is part of an incident comes back as an event for the
// same batch (core/monitor-failure.ts), so it is grouped, counted and alerted on like any event; a recovery resolves
// the monitor's issue here.
import { randomUUID } from "node:crypto";
import { hourOf } from "../core/hours";
import { type FailureCheckIn, monitorFailureEvent } from "../core/monitor-failure";
import { applyFinishedStatus, schedulePatch } from "../core/monitor-state";
import { MONITOR_LIMITS } from "../config/limits";
import type { SpoolRow } from "../ingest/spool";
import type { DigestTx } from "../storage/digest-ports";
import type { Monitor, MonitorEnvironment } from "../storage/monitor-ports";
import type { OutcomeIncrement } from "../storage/ports";
import { type CheckInItem, NIL_GUID } from "./check-ins";
import { type DigestedEvent, digestRows } from "./items";

export type CheckInResult = { events: DigestedEvent[]; outcomes: OutcomeIncrement[] };

const counted = (item: CheckInItem, outcome: "accepted" | "invalid", reason = ""): OutcomeIncrement => ({
  projectId: item.projectId,
  hour: hourOf(item.receivedAt),
  category: "monitor",
  outcome,
  reason,
  quantity: 1,
});

/**
 * A monitor's failure as the digest's event: through the same reading, normalization and grouping as an SDK's. Null
 * if that failed (it never should: every field is Faultline's own), so the batch goes on without it.
 */
export async function failureAsEvent(monitor: Monitor, environment: string, checkIn: FailureCheckIn): Promise<DigestedEvent | null> {
  const failure = monitorFailureEvent(monitor, environment, checkIn);
  const row: SpoolRow = {
    id: 0,
    kind: "item",
    projectId: monitor.projectId,
    keyId: 0,
    receivedAt: Date.parse(checkIn.dateAdded),
    itemType: "event",
    eventId: failure.eventId,
    headers: "{}",
    meta: "{}",
    payload: Buffer.from(JSON.stringify(failure.event)),
  };
  return (await digestRows([row])).events[0] ?? null;
}

/** Resolves the monitor's issue in the environment, if it has one still open. */
async function resolveIssue(tx: DigestTx, monitor: Monitor, environment: string, at: string): Promise<void> {
  const probe = await failureAsEvent(monitor, environment, { guid: NIL_GUID, status: "error", dateAdded: at, expectedTime: null });
  const found = await tx.issuesByHash(monitor.projectId, probe?.grouping?.hashes ?? []);
  for (const issue of new Map([...found.values()].map((i) => [i.id, i])).values()) {
    if (issue.status === "resolved") continue;
    await tx.updateIssues([
      {
        id: issue.id,
        newEvents: 0,
        lastSeen: issue.lastSeen,
        status: "resolved",
        substatus: null,
        snooze: null,
        resolution: JSON.stringify({ type: "now", release: null, at }),
      },
    ]);
    await tx.addActivity([
      { issueId: issue.id, type: "set_resolved", userId: null, data: JSON.stringify({ monitor: monitor.slug, reason: "recovered" }), createdAt: at },
    ]);
  }
}

/** A finished status on the environment: counters, and the failure event or the resolution it leads to. */
async function finish(tx: DigestTx, monitor: Monitor, env: MonitorEnvironment, checkIn: FailureCheckIn, events: DigestedEvent[], extra = {}): Promise<void> {
  const change = applyFinishedStatus(monitor, env, checkIn.status);
  await tx.updateMonitorEnvironment(env.id, { ...extra, ...change.patch });
  const failure = change.failureEvent ? await failureAsEvent(monitor, env.environment, checkIn) : null;
  if (failure) events.push(failure);
  if (change.resolve) await resolveIssue(tx, monitor, env.environment, checkIn.dateAdded);
}

async function applyOne(tx: DigestTx, item: CheckInItem, events: DigestedEvent[], now: string): Promise<OutcomeIncrement> {
  const monitor = item.config ? await tx.upsertMonitor(item.projectId, item.slug, item.config, now) : await tx.monitorBySlug(item.projectId, item.slug);
  if (!monitor) return counted(item, "invalid", item.configProblem ? "invalid_monitor_config" : "monitor_not_found");
  if (monitor.status === "disabled") return counted(item, "invalid", "monitor_disabled");
  const env = await tx.monitorEnvironment(monitor.id, item.environment);
  const finishing = item.status !== "in_progress";
  const existing = item.guid !== NIL_GUID ? await tx.checkInByGuid(monitor.id, item.guid) : finishing ? await tx.latestInProgress(env.id) : null;
  if (existing) {
    // An update of a check-in: only one still in progress changes (a finished one stays as it finished, as in Sentry).
    if (!finishing) return counted(item, "accepted");
    const durationMs = item.durationMs ?? Math.min(Math.max(0, Date.parse(item.receivedAt) - Date.parse(existing.dateAdded)), MONITOR_LIMITS.durationMaxMs);
    if (await tx.finishCheckIn(existing.id, { status: item.status, durationMs, dateUpdated: item.receivedAt, timeoutAt: null })) {
      await finish(tx, monitor, env, { guid: existing.guid, status: item.status, dateAdded: existing.dateAdded, expectedTime: existing.expectedTime }, events);
    }
    return counted(item, "accepted");
  }
  const guid = item.guid !== NIL_GUID ? item.guid : randomUUID().replace(/-/g, "");
  const timeoutAt = finishing ? null : new Date(Date.parse(item.receivedAt) + (monitor.maxRuntime ?? MONITOR_LIMITS.runtimeDefault) * 60_000).toISOString();
  const stored = await tx.insertCheckIn({
    guid,
    monitorId: monitor.id,
    environmentId: env.id,
    projectId: monitor.projectId,
    status: item.status,
    durationMs: item.durationMs,
    dateAdded: item.receivedAt,
    dateUpdated: item.receivedAt,
    expectedTime: env.nextCheckin,
    timeoutAt,
  });
  if (!stored) return counted(item, "accepted");
  const schedule = schedulePatch(monitor, item.receivedAt);
  if (finishing) await finish(tx, monitor, env, { guid, status: item.status, dateAdded: item.receivedAt, expectedTime: env.nextCheckin }, events, schedule);
  else await tx.updateMonitorEnvironment(env.id, schedule);
  return counted(item, "accepted");
}

/** The batch's check-ins in arrival order; their failure events and outcome counts for the rest of the batch. */
export async function applyCheckIns(tx: DigestTx, items: CheckInItem[]): Promise<CheckInResult> {
  const events: DigestedEvent[] = [];
  const outcomes: OutcomeIncrement[] = [];
  const now = new Date().toISOString();
  for (const item of items) outcomes.push(await applyOne(tx, item, events, now));
  return { events, outcomes };
}
