// The issue search Sentry's issue list takes (`query=is:unresolved level:error release:1.0 some text`), parsed into
// what the store filters on. Keys Faultline does not know are refused with a message, never silently ignored.
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
const TAG_KEYS = new Set(["release", "environment", "browser", "browser.name", "os", "os.name", "url", "transaction", "user", "handled", "mechanism", "logger", "server_name"]);

/** Splits on spaces outside double quotes; quotes are removed. */
function tokens(query: string): string[] {
  return (query.match(/(?:[^\s"]+|"[^"]*")+/g) ?? []).map((t) => t.replace(/"/g, ""));
}

/** `query` as Sentry's issue list reads it; a missing query means `is:unresolved`, an empty one means everything. */
export function parseIssueQuery(query: string | null): IssueFilter {
  const filter: IssueFilter = { status: null, level: null, tags: [], text: [] };
  for (const token of tokens(query ?? "is:unresolved")) {
    const colon = token.indexOf(":");
    const key = colon > 0 ? token.slice(0, colon) : null;
    const value = colon > 0 ? token.slice(colon + 1) : token;
    if (key === null || value === "") {
      filter.text.push(token);
    } else if (key === "is") {
      if (!(value in STATUS_ALIASES)) throw new AppError("bad_request", `Unknown issue status in "is:${value}"`);
      filter.status = STATUS_ALIASES[value]!;
    } else if (key === "level") {
      if (!LEVELS.has(value)) throw new AppError("bad_request", `Unknown level "${value}"`);
      filter.level = value;
    } else if (TAG_KEYS.has(key) || key.startsWith("tags[")) {
      filter.tags.push([key.startsWith("tags[") ? key.slice(5, -1) : key, value]);
    } else {
      throw new AppError("bad_request", `Unsupported search key "${key}"`);
    }
  }
  return filter;
}
