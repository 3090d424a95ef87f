// Stored events in Sentry's API shapes: the lists (sentry `SimpleEventSerializer`) and one event with its interfaces
// (`EventSerializer`: entries, contexts, sdk, processing errors, grouping hashes).
import type { StoredEvent } from "../../storage/ports";
import { eventEntries } from "./event-entries";

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

function parseData(e: StoredEvent): Json {
  try {
    return JSON.parse(e.data) as Json;
  } catch {
    // stored by the digest as JSON; an unreadable row still lists with its columns
    return {};
  }
}

export function serializeEventListItem(e: StoredEvent) {
  const data = parseData(e);
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

/** Processing errors as Sentry's API lists them: {type, message, data}, the field and details in data. */
function errorsOf(data: Json): { type: string; message: string; data: Json }[] {
  const errors = Array.isArray(data.errors) ? (data.errors as Json[]) : [];
  return errors
    .filter((e) => e && typeof e === "object" && typeof e.type === "string")
    .map(({ type, ...rest }) => ({ type: type as string, message: `${String(type).replace(/_/g, " ")}${typeof rest.name === "string" ? ` (${rest.name})` : ""}`, data: rest }));
}

const seconds = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? new Date(v * 1000).toISOString() : null);

/** One event as its detail endpoints serve it, with the issue's next and previous event ids. */
export function serializeEventDetail(e: { event: StoredEvent; next: string | null; previous: string | null }) {
  const data = parseData(e.event);
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
