import { z } from "zod";
import { API_LIMITS } from "../config/limits";
import type { PageRequest } from "../storage/ports";
import { parseInput } from "./schemas";

const pageSchema = z.object({
  cursor: z.string().max(512).nullish(),
  limit: z.coerce.number().int().min(1).max(API_LIMITS.maxPageSize).default(API_LIMITS.defaultPageSize),
});

export function pageRequest(input: { cursor?: string | null; limit?: unknown }): PageRequest {
  return parseInput(pageSchema, input);
}
