// Helpers for the batched statements of the digest and other bulk writes, on SQLite and PostgreSQL: rows split into
// statements of a bounded size, increments summed by key (in key order, so concurrent transactions lock rows in one
// order), and the dialects' two-argument min and max for widening first/last-seen columns in upserts.
import { type RawBuilder, sql } from "kysely";
import type { Dialect } from "../db";

/** Rows per INSERT: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const ROWS_PER_STATEMENT = 100;

export function chunks<T>(items: T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Sums increments with the same key, so that one upsert statement never touches a row twice; in key order, so that
 * concurrent transactions (several nodes on PostgreSQL) lock the rows they share in the same order, not in a cycle.
 */
export function sumBy<T>(rows: T[], key: (r: T) => string, add: (into: T, from: T) => void): T[] {
  const byKey = new Map<string, T>();
  for (const r of rows) {
    const k = key(r);
    const seen = byKey.get(k);
    if (seen) add(seen, r);
    else byKey.set(k, { ...r });
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

export const minIso = (a: string, b: string) => (a < b ? a : b);
export const maxIso = (a: string, b: string) => (a > b ? a : b);

/** The dialect's scalar two-argument min and max, for widening first/last-seen columns in upserts. */
export function scalarMinMax(dialect: Dialect) {
  return {
    least: (a: RawBuilder<unknown>, b: RawBuilder<unknown>) => (dialect === "postgres" ? sql`least(${a}, ${b})` : sql`min(${a}, ${b})`),
    greatest: (a: RawBuilder<unknown>, b: RawBuilder<unknown>) => (dialect === "postgres" ? sql`greatest(${a}, ${b})` : sql`max(${a}, ${b})`),
  };
}
