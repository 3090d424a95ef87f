// A person's data (issue 18): the parts of each stored event's user object (id, e-mail, username, IP address) and the
// user key its issue counted, kept in event_users in the batch's transaction, so that a person's events are found by
// an indexed lookup rather than by decoding every event.
import { PERSONAL_DATA_LIMITS } from "../config/limits";
import type { DigestTx } from "../storage/digest-ports";
import type { EventUserRow, UserField } from "../storage/user-data-ports";
import type { DigestedEvent } from "./digested-event";

type Json = Record<string, unknown>;

const PARTS = [
  ["id", "id"],
  ["email", "email"],
  ["username", "username"],
  ["ip_address", "ip"],
] as const;

/** The searchable parts of an event's user: strings (an id may come as a number), as stored, cut to the searchable length. */
export function userParts(event: Json): [UserField, string][] {
  const user = event.user;
  if (typeof user !== "object" || user === null || Array.isArray(user)) return [];
  const out: [UserField, string][] = [];
  for (const [field, name] of PARTS) {
    const v = (user as Json)[field];
    const value = typeof v === "string" ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : null;
    if (value && value !== "{{auto}}") out.push([name, value.slice(0, PERSONAL_DATA_LIMITS.maxValueLength)]);
  }
  return out;
}

/** Writes the user rows of the events the batch stored (called from commit.ts); `rowIds`: "projectId:eventId" → events.id. */
export async function writeEventUsers(tx: DigestTx, stored: DigestedEvent[], issueOf: Map<DigestedEvent, number>, rowIds: Map<string, number>): Promise<void> {
  const rows: EventUserRow[] = [];
  for (const e of stored) {
    if (!e.userParts?.length && !e.userKey) continue;
    const eventRowId = rowIds.get(`${e.projectId}:${e.eventId}`);
    if (eventRowId === undefined) continue;
    rows.push({
      eventRowId,
      projectId: e.projectId,
      issueId: issueOf.get(e) ?? null,
      receivedAt: e.receivedAt,
      parts: Object.fromEntries(e.userParts ?? []),
      userKey: e.userKey,
    });
  }
  if (rows.length > 0) await tx.insertEventUsers(rows);
}
