// Day partitions (storage/partition-ports.ts) on PostgreSQL; nothing on SQLite. Each partition is made or dropped in
// a short transaction of its own, under one advisory lock (several nodes take turns) and a lock timeout (DDL on a
// partitioned table waits for the queries that use it, and queries would queue behind the wait): a day that cannot
// be locked in time is left for the next retention pass.
//
// A day is made as PostgreSQL's documentation advises for a table with a DEFAULT partition: a plain table LIKE the
// parent, that day's rows moved into it from the DEFAULT partition, then ATTACH PARTITION, which locks the parent
// only against DDL (SHARE UPDATE EXCLUSIVE) while inserts go on, creates its indexes and foreign keys, and checks
// that the DEFAULT partition holds no more rows of the day. CREATE TABLE … PARTITION OF would lock the parent
// against every read and write instead. A day is dropped with DROP TABLE, which frees its files at once.
import { type Kysely, sql } from "kysely";
import { RETENTION_LIMITS } from "../../config/limits";
import { PARTITIONED_TABLES, type PartitionChange, type PartitionStore, type PartitionedTable } from "../partition-ports";
import type { Database } from "../schema";
import type { Ctx } from "./shared";

/** The advisory lock every node takes to change partitions: "FLDP", Faultline's day partitions. */
const PARTITION_LOCK = 0x464c4450;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day "YYYY-MM-DD". */
export function isDay(d: string): boolean {
  const t = DAY.test(d) ? Date.parse(`${d}T00:00:00.000Z`) : NaN;
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
}
export const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
export const partitionName = (table: PartitionedTable, day: string): string => `${table}_p${day.replaceAll("-", "")}`;
const dayOfPartition = (table: PartitionedTable, name: string): string | null => {
  const m = new RegExp(`^${table}_p(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
};

const none = (): PartitionChange => ({ partitions: [], rows: 0, bytes: 0 });

/** The day partitions (by name) of a table. */
async function partitionsOf(db: Kysely<Database>, table: PartitionedTable): Promise<string[]> {
  const r = await sql<{
    name: string;
  }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass(${table})`.execute(db);
  return r.rows.map((x) => x.name);
}

/**
 * Runs `work` in a transaction holding the partition lock, with DDL lock waits bounded. Attaching or dropping a
 * partition also locks the tables its foreign keys reference (projects, issues), which a digest batch may hold while
 * it waits for the partitioned table: PostgreSQL then ends one of the two (deadlock, 40P01). The batch is written
 * again by the digest; this change is tried again here, a few times, before it is left for the next pass.
 */
async function underLock<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
        await sql.raw(`set local lock_timeout = ${RETENTION_LIMITS.partitionLockTimeoutMs}`).execute(trx);
        return work(trx);
      });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if ((code !== "40P01" && code !== "55P03") || attempt >= RETENTION_LIMITS.partitionAttempts) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}

