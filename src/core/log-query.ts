// A logs search as the page and the API take it, read into a storage filter (storage/log-ports.ts): the search box
// (words, `key:value` attribute terms, `level:` and `trace:`), a level, a period or a time range (ISO, or the page's
// date-and-time fields read as UTC), and the cursor of the page before. Bad input is a 400 naming the field.
import { LOG_LIMITS } from "../config/limits";
import { LOG_LEVELS, type LogCursor, type LogFilter, type LogLevel } from "../storage/log-ports";
import { AppError } from "./errors";
import { levelOf, wordsOf } from "./log-terms";

export const LOG_PERIODS = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "14d": 14 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type LogPeriod = keyof typeof LOG_PERIODS;

/** The query as given (strings from a URL or a form); absent fields are absent. */
export type LogQueryInput = { query?: unknown; level?: unknown; period?: unknown; from?: unknown; to?: unknown; trace?: unknown; before?: unknown };

/** What the query was read as, to show it back in the page's form. */
export type LogQueryEcho = { query: string; level: LogLevel | null; period: LogPeriod | null; from: string | null; to: string | null; trace: string | null };

export type ReadLogQuery = { filter: Omit<LogFilter, "projectId">; before: LogCursor | null; echo: LogQueryEcho };

const bad = (field: string, message: string) => new AppError("bad_request", message, { [field]: [message] });
const one = (v: unknown): string | null => {
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === "string" && s.trim() !== "" ? s.trim() : null;
};

const KEY = /^[A-Za-z0-9_][A-Za-z0-9_.\-@/]{0,255}$/;
const TRACE = /^[0-9a-f]{32}$/;

/** Splits the search box into terms: `key:value` (the value may be "quoted"), "quoted words", other words. */
export function splitSearch(text: string): { words: string[]; pairs: { key: string; value: string }[]; level: LogLevel | null; trace: string | null } {
  const words: string[] = [];
  const pairs: { key: string; value: string }[] = [];
  let level: LogLevel | null = null;
  let trace: string | null = null;
  const term = /([^\s:"]+):(?:"([^"]*)"|(\S+))|"([^"]*)"|(\S+)/g;
  for (const m of text.matchAll(term)) {
    const [, key, quoted, bare, phrase, word] = m;
    if (key !== undefined && KEY.test(key)) {
      const value = quoted ?? bare ?? "";
      const lower = key.toLowerCase();
      if (lower === "level" || lower === "severity") {
        level = levelOf(value, undefined);
        if (!level) throw bad("query", `level: must be one of ${LOG_LEVELS.join(", ")}`);
      } else if (lower === "trace" || lower === "trace_id" || lower === "trace.id") {
        trace = value.replaceAll("-", "").toLowerCase();
        if (!TRACE.test(trace)) throw bad("query", "trace: must be a trace id of 32 hexadecimal digits");
      } else pairs.push({ key, value });
    } else words.push(...wordsOf(phrase ?? word ?? m[0]));
  }
  return { words: [...new Set(words)], pairs, level, trace };
}

/** An instant from ISO text or a date-and-time field (no zone: UTC); null when absent. */
function instant(field: string, raw: unknown): string | null {
  const s = one(raw);
  if (s === null) return null;
  const withZone = /[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`;
  const ms = s.length <= 40 ? Date.parse(withZone) : NaN;
  if (!Number.isFinite(ms) || ms < 0 || ms > 253402300799999) throw bad(field, `${field}: not a date and time`);
  return new Date(ms).toISOString();
}

/** The cursor `before` as the page writes it: `<timestamp>~<id>`. */
export const writeCursor = (c: LogCursor) => `${c.timestamp}~${c.id}`;

function readCursor(raw: unknown): LogCursor | null {
  const s = one(raw);
  if (s === null) return null;
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)~(\d{1,15})$/.exec(s);
  if (!m) throw bad("before", "before: not a position in the list");
  return { timestamp: m[1]!, id: Number(m[2]) };
}

export function readLogQuery(input: LogQueryInput, now = Date.now()): ReadLogQuery {
  const text = one(input.query) ?? "";
  if (text.length > LOG_LIMITS.maxQueryLength) throw bad("query", `query: at most ${LOG_LIMITS.maxQueryLength} characters`);
  const search = splitSearch(text);
  if (search.words.length + search.pairs.length > LOG_LIMITS.maxQueryTerms)
    throw bad("query", `query: at most ${LOG_LIMITS.maxQueryTerms} words and key:value terms`);
  const levelText = one(input.level);
  const level = levelText === null || levelText === "all" ? search.level : levelOf(levelText, undefined);
  if (levelText !== null && levelText !== "all" && !level) throw bad("level", `level: must be one of ${LOG_LEVELS.join(", ")}`);
  const traceText = one(input.trace);
  const trace = traceText === null ? search.trace : traceText.replaceAll("-", "").toLowerCase();
  if (trace !== null && !TRACE.test(trace)) throw bad("trace", "trace: must be a trace id of 32 hexadecimal digits");
  const periodText = one(input.period);
  if (periodText !== null && periodText !== "all" && !(periodText in LOG_PERIODS))
    throw bad("period", `period: one of ${Object.keys(LOG_PERIODS).join(", ")} or all`);
  const period = periodText !== null && periodText in LOG_PERIODS ? (periodText as LogPeriod) : null;
  let from = instant("from", input.from);
  const to = instant("to", input.to);
  if (period && from === null) from = new Date(now - LOG_PERIODS[period]).toISOString();
  if (from !== null && to !== null && from >= to) throw bad("to", "to: must be after from");
  return {
    filter: { ...(level && { levels: [level] }), words: search.words, pairs: search.pairs, from, to, traceId: trace },
    before: readCursor(input.before),
    echo: { query: text, level, period, from: one(input.from) === null ? null : from, to, trace: traceText === null ? null : trace },
  };
}
