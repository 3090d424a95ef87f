// Top-level attributes: types, whitespace and length as relay-event-schema protocol/event.rs declares them, release
// and environment validation (relay-event-normalization event.rs `validate_release`/`validate_environment` via
// sentry-release-parser), `normalize_dist`, the fingerprint (protocol/fingerprint.rs), and the defaults of
// event.rs `normalize_default_attributes` and `normalize_platform_and_level`.
import { ErrorSink } from "./errors";
import { charCount, isObject, type JsonObject } from "./json";
import { levelField } from "./levels";
import { MAX_CHARS, MAX_CHARS_OR_REMOVE } from "./limits";
import { lenientString, objectField, stringField, trimString } from "./strings";
import { BAD_NAME_CHARS, isValidRelease } from "../../core/release-name";

/** relay-event-schema protocol/event.rs `VALID_PLATFORMS`; another platform is removed and defaults to "other". */
export const VALID_PLATFORMS = new Set([
  "as3",
  "c",
  "cfml",
  "cocoa",
  "csharp",
  "dart",
  "elixir",
  "go",
  "groovy",
  "haskell",
  "java",
  "javascript",
  "native",
  "node",
  "objc",
  "other",
  "perl",
  "php",
  "python",
  "ruby",
]);

/** Relay's `Fingerprint`: items as LenientString, nulls skipped, bad items reported together; none left → removed. */
function normalizeFingerprint(event: JsonObject, sink: ErrorSink): void {
  if (!("fingerprint" in event)) return;
  const raw = event.fingerprint;
  if (raw === null || raw === undefined) {
    delete event.fingerprint;
    return;
  }
  if (!Array.isArray(raw)) {
    sink.add("invalid_data", "fingerprint", raw, { reason: "expected an array" });
    delete event.fingerprint;
    return;
  }
  const kept: string[] = [];
  const bad: unknown[] = [];
  for (const item of raw) {
    if (item === null) continue;
    const value = lenientString(item);
    if (value === undefined) bad.push(item);
    else kept.push(value);
  }
  if (bad.length > 0) sink.add("invalid_data", "fingerprint", bad);
  if (kept.length === 0 && bad.length > 0) delete event.fingerprint;
  else event.fingerprint = kept;
}

function validateNamed(event: JsonObject, key: string, sink: ErrorSink, bad: (v: string) => boolean): void {
  const value = event[key];
  if (typeof value === "string" && bad(value)) {
    sink.add("invalid_data", key, value);
    delete event[key];
  }
}

function normalizeDist(event: JsonObject, sink: ErrorSink): void {
  stringField(event, "dist", "", sink, { lenient: true, trim: true, nonEmpty: true });
  if (typeof event.dist === "string" && charCount(event.dist) > MAX_CHARS_OR_REMOVE.dist) {
    sink.add("value_too_long", "dist", event.dist);
    delete event.dist;
  }
}

/**
 * `environment`: trimmed, non-empty, without the characters Relay refuses, cut to its length. Run again after the tags,
 * whose `environment` tag can fill it (pairs.ts): so that an empty or invalid tag value is refused in the first pass
 * as the field's would be, and normalizing the output again changes nothing.
 */
export function normalizeEnvironment(event: JsonObject, sink: ErrorSink): void {
  stringField(event, "environment", "", sink, { trim: true, nonEmpty: true });
  validateNamed(event, "environment", sink, (v) => BAD_NAME_CHARS.test(v));
  if (typeof event.environment === "string") event.environment = trimString(event.environment, MAX_CHARS.environment);
}

/** Normalizes the simple top-level attributes (everything but the interfaces and timestamps). */
export function normalizeAttributes(event: JsonObject, sink: ErrorSink): void {
  stringField(event, "release", "", sink, { lenient: true, trim: true, nonEmpty: true });
  validateNamed(event, "release", sink, (v) => !isValidRelease(v));
  if (typeof event.release === "string") event.release = trimString(event.release, MAX_CHARS.release);
  normalizeEnvironment(event, sink);
  normalizeDist(event, sink);

  stringField(event, "platform", "", sink);
  if (typeof event.platform === "string" && !VALID_PLATFORMS.has(event.platform)) delete event.platform;
  stringField(event, "logger", "", sink, { maxChars: MAX_CHARS.logger });
  stringField(event, "culprit", "", sink, { maxChars: MAX_CHARS.culprit });
  stringField(event, "transaction", "", sink, { trim: true, maxChars: MAX_CHARS.transaction });
  stringField(event, "server_name", "", sink, { maxChars: MAX_CHARS.serverName });
  stringField(event, "site", "", sink, { maxChars: MAX_CHARS.site });
  stringField(event, "checksum", "", sink, { maxChars: MAX_CHARS.checksum });

  const modules = objectField(event, "modules", "", sink);
  if (modules) {
    for (const [k, v] of Object.entries(modules)) {
      if (typeof v === "string") continue;
      if (v !== null) sink.add("invalid_data", `modules.${k}`, v, { reason: "expected a string" });
      delete modules[k];
    }
  }
  objectField(event, "extra", "", sink);
  objectField(event, "sdk", "", sink);
  objectField(event, "debug_meta", "", sink);
  normalizeFingerprint(event, sink);
}

/** The event type Relay infers (event.rs `infer_event_type`). */
export function inferEventType(event: JsonObject, itemType: string): string {
  if (event.type === "transaction" || itemType === "transaction") return "transaction";
  if (event.type === "user_report_v2" || itemType === "feedback") return "user_report_v2";
  const exception = isObject(event.exception) ? event.exception.values : undefined;
  if (Array.isArray(exception) && exception.length > 0) return "error";
  for (const t of ["csp", "hpkp", "expectct", "expectstaple"]) if (isObject(event[t])) return t;
  if (isObject(event.contexts) && isObject(event.contexts.nel)) return "nel";
  return "default";
}

/** Relay's defaults: type, platform "other", level by type, logger "", extra {}, measurements only on transactions. */
export function applyDefaults(event: JsonObject, itemType: string, sink: ErrorSink): void {
  event.type = inferEventType(event, itemType);
  if (typeof event.platform !== "string") event.platform = "other";
  levelField(event, "level", sink, event.type === "transaction" ? "info" : "error");
  if (typeof event.logger !== "string") event.logger = "";
  if (!isObject(event.extra)) event.extra = {};
  if (event.type !== "transaction") delete event.measurements;
}
