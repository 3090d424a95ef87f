// Structured logs (issue 19, migration 0031): written by the digest in its batch transaction, read newest first per
// project with filters (level, words of the body, attribute `key:value` pairs, a time range, a trace), followed live
// by the logs page, and listed per trace across an organization's projects.

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Sentry's attribute types; values as the protocol sends them (integers beyond 2^53 as their decimal text). */
export type LogAttributeType = "string" | "boolean" | "integer" | "double";
export type LogAttribute = { type: LogAttributeType; value: string | number | boolean };

/** What was done to a line on its way in: notes of what was trimmed or dropped, and data scrubbing's remarks. */
export type LogMeta = { notes?: string[]; scrubbed?: unknown };

export type NewLog = {
  projectId: number;
  /** ISO-8601 UTC with milliseconds. */
  timestamp: string;
  receivedAt: string;
  level: LogLevel;
  severityNumber: number;
  body: string;
  attributes: Record<string, LogAttribute>;
  traceId: string | null;
  spanId: string | null;
  release: string | null;
  environment: string | null;
  meta: LogMeta | null;
};

export type StoredLog = NewLog & { id: number };

/** One search: every present field narrows it. `words` begin words of the body; `pairs` name attributes exactly. */
export type LogFilter = {
  projectId: number;
  levels?: LogLevel[];
  words?: string[];
  pairs?: { key: string; value: string }[];
  /** ISO bounds on the timestamp: from inclusive, to exclusive. */
  from?: string | null;
  to?: string | null;
  traceId?: string | null;
};

/** A position in the newest-first order: the last line of the page before. */
export type LogCursor = { timestamp: string; id: number };

export interface LogTx {
  /** Stores the lines with their search terms. */
  insertLogs(rows: NewLog[]): Promise<void>;
}

export interface LogStore {
  /** Newest first (timestamp, then id), at most `limit`, after `before` when given. */
  listLogs(filter: LogFilter, limit: number, before?: LogCursor | null): Promise<StoredLog[]>;
  /** Lines stored after the line `afterId` (arrival order, oldest first), at most `limit`: the live tail. */
  tailLogs(filter: LogFilter, afterId: number, limit: number): Promise<StoredLog[]>;
  /** The id of the last stored line of any project (0 when none): where a live tail starts. */
  lastLogId(): Promise<number>;
  /** A trace's lines in the organization's projects, oldest first, at most `limit`, with their project's slug. */
  traceLogs(organizationId: number, traceId: string, limit: number): Promise<(StoredLog & { projectSlug: string })[]>;
  /** Retention: up to `limit` lines received before `cutoff` among the lowest ids, then of projects with a shorter retention. */
  pruneLogsBefore(cutoff: string, now: string, instanceDays: number, limit: number): Promise<number>;
}
