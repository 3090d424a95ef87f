// Regressions as workflow notices, in the batch's transaction, after the lifecycle (lifecycle.ts) has decided them:
// everyone taking part in (or subscribed to) a regressed issue hears of it once, keyed by the regressing event, so a
// batch written again adds nothing. Who exactly is worked out by the store (WorkflowTx).
import { linkBase } from "../core/links";
import type { DigestTx, NewActivity } from "../storage/digest-ports";
import type { IssueNotificationPayload } from "../storage/notification-ports";
import type { WorkflowNotice } from "../storage/notification-settings-ports";
import type { DigestedEvent } from "./items";

/** What a notice says of the event, from what the digest already holds of it. */
export function noticeEvent(e: DigestedEvent): NonNullable<IssueNotificationPayload["event"]> {
  return {
    eventId: e.eventId,
    message: e.message,
    timestamp: e.timestamp,
    environment: e.environment,
    release: e.release,
    platform: e.platform,
    url: e.tags.find(([k]) => k === "url")?.[1] ?? null,
    tags: e.tags,
  };
}

/** Writes a notice for each `set_regression` activity of the batch; returns how many outbox rows were new. */
export async function writeRegressionNotices(tx: DigestTx, activity: NewActivity[], eventsOf: Map<number, DigestedEvent[]>): Promise<number> {
  const notices: WorkflowNotice[] = [];
  const base = linkBase();
  for (const a of activity) {
    if (a.type !== "set_regression") continue;
    const eventId = (JSON.parse(a.data) as { event_id?: string }).event_id;
    const event = eventsOf.get(a.issueId)?.find((e) => e.eventId === eventId);
    if (!eventId || !event) continue;
    notices.push({
      trigger: "regression",
      issueId: a.issueId,
      key: `${a.issueId}:${eventId}`,
      actorUserId: null,
      to: "participants",
      event: noticeEvent(event),
      linkBase: base,
      createdAt: a.createdAt,
    });
  }
  return notices.length === 0 ? 0 : tx.enqueueWorkflowNotices(notices);
}
