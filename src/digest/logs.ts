// Structured logs (issue 19): a `log` envelope item (Sentry's log protocol: {items: [log, …]}, each with timestamp,
// trace_id, level, body, attributes {key: {type, value}}, severity_number; relay-event-schema ourlog.rs) or an
// `otel_log` item (one OpenTelemetry LogRecord in its JSON mapping, read as Relay's otel_to_sentry_log) into rows of
// the logs table. What can be kept is kept, trimmed to LOG_LIMITS, with a note of what was changed; a line without a
// body, or over Relay's size limit, is dropped and counted (outcome invalid, Sentry's log_item and log_byte
// categories). Scrubbed with the project's data scrubbing before anything of it is stored or indexed.
import { LOG_LIMITS } from "../config/limits";
import { hourOf } from "../core/hours";
import { parseJsonObjectText, utf8Text } from "../protocol/json";
import type { LogAttribute, LogLevel, NewLog } from "../storage/log-ports";
import type { OutcomeIncrement } from "../storage/ports";
import { levelOf } from "../core/log-terms";
import { jsonHasNoNul, stripNul } from "./normalize/nul";
import { otelToSentryLog } from "./otel-log";
import type { Scrubber } from "../scrub";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export type LogsRead = { logs: NewLog[]; outcomes: OutcomeIncrement[] };

/** Relay's severity numbers of the six levels (ourlog.rs level_to_otel_severity_number). */
const SEVERITY: Record<LogLevel, number> = { trace: 1, debug: 5, info: 9, warn: 13, error: 17, fatal: 21 };
const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;
/** Relay's canonical size of a log (relay-ourlogs size.rs): body, attribute keys and values; numbers 8, booleans 1. */
export function logSize(body: unknown, attributes: unknown): number {
  const valueSize = (v: unknown, depth: number): number => {
    if (typeof v === "string") return Buffer.byteLength(v);
    if (typeof v === "number") return 8;
    if (typeof v === "boolean") return 1;
    if (depth > LOG_LIMITS.maxAttributeDepth) return 0;
    if (Array.isArray(v)) return v.reduce((n: number, x) => n + valueSize(x, depth + 1), 0);
    if (isObject(v)) return Object.entries(v).reduce((n, [k, x]) => n + Buffer.byteLength(k) + valueSize(x, depth + 1), 0);
    return 0;
  };
  let size = typeof body === "string" ? Buffer.byteLength(body) : 0;
  if (isObject(attributes)) for (const [k, a] of Object.entries(attributes)) size += Buffer.byteLength(k) + (isObject(a) ? valueSize(a.value, 1) : 0);
  return size;
}

/** A JSON text of at most `depth` levels (deeper parts as null) and the value-length limit. */
function jsonText(v: unknown, depth = 0): unknown {
  if (depth >= LOG_LIMITS.maxAttributeDepth) return null;
  if (Array.isArray(v)) return v.map((x) => jsonText(x, depth + 1));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonText(x, depth + 1)]));
  return typeof v === "number" && !Number.isFinite(v) ? null : v;
}

const cut = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);

