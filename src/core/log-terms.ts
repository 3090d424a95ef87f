// The search terms of a log line, computed once by Faultline for both databases (migration 0031): the words of its
// body, lowercased, split at every character that is neither a letter nor a digit; and one token per attribute
// `key:value` pair whose value is short enough to be typed. A search matches a line when each of its words begins one
// of the line's words and each of its `key:value` terms names one of its pairs exactly, on SQLite (FTS5) and
// PostgreSQL (tsvector) alike. Pure: the digest, the store and the query parser share it.
import { hash } from "node:crypto";
import { LOG_LIMITS } from "../config/limits";
import { LOG_LEVELS, type LogLevel } from "../storage/log-ports";

/** characters of one indexed word; a longer run of letters is cut (it is still found by its beginning). */
const MAX_WORD_LENGTH = 64;
/** distinct words indexed per line: a 16,384-character body holds at most a few thousand. */
const MAX_WORDS = 1_000;

const SPLIT = /[^\p{L}\p{N}]+/u;

/** The distinct words of a text, in order of first appearance. */
export function wordsOf(text: string): string[] {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().split(SPLIT)) {
    if (raw === "") continue;
    out.add(raw.length > MAX_WORD_LENGTH ? raw.slice(0, MAX_WORD_LENGTH) : raw);
    if (out.size >= MAX_WORDS) break;
  }
  return [...out];
}

/** A value as `key:value` search compares it: strings as they are, numbers and booleans as JSON writes them. */
export function attributeText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return null;
}

/** The one index token of a `key:value` pair: letters and digits only, so that both indexes keep it as one word. */
export function pairToken(key: string, value: string): string {
  // One call rather than a Hash object: a log line has about ten pairs, and the object cost more than the digest.
  return `a${hash("sha256", `${key}\u0000${value}`, "hex").slice(0, 24)}`;
}

/** The token that keeps a project's lines apart in SQLite's index (shared by every project). */
export const projectToken = (projectId: number) => `p${projectId}`;

/** The `key:value` tokens of a line's attributes; values longer than LOG_LIMITS.maxIndexedValueLength are not indexed. */
export function attributeTokens(attributes: Record<string, { value: unknown }>): string[] {
  const out: string[] = [];
  for (const [key, attr] of Object.entries(attributes)) {
    const text = attributeText(attr.value);
    if (text === null || text.length > LOG_LIMITS.maxIndexedValueLength) continue;
    out.push(pairToken(key, text));
  }
  return out;
}

/** What one line adds to the search index. */
export type LogTerms = { words: string[]; tokens: string[] };

export function logTerms(body: string, attributes: Record<string, { value: unknown }>): LogTerms {
  return { words: wordsOf(body), tokens: attributeTokens(attributes) };
}

/** Names SDKs and loggers use for the same levels. */
const ALIASES: Record<string, LogLevel> = { warning: "warn", information: "info", informational: "info", critical: "fatal", err: "error", notice: "info" };

/** A level from its name or, failing that, from the OpenTelemetry severity number's range. */
export function levelOf(level: unknown, severity: unknown): LogLevel | null {
  if (typeof level === "string") {
    const name = level.trim().toLowerCase();
    if ((LOG_LEVELS as readonly string[]).includes(name)) return name as LogLevel;
    if (ALIASES[name]) return ALIASES[name];
  }
  if (typeof severity === "number" && Number.isInteger(severity) && severity >= 1 && severity <= 24) return LOG_LEVELS[Math.floor((severity - 1) / 4)]!;
  return null;
}