export function partitionStore({ db, dialect }: Ctx): PartitionStore {
  if (dialect !== "postgres") {
    return { ensureDayPartitions: async () => none(), daysInDefaultPartitions: async () => [], dropDayPartitionsBefore: async () => none() };
  }
  return {
    async ensureDayPartitions(days) {
      const out = none();
      const wanted = [...new Set(days.filter(isDay))].sort();
      for (const table of PARTITIONED_TABLES) {
        const have = new Set(await partitionsOf(db, table));
        for (const day of wanted) {
          const name = partitionName(table, day);
          if (have.has(name)) continue;
          await underLock(db, async (trx) => {
            // Another node may have made it while this one waited for the lock.
            const exists = await sql<{ oid: unknown }>`select to_regclass(${name}) as oid`.execute(trx);
            if (exists.rows[0]?.oid) return;
            // Writers wait on the parent table first. ATTACH only takes SHARE UPDATE EXCLUSIVE there, which lets an
            // INSERT of another node route its row to the DEFAULT partition by the partitions before the attach, wait for
            // the lock below, and then fail the partition check once the day's partition exists (SQLSTATE 23514, "new
            // row for relation … violates partition constraint": seen in CI). SHARE ROW EXCLUSIVE holds back writers
            // (ROW EXCLUSIVE) until the commit, so they route by the new partitions; readers (ACCESS SHARE) go on.
            await sql.raw(`lock table ${table} in share row exclusive mode`).execute(trx);
            // No row may reach the DEFAULT partition between the move and the attach: ATTACH takes this lock anyway
            // (to check the DEFAULT partition), so take it first.
            await sql.raw(`lock table ${table}_default in access exclusive mode`).execute(trx);
            await sql.raw(`create table ${name} (like ${table} including defaults)`).execute(trx);
            const moved = await sql
              .raw(
                `with moved as (delete from ${table}_default where received_at >= '${day}' and received_at < '${dayAfter(day)}' returning *) insert into ${name} select * from moved`,
              )
              .execute(trx);
            await sql.raw(`alter table ${table} attach partition ${name} for values from ('${day}') to ('${dayAfter(day)}')`).execute(trx);
            out.partitions.push(name);
            out.rows += Number(moved.numAffectedRows ?? 0);
          });
        }
      }
      return out;
    },

    async daysInDefaultPartitions(sinceDay, untilDay, limit) {
      const found = new Set<string>();
      for (const table of PARTITIONED_TABLES) {
        const r = await sql<{
          day: string;
        }>`select distinct left(received_at, 10) as day from ${sql.table(`${table}_default`)} where received_at >= ${sinceDay} and received_at < ${dayAfter(untilDay)} order by 1 limit ${limit}`.execute(
          db,
        );
        for (const row of r.rows) if (isDay(row.day)) found.add(row.day);
      }
      return [...found].sort().slice(0, limit);
    },

    async dropDayPartitionsBefore(cutoff, tables = PARTITIONED_TABLES) {
      const out = none();
      for (const table of tables) {
        const due = (await partitionsOf(db, table)).filter((name) => {
          const day = dayOfPartition(table, name);
          return day !== null && `${dayAfter(day)}T00:00:00.000Z` <= cutoff;
        });
        for (const name of due.sort()) {
          await underLock(db, async (trx) => {
            const size = await sql<{
              bytes: string | null;
              rows: number | null;
            }>`select pg_total_relation_size(to_regclass(${name}))::text as bytes, (select reltuples from pg_class where oid = to_regclass(${name})) as rows`.execute(
              trx,
            );
            if (size.rows[0]?.bytes == null) return;
            await sql.raw(`drop table ${name}`).execute(trx);
            out.partitions.push(name);
            out.bytes += Number(size.rows[0].bytes);
            out.rows += Math.max(0, Number(size.rows[0].rows ?? 0));
          });
        }
      }
      return out;
    },
  };
}

/**
 * Retention's bounded delete on PostgreSQL for rows outside every day partition (received on a day that had none, or
 * out of range): up to `limit` rows of the table's DEFAULT partition received before `cutoff`. The days themselves are
 * dropped whole (dropDayPartitionsBefore). Returns the deleted rows' ids.
 */
export async function pruneDefaultPartition(
  db: Kysely<Database>,
  table: "events" | "raw_items" | "spans",
  cutoff: string,
  limit: number,
): Promise<{ id: number | string }[]> {
  const part = sql.table(`${table}_default`);
  const r = await sql<{
    id: number | string;
  }>`delete from ${part} where id in (select id from ${part} where received_at < ${cutoff} limit ${limit}) returning id`.execute(db);
  return r.rows;
}

/**
 * As pruneDefaultPartition, for the rows of a table named by their event's row id (event_users, trace_events) left in
 * its DEFAULT partition; how many were deleted.
 */
export async function pruneDefaultEventRows(db: Kysely<Database>, table: "event_users" | "trace_events", cutoff: string, limit: number): Promise<number> {
  const part = sql.table(`${table}_default`);
  const r = await sql`delete from ${part} where event_row_id in (select event_row_id from ${part} where received_at < ${cutoff} limit ${limit})`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