/** One attribute as the protocol's {type, value}, or why it is not kept. */
function readAttribute(key: string, raw: unknown, notes: string[]): LogAttribute | null {
  const declared = isObject(raw) && "value" in raw ? raw.type : undefined;
  const value = isObject(raw) && "value" in raw ? raw.value : raw;
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return { type: "boolean", value };
  if (typeof value === "number") {
    if (!Number.isFinite(value)) {
      notes.push(`attribute ${key}: a number out of range was dropped`);
      return null;
    }
    if (declared === "double" || !Number.isInteger(value)) return { type: "double", value };
    // Integers beyond 2^53 lost digits in JSON.parse; within 64 bits they are kept as their decimal text, as Relay keeps them.
    if (Number.isSafeInteger(value)) return { type: "integer", value };
    if (Math.abs(value) < 2 ** 64) return { type: "integer", value: BigInt(value).toString() };
    notes.push(`attribute ${key}: an integer beyond 64 bits was dropped`);
    return null;
  }
  if (typeof value === "string") {
    if (declared === "integer" && /^-?\d{1,20}$/.test(value)) return { type: "integer", value: Number.isSafeInteger(Number(value)) ? Number(value) : value };
    if (declared === "double" && value.trim() !== "" && Number.isFinite(Number(value))) return { type: "double", value: Number(value) };
    if (value.length > LOG_LIMITS.maxAttributeValueLength) notes.push(`attribute ${key}: cut to ${LOG_LIMITS.maxAttributeValueLength} characters`);
    return { type: "string", value: cut(value, LOG_LIMITS.maxAttributeValueLength) };
  }
  // Arrays and objects (the SDK's "array" type, or anything nested): kept as their JSON text.
  const text = JSON.stringify(jsonText(value));
  if (text.length > LOG_LIMITS.maxAttributeValueLength) notes.push(`attribute ${key}: cut to ${LOG_LIMITS.maxAttributeValueLength} characters`);
  return { type: "string", value: cut(text, LOG_LIMITS.maxAttributeValueLength) };
}

function readAttributes(raw: unknown, notes: string[]): Record<string, LogAttribute> {
  const out: Record<string, LogAttribute> = {};
  if (raw === undefined || raw === null) return out;
  if (!isObject(raw)) {
    notes.push("attributes: not an object, dropped");
    return out;
  }
  let kept = 0;
  let dropped = 0;
  let longKeys = 0;
  for (const key in raw) {
    if (key.length > LOG_LIMITS.maxAttributeKeyLength || key === "") {
      longKeys++;
      continue;
    }
    if (kept >= LOG_LIMITS.maxAttributes) {
      dropped++;
      continue;
    }
    const attr = readAttribute(key, raw[key], notes);
    if (attr) {
      out[key] = attr;
      kept++;
    }
  }
  if (dropped > 0) notes.push(`attributes: ${dropped} beyond the first ${LOG_LIMITS.maxAttributes} dropped`);
  if (longKeys > 0) notes.push(`attributes: ${longKeys} with an empty key or one longer than ${LOG_LIMITS.maxAttributeKeyLength} characters dropped`);
  return out;
}

/** A timestamp in seconds (a number) or RFC 3339 text, as Relay's Timestamp reads it; null when neither. */
function timeOf(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v) && v > 0 && v < 253402300800) return v * 1000;
  if (typeof v === "string" && v.length <= 64) {
    const ms = Date.parse(v);
    if (Number.isFinite(ms) && ms > 0) return ms;
  }
  return null;
}

const attrText = (attributes: Record<string, LogAttribute>, key: string): string | null => {
  const a = attributes[key];
  return a && typeof a.value === "string" && a.value !== "" ? cut(a.value, 200) : null;
};

const idOf = (v: unknown, shape: RegExp): string | null => {
  if (typeof v !== "string") return null;
  const id = v.replaceAll("-", "").toLowerCase();
  return shape.test(id) ? id : null;
};

type ReadOne = { log: NewLog; size: number } | { dropped: string; size: number };

