import { z } from "zod";
import { API_LIMITS } from "../config/limits";
import type { PageRequest } from "../storage/ports";
import { parseInput } from "./schemas";

/**
 * Cursors are base64url of the last sort key: a slug, or "slug:id" where slugs repeat across organizations, or
 * "time|id" or "count|id" for lists sorted by a time or a count (issues); an id or an offset is a number, which the
 * slug form covers.
 */
const CURSOR_KEY = /^(?:[a-z0-9][a-z0-9_-]{0,49}(:\d{1,9})?|(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z|\d{1,15})\|\d{1,15})$/;
const isCursor = (c: string) => /^[A-Za-z0-9_-]{1,120}$/.test(c) && CURSOR_KEY.test(Buffer.from(c, "base64url").toString("utf8"));

const pageSchema = z.object({
  cursor: z
    .string()
    .nullish()
    .refine((c) => !c || isCursor(c), "Invalid cursor parameter"),
  limit: z.coerce.number().int().min(1).max(API_LIMITS.maxPageSize).default(API_LIMITS.defaultPageSize),
});

export function pageRequest(input: { cursor?: string | null; limit?: unknown }): PageRequest {
  return parseInput(pageSchema, input);
}
