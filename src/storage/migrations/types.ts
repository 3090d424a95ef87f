// Column types that differ between SQLite and PostgreSQL, so migrations read the same for both.
import { type ColumnDefinitionBuilder, sql } from "kysely";
import type { Dialect } from "../db";

export function dialectTypes(dialect: Dialect) {
  const pg = dialect === "postgres";
  return {
    bool: pg ? ("boolean" as const) : ("integer" as const),
    true: pg ? sql`true` : sql`1`,
    false: pg ? sql`false` : sql`0`,
    /** better-auth writes Date objects on PostgreSQL and ISO strings on SQLite. */
    timestamp: pg ? ("timestamptz" as const) : ("date" as const),
    /** Raw bytes (payloads kept as sent). */
    blob: pg ? ("bytea" as const) : ("blob" as const),
    /** 64-bit counters; PostgreSQL returns them as strings, so readers convert with Number(). */
    bigint: pg ? ("bigint" as const) : ("integer" as const),
    serial: pg ? ("serial" as const) : ("integer" as const),
    serialPk: (c: ColumnDefinitionBuilder) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()),
  };
}
