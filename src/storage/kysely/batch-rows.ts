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

/** Orders [key, row] entries by key. */
const byEntryKey = <T>([a]: [string, T], [b]: [string, T]): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Sums increments with the same key, so that one upsert statement never touches a row twice; in key order, so that
 * concurrent transactions (several nodes on PostgreSQL) lock the rows they share in the same order, not in a cycle.
 *
 * Pass `key` and `add` as functions made once, at module level, not as arrows written in the call; the same holds for
 * any callback the digest runs per record. Its optimized code did not outlive the closures made for one batch: under
 * --trace-opt, bench:digest's replay optimized each such arrow again about once a batch (50 times in 25 s, 2,151
 * TurboFan compilations in all, against 999 with the hot ones at module level), each time after running it
 * unoptimized for a while.
 */
export function sumBy<T>(rows: T[], key: (r: T) => string, add: (into: T, from: T) => void): T[] {
  const byKey = new Map<string, T>();
  for (const r of rows) {
    const k = key(r);
    const seen = byKey.get(k);
    if (seen) add(seen, r);
    else byKey.set(k, { ...r });
  }
  const entries = [...byKey.entries()].sort(byEntryKey);
  const out = new Array<T>(entries.length);
  for (let i = 0; i < entries.length; i++) out[i] = entries[i]![1];
  return out;
}

/** sumBy's `key` for rows of a project's release. */
export const projectVersionKey = (r: { projectId: number; version: string }) => `${r.projectId}\u0000${r.version}`;
/** sumBy's `add` for rows that only count. */
export const addCount = (into: { count: number }, from: { count: number }) => void (into.count += from.count);
/** sumBy's `add` for rows that only need to be there once. */
export const keepFirst = () => undefined;
/** A sighting at `seen` as the range it widens (sumBy with `widenSeen`). */
export const seenRange = <R extends { seen: string }>(r: R): R & { first: string; last: string } => ({ ...r, first: r.seen, last: r.seen });
/** sumBy's `add` for seenRange rows: the earliest first and the latest last. */
export function widenSeen(into: { first: string; last: string }, from: { first: string; last: string }): void {
  if (from.first < into.first) into.first = from.first;
  if (from.last > into.last) into.last = from.last;
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
