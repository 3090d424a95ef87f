// Log entries (relay-event-schema protocol/logentry.rs; `message` is a legacy alias of `logentry`, and a string
// becomes `{formatted}`) and their normalization (relay-event-normalization logentry.rs `normalize_logentry`:
// `formatted` computed from `%s`-style or `{}`-style params, `message` moved to `formatted` when alone or equal).
import { ErrorSink } from "./errors";
import { isObject, type JsonObject } from "./json";
import { FIELD_CAPS } from "./limits";
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

const CONVERSIONS = new Set("sridufFeEgGxXoc%");
const SPEC_CHARS = new Set("-+ #0123456789*.");

/**
 * The conversion specs of a `%` template as `%(?:\(([^)]*)\))?[-+ #0]*(?:\d+|\*)?(?:\.\d+)?([sridufFeEgGxXoc%])` finds
 * them, left to right, in linear time: as a regular expression it backtracks quadratically ("%(" repeated, or "%"
 * and a long run of zeros, which flags and width can split in every way). Flags, width and precision use none of
 * the conversion characters, so a spec's conversion is the first character after the run of flag, digit, "*" and "."
 * characters that follows the "%" (or its "(key)"), and that run must read as flags, width, precision.
 */
function* conversionSpecs(format: string): Generator<{ start: number; end: number; key: string | undefined; conv: string }> {
  const n = format.length;
  // From each position, the first ")" and the first character that cannot be in a spec's flags, width or precision.
  const close = new Int32Array(n + 1).fill(n);
  const specEnd = new Int32Array(n + 1).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    close[i] = format[i] === ")" ? i : close[i + 1]!;
    specEnd[i] = SPEC_CHARS.has(format[i]!) ? specEnd[i + 1]! : i;
  }
  const conversionAt = new Map<number, number>();
  /** Where the conversion of a spec whose flags start at k is, or -1. */
  const conversion = (k: number): number => {
    let found = conversionAt.get(k);
    if (found === undefined) {
      const z = specEnd[k]!;
      let i = k;
      while (i < z && "-+ #0".includes(format[i]!)) i++;
      if (format[i] === "*") i++;
      else while (i < z && format[i]! >= "0" && format[i]! <= "9") i++;
      if (format[i] === "." && i + 1 < z && format[i + 1]! >= "0" && format[i + 1]! <= "9") for (i++; i < z && format[i]! >= "0" && format[i]! <= "9"; ) i++;
      found = i === z && z < n && CONVERSIONS.has(format[z]!) ? z : -1;
      conversionAt.set(k, found);
    }
    return found;
  };
  for (let i = format.indexOf("%"); i >= 0 && i < n; ) {
    let key: string | undefined;
    let at = -1;
    if (format[i + 1] === "(") {
      const c = close[i + 2] ?? n;
      if (c < n) {
        at = conversion(c + 1);
        key = format.slice(i + 2, c);
      }
    } else at = conversion(i + 1);
    if (at < 0) {
      i = format.indexOf("%", i + 1);
      continue;
    }
    yield { start: i, end: at + 1, key, conv: format[at]! };
    i = format.indexOf("%", at + 1);
  }
}

/** Python `%` formatting with positional (array) or named (object) params; undefined when it does not apply. */
function formatPython(format: string, params: unknown): string | undefined {
  let index = 0;
  let out = "";
  let copied = 0;
  for (const { start, end, key, conv } of conversionSpecs(format)) {
    out += format.slice(copied, start);
    copied = end;
    if (conv === "%") {
      out += "%";
      continue;
    }
    let value: unknown;
    if (key !== undefined) {
      if (!isObject(params) || !Object.hasOwn(params, key)) return undefined;
      value = params[key];
    } else {
      if (!Array.isArray(params) || index >= params.length) return undefined;
      value = params[index++];
    }
    const text = conv === "c" ? (typeof value === "string" ? value : undefined) : numeric(value, conv);
    if (text === undefined) return undefined;
    out += text;
  }
  return out + format.slice(copied);
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
    if (typeof v === "string") entry[field] = trimString(v, FIELD_CAPS.message.limit, FIELD_CAPS.message.allowance);
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
