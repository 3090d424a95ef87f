// Severity levels (relay-event-schema protocol/types.rs `impl FromStr for Level`, `Level::from_python_level`).
import { ErrorSink } from "./errors";
import type { JsonObject } from "./json";

export type Level = "debug" | "info" | "warning" | "error" | "fatal";

/**
 * The strings Relay accepts, case-sensitive, and what they mean; plus `warn`, which Relay refuses but loggers
 * (Node's console, log4j, Go's slog) name their warnings: Faultline takes it rather than lose the level.
 */
const NAMES: Record<string, Level> = {
  debug: "debug",
  info: "info",
  log: "info",
  warning: "warning",
  warn: "warning",
  error: "error",
  fatal: "fatal",
  critical: "fatal",
};

/** Python logging levels, which Relay accepts as numbers. */
const PYTHON_LEVELS: Record<number, Level> = { 10: "debug", 20: "info", 30: "warning", 40: "error", 50: "fatal" };

/** Parses a level; `undefined` for anything Relay rejects. */
export function parseLevel(value: unknown): Level | undefined {
  if (typeof value === "string") return Object.hasOwn(NAMES, value) ? NAMES[value] : undefined;
  if (typeof value === "number" && Number.isInteger(value)) return PYTHON_LEVELS[value];
  return undefined;
}

/** Reads `obj.level`: a known level is normalized, another value is removed with `invalid_data`, then `fallback` applies. */
export function levelField(obj: JsonObject, name: string, sink: ErrorSink, fallback: Level): void {
  const raw = obj.level;
  if (raw !== undefined && raw !== null) {
    const level = parseLevel(raw);
    if (level) {
      obj.level = level;
      return;
    }
    sink.add("invalid_data", name, raw, { reason: typeof raw === "string" || typeof raw === "number" ? "invalid level" : "expected a level" });
  }
  obj.level = fallback;
}
