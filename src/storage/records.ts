// Records several storage ports share (pages, events, outcomes, quotas), in a module that imports no port, so that
// the ports can use them without importing ports.ts, which gathers every port into the Store (no import circles).
import type { QuotaCategory } from "../protocol/categories";

/** At most `count` events per `windowSeconds`; a window of 60 is a rate limit, 86400 a daily quota. */
export type RateLimit = { count: number; windowSeconds: number };

/** Quotas of the data categories other than errors (whose quota is `rateLimit`), by protocol/categories.ts name. */
export type Quotas = Partial<Record<Exclude<QuotaCategory, "error">, RateLimit>>;

/** One page of a list, and the cursor of the next page (null: the last page). */
export type Page<T> = { items: T[]; nextCursor: string | null };
export type PageRequest = { cursor?: string | null; limit: number };

export type OutcomeKind = "accepted" | "filtered" | "rate_limited" | "invalid" | "client_discard";
/** A count for one project, hour (ISO, truncated to the hour), data category, outcome and reason ("" for none). */
export type OutcomeIncrement = { projectId: number; hour: string; category: string; outcome: OutcomeKind; reason: string; quantity: number };

export type StoredEvent = {
  id: number;
  projectId: number;
  eventId: string;
  type: string;
  receivedAt: string;
  timestamp: string;
  platform: string;
  level: string;
  title: string;
  message: string;
  culprit: string;
  release: string | null;
  environment: string | null;
  size: number;
  /** The event as JSON text; "{}" when its stored bytes do not decode (see `unreadable`). */
  data: string;
  /** The issue the event belongs to; null for transactions. */
  issueId: number | null;
  /** Why the stored data could not be read (damaged on disk); the event still lists with its columns. */
  unreadable?: string;
};
/** An event to store, with the data category its outcome is counted in. */
export type NewEvent = Omit<StoredEvent, "id" | "issueId" | "unreadable"> & {
  category: string;
  /** events.data's bytes (event-codec.ts) when the digest made them already, while preparing its batch; `data` is then not read. */
  encoded?: Uint8Array;
};
export type NewRawItem = {
  projectId: number;
  type: string;
  eventId: string | null;
  receivedAt: string;
  headers: string;
  payload: Uint8Array;
  category: string;
  quantity: number;
};

/** An issue's status (Sentry's model: substatus and resolution say more). */
export type IssueStatus = "unresolved" | "resolved" | "ignored";
