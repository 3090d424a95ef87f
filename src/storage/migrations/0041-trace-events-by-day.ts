// PostgreSQL only (issue 21: storage that stays small): trace_events, the link of a stored event to its trace
// (migration 0040), becomes partitioned by the event's day of arrival like the events themselves (migration 0029), so
// that retention drops its days with theirs (kysely/partitions.ts) instead of deleting its rows by arrival, which
// freed no space and read an index kept only for it. SQLite is unchanged: there the link goes with its event by
// foreign key.
//
// The new table takes the events' partitions' bounds, under its own names (events_p20261123 → trace_events_p20261123,
// events_default → trace_events_default), so the retention pass goes on making and dropping each day of both. Its
// primary key gains received_at, as a partitioned table's must; the index by arrival goes (partitions replace it).
// Links are carried over as they are.
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../db";
import { partitionsOf } from "./partitions-of";

async function postgres(db: Kysely<unknown>): Promise<void> {
  await sql`alter table trace_events rename to trace_events_unpartitioned`.execute(db);
  // Index names are the schema's: the old table's step aside for the new one's.
  await sql`drop index trace_events_trace_idx`.execute(db);
  await sql`drop index trace_events_project_idx`.execute(db);
  await sql`drop index trace_events_received_idx`.execute(db);
  await sql`create table trace_events (
    event_row_id bigint not null,
    trace_id text not null,
    project_id integer not null,
    received_at text not null
  ) partition by range (received_at)`.execute(db);
  for (const p of await partitionsOf(db, "events")) {
    if (!p.name.startsWith("events_")) continue;
    await sql.raw(`create table trace_${p.name} partition of trace_events ${p.bound}`).execute(db);
  }
  await sql`insert into trace_events (event_row_id, trace_id, project_id, received_at)
    select event_row_id, trace_id, project_id, received_at from trace_events_unpartitioned`.execute(db);
  await sql`drop table trace_events_unpartitioned`.execute(db);
  await sql`alter table trace_events add constraint trace_events_pk primary key (event_row_id, received_at)`.execute(db);
  await sql`alter table trace_events add constraint trace_events_project_id_fkey foreign key (project_id) references projects (id) on delete cascade`.execute(
    db,
  );
  await sql`create index trace_events_project_idx on trace_events (project_id)`.execute(db);
  await sql`create index trace_events_trace_idx on trace_events (trace_id)`.execute(db);
  // Autovacuum never analyzes a partitioned table itself: its planner statistics start here.
  await sql`analyze trace_events`.execute(db);
}

export function traceEventsByDay(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") await postgres(db);
    },
  };
}
