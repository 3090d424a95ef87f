import { z } from "zod";
import { API_LIMITS, NAME_LIMITS } from "../config/limits";
import type { Page, PageRequest } from "../storage/ports";
import { AppError } from "./errors";
import { parseId, parseInput } from "./schemas";

/**
 * What a list's cursor holds: base64url of the last sort key of the page before, as its store writes it. A slug
 * (organizations, teams), "slug:id" where slugs repeat across organizations (projects), an id (events, comments), an
 * offset (tag values), "time|id" (releases), "time|id" and "count|id" (issues, by their sort) or an e-mail address
 * (accounts). Each list names its kind, so that a cursor is checked for that list, its ids with parseId, before it
 * reaches a query.
 */
export type CursorKind = "slug" | "slug:id" | "id" | "offset" | "time|id" | "sort|id" | "email";

const SLUG = /^[a-z0-9][a-z0-9_-]{0,49}$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z$/;
/** A count as the issue sorts read it (times seen, users): a 64-bit column, within JavaScript's exact integers. */
const COUNT = /^\d{1,15}$/;
const OFFSET = /^\d{1,9}$/;

/** "value<separator>id", split at the last separator: the value of its shape, then an id. */
function keyed(key: string, separator: string, ...values: RegExp[]): boolean {
  const at = key.lastIndexOf(separator);
  return at > 0 && values.some((v) => v.test(key.slice(0, at))) && parseId(key.slice(at + 1)) !== null;
}

const SHAPES: Record<CursorKind, (key: string) => boolean> = {
  slug: (key) => SLUG.test(key),
  "slug:id": (key) => keyed(key, ":", SLUG),
  id: (key) => parseId(key) !== null,
  offset: (key) => OFFSET.test(key),
  "time|id": (key) => keyed(key, "|", TIME),
  "sort|id": (key) => keyed(key, "|", TIME, COUNT),
  email: (key) => key.length <= NAME_LIMITS.emailMaxLength && /^[^\s@]+@[^\s@]+$/.test(key),
};

/** characters of base64url: 120 holds every key but an e-mail address, which may be as long as an address may be. */
const maxCursorLength = (kind: CursorKind) => (kind === "email" ? Math.ceil((NAME_LIMITS.emailMaxLength * 4) / 3) : 120);
const isCursor = (cursor: string, kind: CursorKind) =>
  cursor.length <= maxCursorLength(kind) && /^[A-Za-z0-9_-]+$/.test(cursor) && SHAPES[kind](Buffer.from(cursor, "base64url").toString("utf8"));

const pageSchema = z.object({
  cursor: z.string().nullish(),
  limit: z.coerce.number().int().min(1).max(API_LIMITS.maxPageSize).default(API_LIMITS.defaultPageSize),
});

/** A page of a list whose cursors are of `kind`; a cursor of another shape is a 400, as Sentry answers it. */
export function pageRequest(kind: CursorKind, input: { cursor?: string | null; limit?: unknown }): PageRequest {
  const page = parseInput(pageSchema, input);
  if (page.cursor && !isCursor(page.cursor, kind))
    throw new AppError("bad_request", "Invalid cursor parameter", { cursor: ["Invalid cursor parameter"] }, true);
  return page;
}

/** Every item of a paged read, page after page of `limit`. */
export async function everyPage<T>(read: (page: PageRequest) => Promise<Page<T>>, limit: number): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null | undefined;
  do {
    const page = await read({ limit, cursor });
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}
