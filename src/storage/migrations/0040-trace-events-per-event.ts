// The trace link of a stored event (the trace view's errors, migration 0013) in a third of the bytes (issue 22's disk
// target): trace_events is named by the event's row id (events.id) and holds its trace id, instead of the trace id,
// project, 32-character event id, issue and arrival under a primary key of the first three. Measured by bench:storage
// on its 5 KB browser error: 222 bytes per event before, in the table, its primary key and the index by arrival.
//
// On SQLite the row id is the table's own (INTEGER PRIMARY KEY) and the link goes with its event by foreign key
// (retention, an issue's or a project's deletion, an erasure), so it needs no arrival and no index of it. PostgreSQL's
// events are partitioned and cannot be referenced so: there the link keeps its project (foreign key, with an index) and
// its arrival, by which retention deletes it (spans.ts pruneSpanHoursBefore), as before.
//
// Links are carried over, one per event still stored; a link whose event is gone is left.
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../db";

export function traceEventsPerEvent(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`alter table trace_events rename to trace_events_by_trace`.execute(db);
      // The old table's indexes keep their names on SQLite; PostgreSQL renames none either.
      await sql`drop index trace_events_received_idx`.execute(db);
      if (dialect === "postgres") {
        await sql`alter table trace_events_by_trace drop constraint trace_events_pkey`.execute(db);
        await sql`create table trace_events (
          event_row_id bigint primary key,
          trace_id text not null,
          project_id integer not null references projects (id) on delete cascade,
          received_at text not null
        )`.execute(db);
        await sql`insert into trace_events select distinct on (e.id) e.id, t.trace_id, e.project_id, e.received_at
          from trace_events_by_trace t join events e on e.project_id = t.project_id and e.event_id = t.event_id order by e.id`.execute(db);
        await sql`create index trace_events_project_idx on trace_events (project_id)`.execute(db);
        await sql`create index trace_events_received_idx on trace_events (received_at)`.execute(db);
      } else {
        await sql`create table trace_events (
          event_row_id integer primary key references events (id) on delete cascade,
          trace_id text not null
        )`.execute(db);
        await sql`insert into trace_events select e.id, min(t.trace_id)
          from trace_events_by_trace t join events e on e.project_id = t.project_id and e.event_id = t.event_id group by e.id`.execute(db);
      }
      await sql`drop table trace_events_by_trace`.execute(db);
      await sql`create index trace_events_trace_idx on trace_events (trace_id)`.execute(db);
    },
  };
}
