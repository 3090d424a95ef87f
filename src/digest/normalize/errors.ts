// Processing errors recorded while normalizing an event, in the shape Sentry stores in `event.errors`
// (relay-event-schema protocol/event.rs `EventProcessingError`; type names from sentry models/eventerror.py).
import { MAX_PROCESSING_ERRORS } from "./limits";

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

/** Collects errors for one event: the first MAX_PROCESSING_ERRORS, and how many more there were. */
export class ErrorSink {
  readonly errors: ProcessingError[] = [];
  /** Errors past MAX_PROCESSING_ERRORS, counted and not kept. */
  dropped = 0;

  add(type: ProcessingErrorType, name: string, value?: unknown, details?: Record<string, unknown>): void {
    if (this.errors.length >= MAX_PROCESSING_ERRORS) {
      this.dropped++;
      return;
    }
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

/**
 * An event's `errors`: the SDK's own (`sdkLeft` more were not read), then normalization's, MAX_PROCESSING_ERRORS in
 * all; what is left out is counted in one last entry, so the event says it had more.
 */
export function keptErrors(sdkErrors: ProcessingError[], sdkLeft: number, sink: ErrorSink): ProcessingError[] {
  const all = sdkErrors.length + sdkLeft + sink.errors.length + sink.dropped;
  if (all <= MAX_PROCESSING_ERRORS) return [...sdkErrors, ...sink.errors];
  const kept = [...sdkErrors, ...sink.errors].slice(0, MAX_PROCESSING_ERRORS - 1);
  return [...kept, { type: "invalid_data", name: "errors", reason: `${all - kept.length} more processing errors were not kept` }];
}
