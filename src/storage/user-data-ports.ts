// A person's data (issue 18): the events that name a user, found through event_users (migration 0024), which the
// digest fills in its batch transaction; their export; their erasure, one transaction per project; the erasures' record.

/** The parts of an event's user object an event is found by, in the order its issue's user key takes the first present. */
export type UserField = "id" | "email" | "username" | "ip";
export const USER_FIELDS = ["id", "email", "username", "ip"] as const satisfies readonly UserField[];

/**
 * The user of one newly stored event: `eventRowId` is its events.id, `parts` the searchable parts of its user object,
 * `userKey` the key its issue counted it by (digest/event-facts.ts userKey).
 */
export type EventUserRow = {
  eventRowId: number;
  projectId: number;
  issueId: number | null;
  receivedAt: string;
  parts: Partial<Record<UserField, string>>;
  userKey: string | null;
};

/** The user key the parts give when the key is theirs: "prefix:value" of the first present (the digest's order). */
export function derivedUserKey(parts: Partial<Record<UserField, string>>): string | null {
  for (const field of USER_FIELDS) {
    const value = parts[field];
    if (value !== undefined) return `${field}:${value}`;
  }
  return null;
}

/** A stored event that names the person; `fields`: which of the searched fields matched. */
export type UserEventMatch = {
  projectId: number;
  eventId: string;
  issueId: number | null;
  type: string;
  receivedAt: string;
  timestamp: string;
  title: string;
  fields: UserField[];
};

/** What one erasure deleted. */
/** `feedback`: user feedback about the erased events, or from the erased e-mail address (issue 19). */
export type ErasureCounts = { events: number; attachments: number; tagValues: number; users: number; feedback: number };

/** What the storage needs to know of an event it erases: the issue's user key and tag values it was counted in. */
export type EventFacts = (data: string) => { userKey: string | null; tags: [string, string][] };

/** A user feedback as the personal-data export gives it (issue 19's user_feedback row). */
export type PersonFeedback = {
  id: number;
  source: string;
  feedbackEventId: string | null;
  associatedEventId: string | null;
  message: string;
  name: string;
  email: string;
  url: string;
  details: string;
  status: string;
  receivedAt: string;
};

export interface UserDataTx {
  /** Records the user parts of newly stored events (rows of events skipped as duplicates are never given). */
  insertEventUsers(rows: EventUserRow[]): Promise<void>;
}

export interface UserDataStore {
  /** Events of the projects (or of every project) whose user has `value` in one of `fields`, newest first, at most `limit`. */
  findUserEvents(projectIds: number[] | "all", fields: readonly UserField[], value: string, limit: number): Promise<UserEventMatch[]>;
  /** The decoded JSON of events of one project, by event id (those still stored). */
  eventDataOf(projectId: number, eventIds: string[]): Promise<Map<string, string>>;
  /**
   * The user feedback of one project that erasure would take with these events: sent as or about one of
   * `eventIds`, or (when `email` is given) from that address; oldest first, at most `limit`.
   */
  feedbackOf(projectId: number, eventIds: string[], email: string | null, limit: number): Promise<PersonFeedback[]>;
  /**
   * In one transaction: deletes up to `limit` events of the project that match, their attachments, the issue tag
   * values they were counted in (a count of 0 removes the value), the issue's user (and one from its user_count)
   * when no other stored event of the issue counted the same user, their event_users rows, and the user feedback
   * about them or (when e-mail is among the fields) from the address. Issues keep
   * times_seen and their hourly counts.
   */
  eraseUserEvents(projectId: number, fields: readonly UserField[], value: string, facts: EventFacts, limit: number): Promise<ErasureCounts>;
}
