// A person's data in a fifth of the bytes (issue 22's disk target): event_users keeps one row per stored event, named
// by the event's row id (events.id), with the parts of its user object in columns, instead of one row per part named
// by the 32-character event id. On SQLite the row id is the table's own (INTEGER PRIMARY KEY: no second copy of the
// key in an index), and the rows go with their event by foreign key, whatever deletes it (retention, an issue, a
// project, an erasure). Measured by bench:storage on its 5 KB browser error (a user id, an e-mail and an IP address):
// 671 bytes per event before, in the table, its primary key and two indexes.
//
// user_key is the key the event's issue counted its user by ("id:…", "email:…"; digest/event-facts.ts userKey), kept
// only when it is not the first part present with its prefix, which it nearly always is: a reader derives it otherwise.
// Each part has a partial index (only the events that have it), which finds a person's events by value.
//
// PostgreSQL keeps event_users partitioned by the event's day (migration 0029) with the same columns, and keeps the
// project and issue foreign keys (events are partitioned there, and a partition with rows referencing it could not be
// dropped by retention), with an index each, so an issue's or project's deletion finds its rows.
//
// Rows are carried over: one per event that had any, the parts gathered from their rows, the key kept when it differs.
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../db";
import { partitionsOf } from "./partitions-of";

const PARTS = ["user_id", "email", "username", "ip"] as const;

/** SELECT of the new rows from the old table `old`, joined to their events (a row whose event is gone is left). */
function gathered(old: string, postgres: boolean): string {
  const part = (field: string) => `max(case when u.field = '${field}' then u.value end)`;
  const derived = `case when ${part("id")} is not null then 'id:' || ${part("id")} when ${part("email")} is not null then 'email:' || ${part("email")} when ${part("username")} is not null then 'username:' || ${part("username")} when ${part("ip")} is not null then 'ip:' || ${part("ip")} end`;
  return `select e.id, e.project_id, e.issue_id, ${part("id")}, ${part("email")}, ${part("username")}, ${part("ip")}, nullif(${part("key")}, ${derived})${postgres ? ", e.received_at" : ""}
    from ${old} u join events e on e.project_id = u.project_id and e.event_id = u.event_id${postgres ? " and e.received_at = u.received_at" : ""}
    group by e.id, e.project_id, e.issue_id${postgres ? ", e.received_at" : ""}`;
}

async function indexes(db: Kysely<unknown>): Promise<void> {
  for (const column of [...PARTS, "user_key"])
    await sql.raw(`create index event_users_${column}_idx on event_users (${column}) where ${column} is not null`).execute(db);
}

async function sqlite(db: Kysely<unknown>): Promise<void> {
  await sql`alter table event_users rename to event_users_by_field`.execute(db);
  await sql`create table event_users (
    event_row_id integer primary key references events (id) on delete cascade,
    project_id integer not null,
    issue_id integer,
    user_id text, email text, username text, ip text,
    user_key text
  )`.execute(db);
  await sql.raw(`insert into event_users ${gathered("event_users_by_field", false)}`).execute(db);
  await sql`drop table event_users_by_field`.execute(db);
  await indexes(db);
}

async function postgres(db: Kysely<unknown>): Promise<void> {
  // The old table and its partitions step aside; the new one takes the same partitions' names and bounds, which the
  // retention pass (kysely/partitions.ts) goes on making and dropping by day.
  const parts = await partitionsOf(db, "event_users");
  await sql`alter table event_users rename to event_users_by_field`.execute(db);
  for (const p of parts) await sql.raw(`alter table ${p.name} rename to ${p.name}_by_field`).execute(db);
  await sql`create table event_users (
    event_row_id bigint not null,
    project_id integer not null,
    issue_id integer,
    user_id text, email text, username text, ip text,
    user_key text,
    received_at text not null
  ) partition by range (received_at)`.execute(db);
  for (const p of parts) await sql.raw(`create table ${p.name} partition of event_users ${p.bound}`).execute(db);
  await sql.raw(`insert into event_users ${gathered("event_users_by_field", true)}`).execute(db);
  await sql`drop table event_users_by_field`.execute(db);
  await sql`alter table event_users add constraint event_users_pk primary key (event_row_id, received_at)`.execute(db);
  await sql`alter table event_users add constraint event_users_project_id_fkey foreign key (project_id) references projects (id) on delete cascade`.execute(db);
  await sql`alter table event_users add constraint event_users_issue_id_fkey foreign key (issue_id) references issues (id) on delete cascade`.execute(db);
  await sql`create index event_users_project_idx on event_users (project_id)`.execute(db);
  await sql`create index event_users_issue_idx on event_users (issue_id)`.execute(db);
  await indexes(db);
  await sql`analyze event_users`.execute(db);
}

export function eventUsersPerEvent(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await (dialect === "postgres" ? postgres(db) : sqlite(db));
    },
  };
}
