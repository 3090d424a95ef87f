// An event as the digest hands it to the database (digest/items.ts makes it, commit.ts stores it).
import type { UserField } from "../storage/user-data-ports";
import type { NewFeedback } from "../storage/feedback-ports";
import type { NewEvent } from "../storage/records";
import type { ExpandedSpans } from "./spans";

/** An event ready for the database: its row, and for errors and messages what its issue is made of. */
export type DigestedEvent = NewEvent & {
  grouping: { config: string; hashes: string[] } | null;
  metadata: string;
  userKey: string | null;
  /** The user object's searchable parts (event-users.ts): a person's events are found by them. */
  userParts?: [UserField, string][];
  tags: [string, string][];
  /** A transaction's spans and the values it adds to the performance rollups (digest/spans.ts). */
  spans?: ExpandedSpans;
  /** The trace an error event belongs to (contexts.trace.trace_id). */
  traceId?: string | null;
  /** A feedback event's feedback (digest/feedback.ts), stored in user_feedback with the event. */
  feedback?: NewFeedback | null;
};
