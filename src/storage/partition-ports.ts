// Day partitions of the per-event tables (issue 21, migrations 0029 and 0041): on PostgreSQL events, event_users,
// trace_events, spans and raw_items are partitioned by UTC day of arrival (received_at), with a DEFAULT partition for
// any row outside the days made; retention (digest/retention.ts) makes the coming days' partitions and drops whole
// days past the instance's retention, which frees their space at once. On SQLite there are no partitions: both calls
// do nothing and retention deletes rows (retention-ports.ts).

/** The partitioned tables, in the order their partitions are made and dropped. */
export const PARTITIONED_TABLES = ["events", "event_users", "trace_events", "spans", "raw_items"] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

export type PartitionChange = {
  /** Partitions made or dropped, by name (`events_p20261123`). */
  partitions: string[];
  /**
   * Rows moved out of a DEFAULT partition into the day made for them (made), or PostgreSQL's estimate of the rows
   * dropped (pg_class.reltuples; 0 for a table it has not analyzed yet).
   */
  rows: number;
  /** Bytes on disk of the partitions dropped (tables, indexes and TOAST), given back at once; 0 when making. */
  bytes: number;
};

export interface PartitionStore {
  /**
   * Makes each table's partition of each day ("YYYY-MM-DD") it lacks, moving that day's rows out of the DEFAULT
   * partition into it. Several nodes may call it at once: they take turns, and the later one finds the work done.
   */
  ensureDayPartitions(days: string[]): Promise<PartitionChange>;
  /**
   * Days ("YYYY-MM-DD", at most `limit`, oldest first) from `sinceDay` up to `untilDay` (inclusive) that have rows in a
   * DEFAULT partition.
   */
  daysInDefaultPartitions(sinceDay: string, untilDay: string, limit: number): Promise<string[]>;
  /** Drops every day partition (of `tables`, by default all) whose whole day is before `cutoff` (ISO): its day ends at or before it. */
  dropDayPartitionsBefore(cutoff: string, tables?: readonly PartitionedTable[]): Promise<PartitionChange>;
}
