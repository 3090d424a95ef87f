// What migrations that remake a partitioned table read of PostgreSQL's catalog (0039, 0041).
import { type Kysely, sql } from "kysely";

/** The partitions of `table` and their bounds, as PostgreSQL prints them ("FOR VALUES FROM (…) TO (…)", "DEFAULT"). */
export async function partitionsOf(db: Kysely<unknown>, table: string): Promise<{ name: string; bound: string }[]> {
  const r = await sql<{
    name: string;
    bound: string;
  }>`select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass(${table}) order by c.relname`.execute(
    db,
  );
  return r.rows;
}
