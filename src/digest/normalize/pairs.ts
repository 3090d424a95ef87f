// Pair lists (relay-event-schema protocol/types.rs `PairList`: an object or an array of `[key, value]` pairs) and
// the stored form of tags (relay-event-normalization event.rs `normalize_event_tags`).
import { ErrorSink, path } from "./errors";
import { charCount, isObject, type JsonObject } from "./json";
import { MAX_CHARS_OR_REMOVE } from "./limits";
import { lenientString } from "./strings";

export type Pair = [string, string];

/**
 * Reads an object or an array of pairs into `[key, value]` string pairs. Values go through `LenientString`; a pair
 * that is not a two-item array with a string key is removed with `invalid_data`.
 */
export function toPairs(raw: unknown, name: string, sink: ErrorSink): Pair[] | undefined {
  const entries: [unknown, unknown, string][] = [];
  if (isObject(raw)) {
    for (const [k, v] of Object.entries(raw)) entries.push([k, v, path(name, k)]);
  } else if (Array.isArray(raw)) {
    raw.forEach((item, i) => {
      if (Array.isArray(item) && item.length === 2) entries.push([item[0], item[1], path(name, i)]);
      else if (item !== null) sink.add("invalid_data", path(name, i), item, { reason: "expected a tuple" });
    });
  } else {
    if (raw !== null && raw !== undefined) sink.add("invalid_data", name, raw, { reason: "expected a pair list" });
    return undefined;
  }
  const pairs: Pair[] = [];
  for (const [k, v, where] of entries) {
    if (v === null || v === undefined) continue;
    const value = lenientString(v);
    if (typeof k !== "string" || value === undefined) {
      sink.add("invalid_data", where, [k, v], { reason: "expected a string pair" });
      continue;
    }
    pairs.push([k, value]);
  }
  return pairs;
}

/** Tag keys Relay removes because Sentry sets them itself. */
const RESERVED_TAGS = new Set(["release", "dist", "user", "filename", "function"]);

/**
 * Relay's `normalize_event_tags`: tags become `[[key, value], ...]`; an `environment` tag fills a missing
 * `environment`; reserved keys are removed; duplicates keep the first; empty keys or values (`invalid_data`) and
 * keys or values over 200 code points (`value_too_long`) are removed; `server_name` and `site` move into tags.
 */
export function normalizeTags(event: JsonObject, sink: ErrorSink): void {
  const pairs = "tags" in event ? (toPairs(event.tags, "tags", sink) ?? []) : [];
  const kept: Pair[] = [];
  const seen = new Set<string>();
  pairs.forEach(([key, value], i) => {
    if (key === "environment") {
      if (event.environment === undefined || event.environment === "") event.environment = value;
      return;
    }
    if (RESERVED_TAGS.has(key) || seen.has(key)) return;
    seen.add(key);
    if (key === "" || value === "") {
      sink.add("invalid_data", path("tags", i), [key, value], { reason: "expected a non-empty value" });
      return;
    }
    if (charCount(key) > MAX_CHARS_OR_REMOVE.tagKey || charCount(value) > MAX_CHARS_OR_REMOVE.tagValue) {
      sink.add("value_too_long", path("tags", i), [key, value]);
      return;
    }
    kept.push([key, value]);
  });
  for (const moved of ["server_name", "site"]) {
    const value = event[moved];
    if (typeof value !== "string") continue;
    delete event[moved];
    // An empty one is no tag (tags need a value), so that normalizing the output again changes nothing.
    if (value.trim() === "") continue;
    const at = kept.findIndex(([k]) => k === moved);
    if (at >= 0) kept[at] = [moved, value];
    else kept.push([moved, value]);
  }
  if (kept.length > 0) event.tags = kept;
  else delete event.tags;
}

/** Parses a `Cookie` header or cookies string: `a=1; b=2` (relay-event-schema protocol/request.rs `Cookies::parse`). */
export function parseCookies(text: string): Pair[] {
  const pairs: Pair[] = [];
  for (const part of text.split(";")) {
    const trimmed = part.trim();
    if (trimmed === "") continue;
    const eq = trimmed.indexOf("=");
    if (eq < 0) pairs.push([trimmed, ""]);
    else pairs.push([trimmed.slice(0, eq).trim(), trimmed.slice(eq + 1).trim()]);
  }
  return pairs;
}

/** Parses a query string (`a=1&b=2`, with or without a leading `?`) into pairs, URL-decoded. */
export function parseQuery(text: string): Pair[] {
  const stripped = text.startsWith("?") ? text.slice(1) : text;
  return [...new URLSearchParams(stripped)].map(([k, v]) => [k, v] as Pair);
}
