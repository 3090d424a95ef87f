// Field readers that coerce or drop a value of the wrong type, as Relay's `FromValue` impls do
// (relay-event-schema protocol/types.rs `String`, `LenientString`, `JsonLenientString`), and string trimming
// (relay-event-normalization trimming.rs `trim_string`).
import { ErrorSink, path } from "./errors";
import { charCount, isObject, type JsonObject } from "./json";
import type { CharCap } from "./limits";

/**
 * Relay's `trim_string`: a string over `limit + allowance` code points keeps `limit - 3` of them followed by "...".
 * Linear in the string's length at most (UTF-16 length bounds the code points from above).
 */
export function trimString(value: string, limit: number, allowance = 0): string {
  if (value.length <= limit + allowance || charCount(value) <= limit + allowance) return value;
  let out = "";
  let n = 0;
  for (const c of value) {
    if (n + 3 >= limit) break;
    out += c;
    n++;
  }
  return `${out}...`;
}

/** `LenientString`: strings as they are, booleans as Python prints them, numbers as integers. */
export function lenientString(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" && Number.isFinite(value) && Math.abs(value) < 2 ** 53) {
    // Relay truncates floats inside JSON's integer precision and rejects the others; `-0` prints as "0".
    return String(Math.trunc(value) || 0);
  }
  return undefined;
}

/** `JsonLenientString`: strings as they are, anything else serialized as JSON. */
export function jsonLenientString(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

type StringOptions = { lenient?: boolean; trim?: boolean; nonEmpty?: boolean; maxChars?: number | CharCap };

/**
 * Reads `obj[key]` as a string: null is dropped silently, a value of another type is dropped with `invalid_data`.
 * Options follow Relay's field attributes (`trim_whitespace`, `nonempty`, `max_chars`).
 */
export function stringField(obj: JsonObject, key: string, parent: string, sink: ErrorSink, options: StringOptions = {}): void {
  if (!(key in obj)) return;
  const raw = obj[key];
  if (raw === null || raw === undefined) {
    delete obj[key];
    return;
  }
  let value = options.lenient ? lenientString(raw) : typeof raw === "string" ? raw : undefined;
  if (value === undefined) {
    sink.add("invalid_data", path(parent, key), raw, { reason: options.lenient ? "expected a primitive value" : "expected a string" });
    delete obj[key];
    return;
  }
  if (options.trim) value = value.trim();
  if (options.nonEmpty && value === "") {
    delete obj[key];
    return;
  }
  if (typeof options.maxChars === "number") value = trimString(value, options.maxChars);
  else if (options.maxChars) value = trimString(value, options.maxChars.limit, options.maxChars.allowance);
  if (value !== raw) obj[key] = value;
}

/** Reads `obj[key]` as an object; null is dropped, another type dropped with `invalid_data`. Returns the object. */
export function objectField(obj: JsonObject, key: string, parent: string, sink: ErrorSink): JsonObject | undefined {
  if (!(key in obj)) return undefined;
  const raw = obj[key];
  if (isObject(raw)) return raw;
  if (raw !== null && raw !== undefined) sink.add("invalid_data", path(parent, key), raw, { reason: "expected an object" });
  delete obj[key];
  return undefined;
}

/** Reads `obj[key]` as a boolean; another type is dropped with `invalid_data`. */
export function booleanField(obj: JsonObject, key: string, parent: string, sink: ErrorSink): void {
  if (!(key in obj)) return;
  const raw = obj[key];
  if (typeof raw === "boolean") return;
  if (raw !== null && raw !== undefined) sink.add("invalid_data", path(parent, key), raw, { reason: "expected a boolean" });
  delete obj[key];
}

/** Reads `obj[key]` as a non-negative integer (Relay's `u64`); another value is dropped with `invalid_data`. */
export function unsignedField(obj: JsonObject, key: string, parent: string, sink: ErrorSink): void {
  if (!(key in obj)) return;
  const raw = obj[key];
  if (typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0) return;
  if (raw !== null && raw !== undefined) sink.add("invalid_data", path(parent, key), raw, { reason: "expected an unsigned integer" });
  delete obj[key];
}

/**
 * Reads `obj[key]` as an array of strings (Relay's `Array<String>`): null items stay null (source context keeps its
 * line positions), other non-string items become null with `invalid_data`.
 */
export function stringArrayField(obj: JsonObject, key: string, parent: string, sink: ErrorSink): void {
  if (!(key in obj)) return;
  const raw = obj[key];
  if (raw === null || raw === undefined) {
    delete obj[key];
    return;
  }
  if (!Array.isArray(raw)) {
    sink.add("invalid_data", path(parent, key), raw, { reason: "expected an array" });
    delete obj[key];
    return;
  }
  obj[key] = raw.map((item: unknown, i) => {
    if (typeof item === "string" || item === null) return item;
    sink.add("invalid_data", path(path(parent, key), i), item, { reason: "expected a string" });
    return null;
  });
}
