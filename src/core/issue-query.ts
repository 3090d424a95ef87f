// The issue search Sentry's issue list takes (`query=is:unresolved level:error release:1.0 some text`), parsed into
// what the store filters on. Keys Faultline does not know are refused with a message, never silently ignored.
// Assignee terms (`assigned:me`, `assigned:#team`, `assigned:[me, none]`, `is:assigned`) name people and teams; the
// core resolves them against the organization (core/issue-assignees.ts).
import { STREAM_LIMITS } from "../config/limits";
import { AppError } from "./errors";
import type { IssueFilter } from "../storage/issue-ports";

const STATUS_ALIASES: Record<string, IssueFilter["status"]> = {
  unresolved: "unresolved",
  resolved: "resolved",
  ignored: "ignored",
  archived: "ignored",
  muted: "ignored",
};
const LEVELS = new Set(["fatal", "error", "warning", "info", "debug"]);
/** Tag keys a search may name directly, as Sentry's issue search takes them. */
const TAG_KEYS = new Set([
  "release",
  "environment",
  "browser",
  "browser.name",
  "os",
  "os.name",
  "url",
  "transaction",
  "user",
  "handled",
  "mechanism",
  "logger",
  "server_name",
  "digest",
]);

/**
 * One alternative of an assignee search: `me`, `my_teams`, `none` (nobody), `any` (`is:assigned`), a team by slug
 * (`#backend`), or a user by e-mail or id.
 */
export type AssigneeTerm = { kind: "me" | "my_teams" | "none" | "any" } | { kind: "team"; slug: string } | { kind: "user"; name: string };

/** The search with assignee terms still unresolved: each group's terms are alternatives, the groups all hold. */
export type IssueQuery = Omit<IssueFilter, "assignee" | "environments"> & { assigned: AssigneeTerm[][] };

/** Counts the characters a scan reads (tests check that a search is read in linear time). */
export type ScanMeter = { steps: number };

const SPACE = /\s/;

/**
 * Where the next `ch` is at or after a position, for positions that never decrease: each search continues where the
 * last one stopped, so all of them together read the text once.
 */
function nextOf(text: string, ch: string, meter: ScanMeter) {
  let found: number | null = null;
  return (from: number): number => {
    if (found === -1 || (found !== null && found >= from)) return found;
    for (let k = Math.max(from, found === null ? 0 : found + 1); k < text.length; k++) {
      meter.steps++;
      if (text[k] === ch) return (found = k);
    }
    return (found = -1);
  };
}

/**
 * Splits on spaces outside double quotes and brackets; quotes are removed. A token is a run of plain characters,
 * `"…"` and `[…]` pieces; a `"` or `[` that is never closed separates tokens. In one pass, each character read a
 * bounded number of times (it was a regular expression whose backtracking made `[[[[…` quadratic).
 */
export function searchTokens(query: string, meter: ScanMeter = { steps: 0 }): string[] {
  const out: string[] = [];
  const quote = nextOf(query, '"', meter);
  const close = nextOf(query, "]", meter);
  const plain = (c: string) => c !== '"' && c !== "[" && !SPACE.test(c);
  let i = 0;
  while (i < query.length) {
    let j = i;
    for (;;) {
      const c = query[j];
      if (c === undefined) break;
      meter.steps++;
      if (c === '"' || c === "[") {
        const end = (c === '"' ? quote : close)(j + 1);
        if (end < 0) break;
        j = end + 1;
      } else if (plain(c)) {
        j++;
      } else break;
    }
    if (j > i) out.push(query.slice(i, j).replace(/"/g, ""));
    i = j > i ? j : i + 1;
  }
  return out;
}

function assigneeTerm(value: string): AssigneeTerm {
  if (value === "me" || value === "my_teams" || value === "none") return { kind: value };
  if (value.startsWith("#") && value.length > 1) return { kind: "team", slug: value.slice(1) };
  return { kind: "user", name: value };
}

/** `[a, b]` is a list of alternatives (Sentry's search syntax); anything else one value. */
function values(value: string): string[] {
  if (!value.startsWith("[") || !value.endsWith("]")) return [value];
  const list = value
    .slice(1, -1)
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
  if (list.length === 0) throw new AppError("bad_request", `Empty list in "${value}"`);
  if (list.length > STREAM_LIMITS.maxQueryTerms)
    throw new AppError("bad_request", `A list of more than ${STREAM_LIMITS.maxQueryTerms} values in "${value.slice(0, 40)}…"`);
  return list;
}

/**
 * `query` as Sentry's issue list reads it; a missing query means `is:unresolved`, an empty one means everything. A
 * search longer than STREAM_LIMITS.maxQueryLength is refused before it is read, one of more than maxQueryTerms terms
 * once it is split into them.
 */
export function parseIssueQuery(query: string | null): IssueQuery {
  const filter: IssueQuery = { status: null, level: null, tags: [], text: [], assigned: [] };
  if (query !== null && query.length > STREAM_LIMITS.maxQueryLength)
    throw new AppError("bad_request", `The search is longer than ${STREAM_LIMITS.maxQueryLength} characters`);
  // No issue's text holds one, and PostgreSQL refuses it in a statement (a 500 on the pages and the live stream).
  if (query?.includes("\u0000")) throw new AppError("bad_request", "The search must not contain NUL characters");
  const tokens = searchTokens(query ?? "is:unresolved");
  if (tokens.length > STREAM_LIMITS.maxQueryTerms) throw new AppError("bad_request", `The search has more than ${STREAM_LIMITS.maxQueryTerms} terms`);
  for (const token of tokens) {
    const colon = token.indexOf(":");
    const key = colon > 0 ? token.slice(0, colon) : null;
    const value = colon > 0 ? token.slice(colon + 1) : token;
    if (key === null || value === "") {
      filter.text.push(token);
    } else if (key === "is" && (value === "assigned" || value === "unassigned")) {
      filter.assigned.push([{ kind: value === "assigned" ? "any" : "none" }]);
    } else if (key === "is") {
      // Own keys only: "is:constructor" names no status.
      if (!Object.hasOwn(STATUS_ALIASES, value)) throw new AppError("bad_request", `Unknown issue status in "is:${value}"`);
      filter.status = STATUS_ALIASES[value]!;
    } else if (key === "assigned") {
      filter.assigned.push(values(value).map(assigneeTerm));
    } else if (key === "level") {
      if (!LEVELS.has(value)) throw new AppError("bad_request", `Unknown level "${value}"`);
      filter.level = value;
    } else if (TAG_KEYS.has(key) || key.startsWith("tags[")) {
      if (value.startsWith("[")) throw new AppError("bad_request", `Lists of values are supported for assigned: only, not in "${token}"`);
      filter.tags.push([key.startsWith("tags[") ? key.slice(5, -1) : key, value]);
    } else {
      throw new AppError("bad_request", `Unsupported search key "${key}"`);
    }
  }
  return filter;
}
