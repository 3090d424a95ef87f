// Processing errors recorded while normalizing an event, in the shape Sentry stores in `event.errors`
// (relay-event-schema protocol/event.rs `EventProcessingError`; type names from sentry models/eventerror.py).

export type ProcessingErrorType =
  | "invalid_data"
  | "invalid_attribute"
  | "missing_attribute"
  | "value_too_long"
  | "future_timestamp"
  | "past_timestamp"
  | "clock_drift";

export type ProcessingError = {
  type: ProcessingErrorType;
  /** Dotted path of the field, e.g. `exception.values.0.stacktrace.frames.2.lineno`. */
  name: string;
  /** The original value, when it was removed or replaced. */
  value?: unknown;
  /** Extra details, as Relay attaches them (`reason`, `sdk_time`, `server_time`, `attribute`). */
  [detail: string]: unknown;
};

/** Collects errors for one event. */
export class ErrorSink {
  readonly errors: ProcessingError[] = [];

  add(type: ProcessingErrorType, name: string, value?: unknown, details?: Record<string, unknown>): void {
    const error: ProcessingError = { type, name };
    if (value !== undefined) error.value = value;
    if (details) Object.assign(error, details);
    this.errors.push(error);
  }
}

/** Joins a parent path and a key or index. */
export function path(parent: string, key: string | number): string {
  return parent === "" ? String(key) : `${parent}.${key}`;
}
