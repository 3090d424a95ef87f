// What new events do to issues that are not simply open (Sentry's event_manager `_handle_regression` and
// GroupSnooze.is_valid): a resolved issue regresses unless its resolution covers the event's release; an ignored
// issue comes back when its snooze ends. Runs inside the batch's transaction, after the counters are written.
import { type Snooze, compareSemver, isRegression, parseResolution, parseSnooze, snoozeEnded } from "../core/issue-status";
import type { DigestTx, IssueState, IssueUpdate, NewActivity } from "../storage/digest-ports";
import type { DigestedEvent } from "./items";

export type LifecycleResult = { updates: IssueUpdate[]; activity: NewActivity[] };

/** Releases by semantic version, else by when they were first seen; one first seen in this batch is the newest. */
async function releaseOrder(tx: DigestTx, projectId: number, versions: string[], now: string) {
  const seen = await tx.releaseDates(projectId, versions);
  return (a: string, b: string) => compareSemver(a, b) ?? Math.sign(Date.parse(seen.get(a) ?? now) - Date.parse(seen.get(b) ?? now));
}

async function snoozeCounts(tx: DigestTx, issue: IssueState, snooze: Snooze, newEvents: number, now: Date) {
  const ago = (minutes: number | null) => new Date(now.getTime() - (minutes ?? 0) * 60_000).toISOString();
  const recentEnough = snooze.count !== null && snooze.window !== null && (await tx.hasEventsSince(issue.id, snooze.count, ago(snooze.window)));
  return {
    timesSeen: issue.timesSeen + newEvents,
    userCount: await tx.userCount(issue.id),
    eventsInWindow: recentEnough ? snooze.count! : 0,
    usersInWindow: snooze.userWindow !== null ? await tx.userCount(issue.id, ago(snooze.userWindow)) : 0,
  };
}

export async function applyLifecycle(
  tx: DigestTx,
  states: Map<number, IssueState>,
  eventsOf: Map<number, DigestedEvent[]>,
  now: Date,
): Promise<LifecycleResult> {
  const result: LifecycleResult = { updates: [], activity: [] };
  const at = now.toISOString();
  for (const [issueId, events] of eventsOf) {
    const issue = states.get(issueId);
    if (!issue) continue;
    const change = (status: IssueState["status"], substatus: string, type: string, data: Record<string, unknown>) => {
      result.updates.push({ id: issueId, newEvents: 0, lastSeen: issue.lastSeen, status, substatus, resolution: null, snooze: null });
      result.activity.push({ issueId, type, userId: null, data: JSON.stringify(data), createdAt: at });
    };
    if (issue.status === "resolved") {
      const resolution = parseResolution(issue.resolution);
      const releases = [
        ...new Set(
          events
            .map((e) => e.release)
            .filter((r): r is string => r !== null)
            .concat(resolution?.release ?? []),
        ),
      ];
      const order = await releaseOrder(tx, issue.projectId, releases, at);
      const regressing = events.find((e) => isRegression(resolution, e.release, order));
      if (regressing) change("unresolved", "regressed", "set_regression", { event_id: regressing.eventId, version: regressing.release });
    } else if (issue.status === "ignored") {
      const snooze = parseSnooze(issue.snooze);
      if (!snooze) continue; // ignored forever
      const ended = snoozeEnded(snooze, now, await snoozeCounts(tx, issue, snooze, events.length, now));
      if (ended === "expired") change("unresolved", "ongoing", "set_unresolved", { reason: "ignore_expired" });
      else if (ended === "escalating") change("unresolved", "escalating", "set_escalating", { reason: "ignore_condition_met" });
    }
  }
  return result;
}
