// Stored events in Sentry's API shapes: the lists (sentry `SimpleEventSerializer`) and one event with its interfaces
// (`EventSerializer`: entries, contexts, sdk, processing errors, grouping hashes).
import type { StoredEvent } from "../../storage/ports";
import { eventData, eventTags, eventUser } from "../../core/event-data";
import { eventEntries } from "../../core/event-entries";

type Json = Record<string, unknown>;

export function serializeEventListItem(e: StoredEvent) {
  const data = eventData(e);
  return {
    id: e.eventId,
    eventID: e.eventId,
    groupID: e.issueId === null ? null : String(e.issueId),
    projectID: String(e.projectId),
    type: e.type,
    "event.type": e.type,
    title: e.title,
    message: e.message,
    culprit: e.culprit,
    location: null,
    platform: e.platform,
    dateCreated: e.timestamp,
    dateReceived: e.receivedAt,
    size: e.size,
    user: eventUser(data),
    tags: eventTags(e, data),
  };
}

/** Processing errors as Sentry's API lists them: {type, message, data}, the field and details in data. */
function errorsOf(data: Json): { type: string; message: string; data: Json }[] {
  const errors = Array.isArray(data.errors) ? (data.errors as Json[]) : [];
  return errors
    .filter((e) => e && typeof e === "object" && typeof e.type === "string")
    .map(({ type, ...rest }) => ({
      type: type as string,
      message: `${String(type).replace(/_/g, " ")}${typeof rest.name === "string" ? ` (${rest.name})` : ""}`,
      data: rest,
    }));
}

const seconds = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? new Date(v * 1000).toISOString() : null);

/** One event as its detail endpoints serve it, with the issue's next and previous event ids. */
export function serializeEventDetail(e: { event: StoredEvent; next: string | null; previous: string | null }) {
  const data = eventData(e.event);
  const list = serializeEventListItem(e.event);
  return {
    ...list,
    dist: data.dist ?? null,
    metadata: data.metadata ?? null,
    contexts: data.contexts ?? {},
    sdk: data.sdk ?? null,
    context: data.extra ?? {},
    packages: data.modules ?? {},
    errors: errorsOf(data),
    fingerprints: Array.isArray(data.fingerprints) ? data.fingerprints : [],
    release: e.event.release ? { version: e.event.release } : null,
    entries: eventEntries(data),
    ...(e.event.type === "transaction" ? { startTimestamp: seconds(data.start_timestamp), endTimestamp: seconds(data.timestamp) } : {}),
    crashFile: null,
    userReport: null,
    nextEventID: e.next,
    previousEventID: e.previous,
  };
}
