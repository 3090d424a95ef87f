// Stored events in Sentry's API shapes (the project events list: sentry `SimpleEventSerializer`).
import type { StoredEvent } from "../../storage/ports";

type Json = Record<string, unknown>;

/** Tags as Sentry lists them: the event's own (object or pairs), then level, release and environment. */
function tagsOf(e: StoredEvent, data: Json): { key: string; value: string }[] {
  const tags = new Map<string, string>();
  const raw = data.tags;
  const pairs: unknown[] = Array.isArray(raw) ? raw : raw && typeof raw === "object" ? Object.entries(raw) : [];
  for (const p of pairs) {
    if (Array.isArray(p) && typeof p[0] === "string" && p[1] !== undefined && p[1] !== null) tags.set(p[0], String(p[1]));
  }
  tags.set("level", e.level);
  if (e.release) tags.set("release", e.release);
  if (e.environment) tags.set("environment", e.environment);
  return [...tags].map(([key, value]) => ({ key, value })).sort((a, b) => a.key.localeCompare(b.key));
}

function userOf(data: Json): Json | null {
  const u = data.user;
  if (!u || typeof u !== "object") return null;
  const { id = null, email = null, username = null, ip_address = null, name = null } = u as Json;
  return { id, email, username, ip_address, name };
}

export function serializeEventListItem(e: StoredEvent) {
  let data: Json = {};
  try {
    data = JSON.parse(e.data) as Json;
  } catch {
    // stored by the digest as JSON; an unreadable row still lists with its columns
  }
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
    user: userOf(data),
    tags: tagsOf(e, data),
  };
}

/** One event as its detail endpoints serve it: the list item with the issue's next and previous event ids. */
export function serializeEventDetail(e: { event: StoredEvent; next: string | null; previous: string | null }) {
  return { ...serializeEventListItem(e.event), nextEventID: e.next, previousEventID: e.previous };
}
