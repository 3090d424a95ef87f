// Storage that stays small (issue 21), PostgreSQL only: the per-event tables become partitioned by UTC day of arrival
// (declarative partitioning, PARTITION BY RANGE (received_at)), so that retention drops a whole day's partition, which
// frees its disk space at once and costs no row deletes. SQLite is unchanged (it keeps bounded deletes and
// `faultline vacuum`).
//
// events, event_users (which gains the event's received_at, so its rows go with their events' day), spans and
// raw_items: each is renamed away, made again as a partitioned table with the same columns (LIKE … INCLUDING
// DEFAULTS: the id sequences carry on), given a partition for every day it holds data of and for today and the three
// days after, plus a DEFAULT partition that takes any row outside them (a row is never refused), filled from the old
// table and given back its keys, indexes and foreign keys. A primary key or unique constraint of a partitioned table
// must include the partition key, so each gains received_at: events' (project_id, event_id) uniqueness becomes
// (project_id, event_id, received_at), and the digest finds duplicates by reading and locking event ids
// (kysely/digest-tx.ts). Nothing references these tables by foreign key.
//
// Frozen once released: the partitions of later days are made by the retention pass (kysely/partitions.ts), with the
// same names and bounds as here.
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../db";

type Spec = {
  table: string;
  /** Extra column of the new table (event_users' received_at) and the SELECT that fills it from the old one. */
  fill?: { column: string; select: string };
  keys: string[];
  indexes: string[];
  foreignKeys: string[];
};

const SPECS: Spec[] = [
  {
    table: "events",
    keys: ["constraint events_pkey primary key (id, received_at)", "constraint events_project_event_id_key unique (project_id, event_id, received_at)"],
    indexes: [
      "events_project_id_id_idx on events (project_id, id)",
      "events_issue_id_idx on events (issue_id, id)",
      "events_project_release_idx on events (project_id, release, environment)",
      "events_project_received_idx on events (project_id, received_at)",
    ],
    foreignKeys: [
      "events_project_id_fkey foreign key (project_id) references projects (id) on delete cascade",
      "events_issue_id_fkey foreign key (issue_id) references issues (id) on delete cascade",
    ],
  },
  {
    // A row whose event is gone (none should be) names no day: it is left behind.
    table: "event_users",
    fill: {
      column: "received_at text not null",
      select:
        "select u.project_id, u.event_id, u.issue_id, u.field, u.value, e.received_at from event_users_unpartitioned u join events e on e.project_id = u.project_id and e.event_id = u.event_id",
    },
    keys: ["constraint event_users_pk primary key (project_id, event_id, field, received_at)"],
    indexes: ["event_users_value_idx on event_users (value, field)", "event_users_issue_idx on event_users (issue_id, field, value)"],
    foreignKeys: [
      "event_users_project_id_fkey foreign key (project_id) references projects (id) on delete cascade",
      "event_users_issue_id_fkey foreign key (issue_id) references issues (id) on delete cascade",
    ],
  },
  {
    table: "spans",
    keys: ["constraint spans_pkey primary key (id, received_at)"],
    indexes: ["spans_trace_idx on spans (trace_id, start_time)", "spans_project_segment_idx on spans (project_id, is_segment, transaction, start_time)"],
    foreignKeys: ["spans_project_id_fkey foreign key (project_id) references projects (id) on delete cascade"],
  },
  {
    table: "raw_items",
    keys: ["constraint raw_items_pkey primary key (id, received_at)"],
    indexes: ["raw_items_project_type_idx on raw_items (project_id, type, id)"],
    foreignKeys: ["raw_items_project_id_fkey foreign key (project_id) references projects (id) on delete cascade"],
  },
];

/** Days made ahead of today (today included: 0…AHEAD). */
const AHEAD = 3;

/** A real calendar day "YYYY-MM-DD" (not "2026-02-30"); any other received_at stays in the DEFAULT partition. */
const isDay = (d: string) => {
  const t = Date.parse(`${d}T00:00:00.000Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
};
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

async function convert(db: Kysely<unknown>, spec: Spec, today: string): Promise<void> {
  const t = spec.table;
  const old = `${t}_unpartitioned`;
  await sql.raw(`alter table ${t} rename to ${old}`).execute(db);
  const extra = spec.fill ? `, ${spec.fill.column}` : "";
  await sql.raw(`create table ${t} (like ${old} including defaults${extra}) partition by range (received_at)`).execute(db);
  if (!spec.fill) {
    // The id sequence belongs to the old table's column, and would be dropped with it.
    const seq = await sql<{ seq: string }>`select pg_get_serial_sequence(${old}, 'id') as seq`.execute(db);
    await sql.raw(`alter sequence ${seq.rows[0]!.seq} owned by ${t}.id`).execute(db);
  }
  await sql.raw(`create table ${t}_default partition of ${t} default`).execute(db);
  // Every day the old rows arrived on (event_users: their events'), and today and the days ahead.
  const source = spec.fill ? "events" : old;
  const found = await sql<{
    day: string;
  }>`select distinct left(received_at, 10) as day from ${sql.table(source)} where received_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T'`.execute(db);
  const days = new Set(found.rows.map((r) => r.day).filter(isDay));
  for (let i = 0, d = today; i <= AHEAD; i++, d = dayAfter(d)) days.add(d);
  for (const day of [...days].sort()) {
    const name = `${t}_p${day.replaceAll("-", "")}`;
    await sql.raw(`create table ${name} partition of ${t} for values from ('${day}') to ('${dayAfter(day)}')`).execute(db);
  }
  await sql.raw(`insert into ${t} ${spec.fill ? spec.fill.select : `select * from ${old}`}`).execute(db);
  await sql.raw(`drop table ${old}`).execute(db);
  for (const key of spec.keys) await sql.raw(`alter table ${t} add ${key}`).execute(db);
  for (const index of spec.indexes) await sql.raw(`create index ${index}`).execute(db);
  for (const fk of spec.foreignKeys) await sql.raw(`alter table ${t} add constraint ${fk}`).execute(db);
  // Autovacuum never analyzes a partitioned table itself: its planner statistics start here.
  await sql.raw(`analyze ${t}`).execute(db);
}

export function dayPartitions(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== "postgres") return;
      const today = new Date().toISOString().slice(0, 10);
      for (const spec of SPECS) await convert(db, spec, today);
    },
  };
}