/** One log of the protocol into a row, or why it is dropped. `raw` is scrubbed in place first. */
export function readLog(raw: unknown, projectId: number, receivedMs: number, scrubber: Scrubber | null): ReadOne {
  if (!isObject(raw)) return { dropped: "invalid_log", size: 0 };
  const size = logSize(raw.body, raw.attributes);
  if (size > LOG_LIMITS.maxLogBytes) return { dropped: "too_large", size };
  const notes: string[] = [];
  let body = raw.body;
  if (typeof body === "number" || typeof body === "boolean") {
    body = String(body);
    notes.push("body: not a string, kept as its text");
  }
  if (typeof body !== "string") return { dropped: "no_body", size };
  if (body.length > LOG_LIMITS.maxBodyLength) {
    notes.push(`body: cut to ${LOG_LIMITS.maxBodyLength} characters`);
    body = cut(body, LOG_LIMITS.maxBodyLength);
  }
  const attributes = readAttributes(raw.attributes, notes);
  let level = levelOf(raw.level, raw.severity_number);
  if (!level) {
    notes.push(`level: ${typeof raw.level === "string" ? `"${cut(raw.level, 32)}"` : "missing"}, read as info`);
    level = "info";
  }
  const severity =
    typeof raw.severity_number === "number" && Number.isInteger(raw.severity_number) && raw.severity_number >= 1 && raw.severity_number <= 24
      ? raw.severity_number
      : SEVERITY[level];
  let ms = timeOf(raw.timestamp);
  if (ms === null) {
    notes.push("timestamp: missing or invalid, the arrival time is used");
    ms = receivedMs;
  } else if (ms > receivedMs + LOG_LIMITS.maxSecondsInFuture * 1000) {
    notes.push("timestamp: in the future, the arrival time is used");
    ms = receivedMs;
  }
  const traceId = idOf(raw.trace_id, HEX32);
  if (raw.trace_id !== undefined && traceId === null) notes.push("trace_id: not a trace id, dropped");
  const spanId = idOf(raw.span_id, HEX16) ?? idOf(attributes["sentry.trace.parent_span_id"]?.value, HEX16);
  // Scrubbed as Relay scrubs logs, before anything is stored or indexed; the remarks are kept in the row's meta.
  const scrubbed: Json = { body, attributes, level, trace_id: traceId, span_id: spanId };
  scrubber?.scrubLog(scrubbed);
  const meta =
    notes.length > 0 || scrubbed._meta ? { ...(notes.length > 0 && { notes }), ...(scrubbed._meta !== undefined && { scrubbed: scrubbed._meta }) } : null;
  const kept = scrubbed.attributes as Record<string, LogAttribute>;
  return {
    size,
    log: {
      projectId,
      timestamp: new Date(ms).toISOString(),
      receivedAt: new Date(receivedMs).toISOString(),
      level,
      severityNumber: severity,
      body: typeof scrubbed.body === "string" ? scrubbed.body : "",
      attributes: kept,
      traceId,
      spanId,
      release: attrText(kept, "sentry.release"),
      environment: attrText(kept, "sentry.environment"),
      meta,
    },
  };
}

/** The logs of one `log` or `otel_log` item, with their outcomes (accepted and dropped, in log_item and log_byte). */
export function readLogItem(itemType: "log" | "otel_log", payload: Uint8Array, projectId: number, receivedMs: number, scrubber: Scrubber | null): LogsRead {
  const text = utf8Text(payload);
  const { value } = parseJsonObjectText(text, `${itemType} item`);
  const parsed = (jsonHasNoNul(text) ? value : stripNul(value).value) as Json;
  const list: unknown[] = itemType === "otel_log" ? [otelToSentryLog(parsed)] : Array.isArray(parsed.items) ? parsed.items : [];
  const hour = hourOf(receivedMs);
  const outcomes: OutcomeIncrement[] = [];
  const count = (category: string, outcome: "accepted" | "invalid", reason: string, quantity: number) => {
    if (quantity > 0) outcomes.push({ projectId, hour, category, outcome, reason, quantity });
  };
  if (itemType === "log" && !Array.isArray(parsed.items)) count("log_item", "invalid", "no_items", 1);
  const logs: NewLog[] = [];
  let bytes = 0;
  const dropped = new Map<string, { n: number; bytes: number }>();
  const drop = (reason: string, size: number) => {
    const d = dropped.get(reason) ?? { n: 0, bytes: 0 };
    d.n++;
    d.bytes += size;
    dropped.set(reason, d);
  };
  list.forEach((raw, i) => {
    if (i >= LOG_LIMITS.maxLogsPerItem) return drop("too_many_logs", 0);
    const read = readLog(raw, projectId, receivedMs, scrubber);
    if ("dropped" in read) return drop(read.dropped, read.size);
    logs.push(read.log);
    bytes += read.size;
  });
  count("log_item", "accepted", "", logs.length);
  count("log_byte", "accepted", "", bytes);
  for (const [reason, d] of dropped) {
    count("log_item", "invalid", reason, d.n);
    count("log_byte", "invalid", reason, d.bytes);
  }
  return { logs, outcomes };
}
