// Log entries (relay-event-schema protocol/logentry.rs; `message` is a legacy alias of `logentry`, and a string
// becomes `{formatted}`) and their normalization (relay-event-normalization logentry.rs `normalize_logentry`:
// `formatted` computed from `%s`-style or `{}`-style params, `message` moved to `formatted` when alone or equal).
import { ErrorSink } from "./errors";
import { isObject, type JsonObject } from "./json";
import { MAX_CHARS } from "./limits";
import { stringField, trimString } from "./strings";

function display(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "None";
  return JSON.stringify(value);
}

function numeric(value: unknown, conv: string): string | undefined {
  if (typeof value !== "number") return conv === "s" || conv === "r" ? display(value) : undefined;
  if ("diu".includes(conv)) return String(Math.trunc(value));
  if ("fF".includes(conv)) return value.toFixed(6);
  if ("eE".includes(conv)) return conv === "E" ? value.toExponential(6).toUpperCase() : value.toExponential(6);
  if ("xX".includes(conv)) return conv === "X" ? Math.trunc(value).toString(16).toUpperCase() : Math.trunc(value).toString(16);
  if (conv === "o") return Math.trunc(value).toString(8);
  return String(value);
}

const PYTHON_SPEC = /%(?:\(([^)]*)\))?[-+ #0]*(?:\d+|\*)?(?:\.\d+)?([sridufFeEgGxXoc%])/g;

/** Python `%` formatting with positional (array) or named (object) params; undefined when it does not apply. */
function formatPython(format: string, params: unknown): string | undefined {
  let index = 0;
  let failed = false;
  const out = format.replace(PYTHON_SPEC, (_match, key: string | undefined, conv: string) => {
    if (conv === "%") return "%";
    let value: unknown;
    if (key !== undefined) {
      if (!isObject(params) || !Object.hasOwn(params, key)) return ((failed = true), "");
      value = params[key];
    } else {
      if (!Array.isArray(params) || index >= params.length) return ((failed = true), "");
      value = params[index++];
    }
    const text = conv === "c" ? (typeof value === "string" ? value : undefined) : numeric(value, conv);
    if (text === undefined) failed = true;
    return text ?? "";
  });
  return failed ? undefined : out;
}

/** `{}`, `{0}` and `{name}` formatting (dynfmt `SimpleCurlyFormat`). */
function formatCurly(format: string, params: unknown): string | undefined {
  let index = 0;
  let failed = false;
  const out = format.replace(/\{([^{}]*)\}/g, (_m, key: string) => {
    let value: unknown;
    if (key === "") value = Array.isArray(params) ? params[index++] : undefined;
    else if (/^\d+$/.test(key)) value = Array.isArray(params) ? params[Number(key)] : undefined;
    else value = isObject(params) && Object.hasOwn(params, key) ? params[key] : undefined;
    if (value === undefined) failed = true;
    return display(value);
  });
  return failed ? undefined : out;
}

/** Relay's `format_message`: `%` formatting when the template has a `%`, else curly when it has a `{`. */
export function formatMessage(format: string, params: unknown): string | undefined {
  if (format.includes("%")) return formatPython(format, params);
  if (format.includes("{")) return formatCurly(format, params);
  return undefined;
}

/** Normalizes one log entry value; undefined when there is none left. */
function normalizeEntry(raw: unknown, key: string, sink: ErrorSink): JsonObject | undefined {
  let entry: JsonObject;
  if (typeof raw === "string") entry = { formatted: raw };
  else if (isObject(raw)) entry = raw;
  else {
    if (raw !== null && raw !== undefined) sink.add("invalid_data", key, raw, { reason: "expected a log entry" });
    return undefined;
  }
  stringField(entry, "message", key, sink);
  stringField(entry, "formatted", key, sink);
  if (entry.params === null) delete entry.params;
  // Relay's `Empty` counts "" as empty: a log entry of empty strings is skipped like a missing one.
  if (entry.message === "") delete entry.message;
  if (entry.formatted === "") delete entry.formatted;
  if (Object.keys(entry).length === 0) return undefined;
  if (entry.formatted === undefined && entry.message === undefined) {
    sink.add("invalid_data", key, raw, { reason: "no message present" });
    return undefined;
  }
  if (entry.params !== undefined && entry.formatted === undefined && typeof entry.message === "string") {
    const formatted = formatMessage(entry.message, entry.params);
    if (formatted !== undefined) entry.formatted = formatted;
  }
  if (entry.formatted === undefined || entry.message === entry.formatted) {
    entry.formatted = entry.message;
    delete entry.message;
  }
  for (const field of ["message", "formatted"]) {
    const v = entry[field];
    if (typeof v === "string") entry[field] = trimString(v, MAX_CHARS.message);
  }
  return entry;
}

/**
 * Normalizes `event.logentry`, or the legacy `event.message` when there is no usable `logentry`: a string becomes
 * `{formatted}`, `formatted` is computed from `message` and `params`, and a log entry without any message is
 * removed with `invalid_data`. A `message` sent next to a usable `logentry` is kept as it came, as Relay keeps it.
 */
export function normalizeLogentry(event: JsonObject, sink: ErrorSink): void {
  let entry = "logentry" in event ? normalizeEntry(event.logentry, "logentry", sink) : undefined;
  delete event.logentry;
  if (!entry && "message" in event) {
    entry = normalizeEntry(event.message, "message", sink);
    delete event.message;
  }
  if (entry) event.logentry = entry;
}
