// Helpers shared by the Kysely store modules: row mapping, unique-violation detection, keyset pages.
import type { Kysely } from "kysely";
import type { Database } from "../schema";
import type { Dialect } from "../db";
import { DuplicateError, type Page, type PageRequest, type Quotas, type RateLimit } from "../ports";

export type Ctx = { db: Kysely<Database>; dialect: Dialect };

export const nowIso = () => new Date().toISOString();

export const toBool = (v: boolean | number): boolean => v === true || v === 1;

/** SQLite has no boolean type: it stores 0 and 1. */
export const dbBool = (dialect: Dialect, v: boolean): boolean | number => (dialect === "sqlite" ? (v ? 1 : 0) : v);

/** Runs a write and turns a unique-constraint violation into DuplicateError(entity). */
export async function uniquely<T>(entity: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const e = err as { code?: string };
    // SQLite reports SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY, PostgreSQL SQLSTATE 23505.
    if (e.code === "SQLITE_CONSTRAINT_UNIQUE" || e.code === "SQLITE_CONSTRAINT_PRIMARYKEY" || e.code === "23505") {
      throw new DuplicateError(entity);
    }
    throw err;
  }
}

/**
 * Keyset cursors are the last sort key of the previous page, base64url-encoded so they are opaque in URLs.
 * The core validates their shape (core/pagination.ts) before they reach a query.
 */
export function decodeCursor(cursor: string | null | undefined): string | null {
  return cursor ? Buffer.from(cursor, "base64url").toString("utf8") : null;
}

export function toPage<T>(rows: T[], req: PageRequest, key: (row: T) => string): Page<T> {
  const items = rows.slice(0, req.limit);
  const last = items[items.length - 1];
  const nextCursor = rows.length > req.limit && last ? Buffer.from(key(last), "utf8").toString("base64url") : null;
  return { items, nextCursor };
}

export const toRateLimit = (count: number | null, windowSeconds: number | null): RateLimit | null =>
  count !== null && windowSeconds !== null ? { count, windowSeconds } : null;

/** A quotas column (JSON) as stored; anything unreadable in it counts as no quota. */
export function toQuotas(text: string | null): Quotas {
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  const out: Record<string, RateLimit> = {};
  if (typeof parsed !== "object" || parsed === null) return out;
  for (const [name, v] of Object.entries(parsed as Record<string, { count?: unknown; window?: unknown }>)) {
    if (typeof v?.count === "number" && typeof v.window === "number") out[name] = { count: v.count, windowSeconds: v.window };
  }
  return out as Quotas;
}

/** The quotas column a patch writes: nothing when absent, null when empty. */
export function quotasColumn(quotas: Quotas | undefined): { quotas?: string | null } {
  if (quotas === undefined) return {};
  const entries = Object.entries(quotas).filter((e): e is [string, RateLimit] => e[1] !== undefined);
  return {
    quotas: entries.length === 0 ? null : JSON.stringify(Object.fromEntries(entries.map(([k, v]) => [k, { count: v.count, window: v.windowSeconds }]))),
  };
}

/** The columns a rate-limit patch writes: nothing when absent, both null when cleared. */
export function rateLimitColumns(rateLimit: RateLimit | null | undefined): { rate_limit_count?: number | null; rate_limit_window?: number | null } {
  if (rateLimit === undefined) return {};
  return { rate_limit_count: rateLimit?.count ?? null, rate_limit_window: rateLimit?.windowSeconds ?? null };
}
