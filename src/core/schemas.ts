// Input schemas shared by every entry point (server actions, the web API, the CLI).
import { z } from "zod";
import { AUTH_LIMITS, NAME_LIMITS, STORAGE_LIMITS } from "../config/limits";
import { QUOTA_CATEGORY_NAMES, type QuotaCategory } from "../protocol/categories";
import type { Quotas, RateLimit } from "../storage/records";
import { AppError } from "./errors";
import { PLATFORMS } from "./platforms";
import { ROLES } from "./roles";

/**
 * True when `s` holds a control character (C0 or DEL). No name, search value or file name means one, and NUL would
 * also fail PostgreSQL's text and jsonb columns.
 */
export const hasControlCharacters = (s: string): boolean => /[\u0000-\u001f\u007f]/.test(s);

export const slugSchema = z
  .string({ error: "Enter a slug" })
  .trim()
  .toLowerCase()
  .min(1, "Enter a slug")
  .max(NAME_LIMITS.slugMaxLength, `At most ${NAME_LIMITS.slugMaxLength} characters`)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, "Use lowercase letters, digits, dashes and underscores, starting with a letter or digit")
  .refine((s) => !/^\d+$/.test(s), "A slug cannot be only digits");

export const nameSchema = z
  .string({ error: "Enter a name" })
  .trim()
  .min(1, "Enter a name")
  .max(NAME_LIMITS.nameMaxLength, `At most ${NAME_LIMITS.nameMaxLength} characters`);
export const emailSchema = z
  .string({ error: "Enter a valid e-mail address" })
  .trim()
  .toLowerCase()
  .max(NAME_LIMITS.emailMaxLength)
  .pipe(z.email("Enter a valid e-mail address"));
export const passwordSchema = z
  .string({ error: `At least ${AUTH_LIMITS.minPasswordLength} characters` })
  .min(AUTH_LIMITS.minPasswordLength, `At least ${AUTH_LIMITS.minPasswordLength} characters`)
  .max(AUTH_LIMITS.maxPasswordLength, `At most ${AUTH_LIMITS.maxPasswordLength} characters`);
export const roleSchema = z.enum(ROLES, { error: `Role must be one of ${ROLES.join(", ")}` });
export const platformSchema = z.enum(PLATFORMS.map((p) => p.id) as [string, ...string[]], { error: "Unknown platform" });

/**
 * A row id from a URL, a query, a body or a cursor: a positive integer, or its decimal digits, that fits the id
 * columns (STORAGE_LIMITS.maxId). Every entry point reads ids through this one schema (or parseId).
 */
export const idSchema = z
  .union([
    z.int(),
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().min(1).max(STORAGE_LIMITS.maxId));

/** The id `value` names, or null when it names none: not digits, 0, or beyond what an id column holds. */
export function parseId(value: unknown): number | null {
  const r = idSchema.safeParse(value);
  return r.success ? r.data : null;
}

/** Sentry's dates (Python datetimes) span the years 0001 to 9999 in UTC; so do the dates Faultline takes. */
const FIRST_INSTANT = Date.parse("0001-01-01T00:00:00.000Z");
const LAST_INSTANT = Date.parse("9999-12-31T23:59:59.999Z");
const DATE_RANGE_MESSAGE = "Dates must fall in the years 0001 to 9999";

/** An ISO 8601 date and time with its offset ("2026-11-23T10:00:00Z", "…+01:00"), in the years 0001 to 9999 in UTC. */
export const instantSchema = z
  .string()
  .datetime({ offset: true })
  .refine((s) => Date.parse(s) >= FIRST_INSTANT && Date.parse(s) <= LAST_INSTANT, DATE_RANGE_MESSAGE);

/** Epoch seconds (the stats API's since and until), from 1970 to the end of the year 9999. */
export const epochSecondsSchema = z.coerce
  .number()
  .int()
  .min(0)
  .max(Math.floor(LAST_INSTANT / 1000), DATE_RANGE_MESSAGE);

/** Turns a display name into a slug candidate ("My App!" → "my-app"). */
export function slugify(name: string): string {
  const s = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, NAME_LIMITS.slugMaxLength);
  return s === "" || /^\d+$/.test(s) ? `x-${s}`.replace(/-$/, "") : s;
}

/**
 * A DSN key's or a project's event quota, in Sentry's key API shape: at most `count` events per `window` seconds
 * (up to 30 days); null removes it.
 */
export const rateLimitSchema = z
  .object({
    window: z
      .number()
      .int()
      .min(1, "window must be at least 1 second")
      .max(30 * 86400, "window must be at most 30 days"),
    count: z.number().int().min(0, "count must not be negative").max(1_000_000_000),
  })
  .nullable()
  .transform((v) => (v ? { count: v.count, windowSeconds: v.window } : null));

/**
 * Quotas of the data categories other than errors (protocol/categories.ts QUOTA_CATEGORIES), each in the shape of
 * `rateLimit` (attachments in bytes); a null one is removed, a category not named is left as it is.
 */
export const quotasSchema = z.partialRecord(
  z.enum(QUOTA_CATEGORY_NAMES.filter((c) => c !== "error") as [Exclude<QuotaCategory, "error">, ...Exclude<QuotaCategory, "error">[]]),
  rateLimitSchema,
);

/** The quotas after a patch from quotasSchema: named ones set, null ones removed, the rest kept. */
export function patchQuotas(current: Quotas, patch: z.output<typeof quotasSchema>): Quotas {
  const next: Quotas = { ...current };
  for (const [name, limit] of Object.entries(patch) as [keyof Quotas, RateLimit | null][]) {
    if (limit) next[name] = limit;
    else delete next[name];
  }
  return next;
}

/** Parses input or throws a bad_request AppError whose `fields` name each problem. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const fields: Record<string, string[]> = {};
  for (const issue of r.error.issues) {
    const key = issue.path.join(".") || "_";
    (fields[key] ??= []).push(issue.message);
  }
  const summary = Object.entries(fields)
    .map(([k, v]) => (k === "_" ? v.join("; ") : `${k}: ${v.join("; ")}`))
    .join("; ");
  throw new AppError("bad_request", summary, fields, true);
}
