import { decodeEventDataOr } from "../event-codec";
import type { EventStore, StoredEvent } from "../ports";
import type { EventsTable } from "../schema";
import { type Ctx, decodeCursor, toPage } from "./shared";

type EventRow = Omit<EventsTable, "id"> & { id: number };
/**
 * Every read of an event row comes through here, and with it through the one decoder of events.data. Data that does not
 * decode reads as "{}" with the reason in `unreadable`, so one damaged row cannot fail a list or a page.
 */
export const toStoredEvent = (r: EventRow): StoredEvent => {
  const { json, unreadable } = decodeEventDataOr(r.data, "{}");
  return {
    id: r.id,
    projectId: r.project_id,
    eventId: r.event_id,
    type: r.type,
    receivedAt: r.received_at,
    timestamp: r.timestamp,
    platform: r.platform,
    level: r.level,
    title: r.title,
    message: r.message,
    culprit: r.culprit,
    release: r.release,
    environment: r.environment,
    size: r.size,
    data: json,
    issueId: r.issue_id,
    ...(unreadable === undefined ? {} : { unreadable }),
  };
};

export function eventStore({ db }: Ctx): EventStore {
  return {
    async listEvents(projectId, kind, page) {
      const after = decodeCursor(page.cursor);
      let q = db
        .selectFrom("events")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("type", kind === "transactions" ? "=" : "!=", "transaction")
        .orderBy("id", "desc")
        .limit(page.limit + 1);
      if (after !== null) q = q.where("id", "<", Number(after));
      return toPage((await q.execute()).map(toStoredEvent), page, (e) => String(e.id));
    },
    async getEvent(projectId, eventId) {
      const r = await db.selectFrom("events").selectAll().where("project_id", "=", projectId).where("event_id", "=", eventId).executeTakeFirst();
      return r ? toStoredEvent(r) : null;
    },
  };
}
