// What a stored event's JSON holds beyond its columns, read the same way by the web API and the dashboard: the
// parsed payload, its tags as Sentry lists them, and its user.
import type { StoredEvent } from "../storage/ports";

export type EventJson = Record<string, unknown>;

/** The event's payload; an unreadable row (never written by the digest) reads as empty, so it still lists. */
export function eventData(e: StoredEvent): EventJson {
  try {
    return JSON.parse(e.data) as EventJson;
  } catch {
    return {};
  }
}

/** Tags as Sentry lists them: the event's own (object or pairs), then level, release and environment, by key. */
export function eventTags(e: StoredEvent, data: EventJson): { key: string; value: string }[] {
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

export type EventUser = { id: unknown; email: unknown; username: unknown; ip_address: unknown; name: unknown };

/** The event's user interface (the fields Sentry's API shows), or null. */
export function eventUser(data: EventJson): EventUser | null {
  const u = data.user;
  if (!u || typeof u !== "object") return null;
  const { id = null, email = null, username = null, ip_address = null, name = null } = u as EventJson;
  return { id, email, username, ip_address, name };
}
