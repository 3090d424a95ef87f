// JSON as SDKs write it. sentry-python (and raven-python) may put NaN and ±Infinity in store bodies; Relay repairs
// them for those clients (json_forensics). Faultline parses strictly first and repairs only when that fails.
import { INGEST_LIMITS } from "../config/limits";
import { ProtocolError } from "./errors";

/** Rewrites bare NaN, Infinity and -Infinity tokens (outside strings) to null; null when there were none. */
function repairNonFiniteNumbers(text: string): string | null {
  let out = "";
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      continue;
    }
    for (const token of ["-Infinity", "Infinity", "NaN"]) {
      if (text.startsWith(token, i)) {
        out += text.slice(last, i) + "null";
        i += token.length - 1;
        last = i + 1;
        break;
      }
    }
  }
  return last === 0 ? null : out + text.slice(last);
}

/**
 * True when arrays and objects in the JSON text nest deeper than `max` levels. One pass, strings skipped whole (with
 * their escapes), so it costs a fraction of parsing. V8's JSON.parse takes any depth, but everything that walks the
 * value afterwards (JSON.stringify, normalization) recurses, and 10,000 levels overflow the stack.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: jump to its closing quote, one not escaped by an odd run of backslashes.
      for (;;) {
        const close = text.indexOf('"', i + 1);
        if (close < 0) return false; // unterminated: the parser refuses it
        let backslashes = 0;
        while (text.charCodeAt(close - 1 - backslashes) === 0x5c) backslashes++;
        i = close;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * True when arrays and objects in a parsed JSON value nest deeper than `max` levels (the value itself is level 1), as
 * jsonDepthExceeds says of its text. Iterative, so any depth is safe to ask about; it stops at the first container too
 * deep. It visits containers only: a few microseconds for a 10 KB event, where the text's scan takes half a parse.
 */
export function valueDepthExceeds(value: unknown, max: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (typeof child === "object" && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      // for…in over JSON.parse's plain objects: their own keys (a third of the time of Object.values' copies).
      for (const key in node) {
        const child: unknown = (node as Record<string, unknown>)[key];
        if (typeof child === "object" && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/**
 * Parses JSON text holding an object (an event, a report); anything else is a typed error. `repaired` tells whether
 * non-finite numbers had to be rewritten, that is whether `text` itself is not valid JSON. Deeper than
 * INGEST_LIMITS.maxJsonDepth is not JSON Faultline reads, as it is not for Relay's parser. V8's JSON.parse takes any
 * depth without recursing, so the depth is checked on the parsed value, before anything that recurses sees it.
 */
export function parseJsonObjectText(text: string, what = "event"): { value: Record<string, unknown>; repaired: boolean } {
  let value: unknown;
  let repaired = false;
  try {
    value = JSON.parse(text);
  } catch {
    const fixed = repairNonFiniteNumbers(text);
    try {
      if (fixed === null) throw new Error("not JSON");
      value = JSON.parse(fixed);
      repaired = true;
    } catch {
      throw new ProtocolError("invalid_json", `the ${what} is not valid JSON`);
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ProtocolError("invalid_json", `the ${what} is not a JSON object`);
  if (valueDepthExceeds(value, INGEST_LIMITS.maxJsonDepth))
    throw new ProtocolError("invalid_json", `the ${what} is nested deeper than ${INGEST_LIMITS.maxJsonDepth} levels`);
  return { value: value as Record<string, unknown>, repaired };
}

export const utf8Text = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");

/** Parses a JSON object (an event, a report) from UTF-8 bytes; anything else is a typed error. */
export function parseJsonObject(bytes: Uint8Array, what = "event"): Record<string, unknown> {
  return parseJsonObjectText(utf8Text(bytes), what).value;
}

/**
 * The JSON text of an object with `fields` added at its end. JSON.parse and PostgreSQL's jsonb keep the last of
 * duplicate keys, so these override any the object already had. `text` must hold a JSON object.
 */
export function appendJsonFields(text: string, fields: Record<string, unknown>): string {
  let end = text.length - 1;
  while (end > 0 && text.charCodeAt(end) !== 0x7d) end--;
  let start = 0;
  while (start < end && text.charCodeAt(start) !== 0x7b) start++;
  const added = JSON.stringify(fields).slice(1, -1);
  if (added === "") return text;
  const empty = text.slice(start + 1, end).trim() === "";
  return `${text.slice(0, end)}${empty ? "" : ","}${added}}`;
}

/** parseJsonObject, or null for what is not a JSON object. */
export function parseJsonObjectOrNull(bytes: Uint8Array): Record<string, unknown> | null {
  try {
    return parseJsonObject(bytes);
  } catch {
    return null;
  }
}

const isJsonSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The outline of a JSON object: "{" and "}" around the bytes, JSON whitespace aside. Cheap; not a parse. */
export function looksLikeJsonObject(bytes: Uint8Array): boolean {
  let start = 0;
  let end = bytes.length - 1;
  while (start <= end && isJsonSpace(bytes[start])) start++;
  while (end > start && isJsonSpace(bytes[end])) end--;
  return end > start && bytes[start] === 0x7b && bytes[end] === 0x7d;
}

/** An event id as Sentry stores it: 32 lower-case hex digits. SDKs send that or the dashed UUID form. */
export function normalizeEventId(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const hex = value.replace(/-/g, "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  if (value.length === 36 && !/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(value)) return null;
  return hex;
}
