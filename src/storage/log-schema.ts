// The logs table (migration 0031), as Kysely sees it. `search` exists on PostgreSQL only (a tsvector); SQLite keeps
// its search terms in the FTS5 table logs_fts, written with raw SQL.
import type { Generated } from "kysely";

export type LogsTable = {
  /** A string on PostgreSQL (bigserial); readers convert with Number(). */
  id: Generated<number | string>;
  project_id: number;
  timestamp: string;
  received_at: string;
  level: string;
  severity_number: number;
  body: string;
  attributes: string;
  trace_id: string | null;
  span_id: string | null;
  release: string | null;
  environment: string | null;
  meta: string | null;
};

export type LogTables = { logs: LogsTable };
