// The columns an event is listed by, read leniently from whatever an SDK sent (sentry-protocol.md §3): its type,
// title, message, culprit, level, platform, timestamp, release and environment. Issue grouping comes later; this is
// what the event list shows.

export type EventSummary = {
  type: string;
  title: string;
  message: string;
  culprit: string;
  level: string;
  platform: string;
  timestamp: string;
  release: string | null;
  environment: string | null;
};

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : null);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

/** Titles and messages are capped so one event cannot make a list row huge. */
const MAX_TITLE = 256;
const MAX_MESSAGE = 1024;
const cap = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const LEVELS: Record<string, string> = {
  fatal: "fatal",
  critical: "fatal",
  error: "error",
  warning: "warning",
  warn: "warning",
  info: "info",
  log: "info",
  debug: "debug",
  sample: "info",
};

/** `exception` as `{values: [...]}` or a bare array; the last value is the top-level exception. */
export function exceptionValues(event: Json): Json[] {
  const raw = event.exception;
  const list = Array.isArray(raw) ? raw : Array.isArray(obj(raw)?.values) ? (obj(raw)!.values as unknown[]) : [];
  return list.map(obj).filter((v): v is Json => v !== null);
}

function messageOf(event: Json): string | null {
  const logentry = obj(event.logentry) ?? obj(event["sentry.interfaces.Message"]);
  const fromEntry = logentry ? (text(logentry.formatted) ?? text(logentry.message)) : null;
  const message = event.message;
  return fromEntry ?? text(message) ?? (obj(message) ? (text(obj(message)!.formatted) ?? text(obj(message)!.message)) : null);
}

/** Epoch seconds or an ISO string (naive means UTC); the received time otherwise. */
export function timestampOf(value: unknown, fallback: string): string {
  let d: Date | null = null;
  if (typeof value === "number" && Number.isFinite(value)) d = new Date(value * 1000);
  else if (typeof value === "string" && value !== "") {
    const numeric = Number(value);
    if (Number.isFinite(numeric)) d = new Date(numeric * 1000);
    else d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  }
  return d && !Number.isNaN(d.getTime()) && d.getUTCFullYear() > 1970 && d.getUTCFullYear() < 10000 ? d.toISOString() : fallback;
}

export function summarize(itemType: string, event: Json, receivedAt: string): EventSummary {
  const exceptions = exceptionValues(event);
  const main = exceptions[exceptions.length - 1];
  const message = messageOf(event);
  let type: string;
  let title: string;
  if (itemType === "transaction") {
    type = "transaction";
    title = text(event.transaction) ?? "<unlabeled transaction>";
  } else if (itemType === "feedback") {
    type = "feedback";
    title = text(obj(obj(event.contexts)?.feedback)?.message) ?? "User Feedback";
  } else if (itemType === "security") {
    type = obj(event.csp) ? "csp" : "expectct";
    title = message ?? "<security report>";
  } else if (main) {
    type = "error";
    const excType = text(main.type);
    const value = text(main.value);
    title = excType && value ? `${excType}: ${value}` : (excType ?? value ?? message ?? "<unknown error>");
  } else {
    type = "default";
    title = message?.split("\n")[0] ?? "<unlabeled event>";
  }
  const rawLevel = typeof event.level === "string" ? event.level.toLowerCase() : "";
  return {
    type,
    title: cap(title, MAX_TITLE),
    message: cap(message ?? (main ? (text(main.value) ?? "") : ""), MAX_MESSAGE),
    culprit: cap(text(event.culprit) ?? text(event.transaction) ?? "", MAX_TITLE),
    level: LEVELS[rawLevel] ?? (type === "transaction" || type === "feedback" ? "info" : "error"),
    platform: text(event.platform) ?? "other",
    timestamp: timestampOf(event.timestamp, receivedAt),
    release: text(event.release) ? cap(event.release as string, 200) : null,
    environment: text(event.environment) ? cap(event.environment as string, 64) : null,
  };
}
