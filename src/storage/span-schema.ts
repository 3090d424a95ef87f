// The tables of performance monitoring (migration 0013), as Kysely sees them.
import type { ColumnType, Generated } from "kysely";

export type SpansTable = {
  id: Generated<number>;
  project_id: number;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  segment_id: string | null;
  /** 0/1 on SQLite. */
  is_segment: boolean | number;
  transaction: string;
  op: string;
  description: string;
  status: string;
  start_time: string;
  duration_ms: number;
  environment: string | null;
  release: string | null;
  event_id: string | null;
  received_at: string;
};

export type SpanHoursTable = {
  project_id: number;
  metric: string;
  hour: string;
  transaction: string;
  count: number | string;
  failures: number | string;
  sum: number;
  good: number | string;
  poor: number | string;
};

export type SpanHourBucketsTable = { project_id: number; metric: string; hour: string; transaction: string; bucket: number; count: number | string };

/**
 * A stored event's trace (migration 0040), named by its events.id. project_id and received_at are PostgreSQL's only,
 * where the link cannot go with its event by foreign key: it is partitioned by its event's day (migration 0041).
 */
export type TraceEventsTable = {
  event_row_id: number;
  trace_id: string;
  project_id: ColumnType<number, number | undefined, never>;
  received_at: ColumnType<string, string | undefined, never>;
};

export type SpanTables = { spans: SpansTable; span_hours: SpanHoursTable; span_hour_buckets: SpanHourBucketsTable; trace_events: TraceEventsTable };
