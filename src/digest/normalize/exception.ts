// Exceptions (relay-event-schema protocol/exception.rs, mechanism.rs) and their normalization
// (relay-event-normalization event.rs `normalize_exceptions`, `normalize_exception`: the `^(\w+):(.*)$` split of a
// value without a type, and the move of a lone top-level stacktrace into the only exception).
import { ErrorSink, path } from "./errors";
import { type JsonObject } from "./json";
import { FIELD_CAPS } from "./limits";
import { stacktraceField } from "./stacktrace";
import { booleanField, jsonLenientString, objectField, stringField } from "./strings";
import { objectItems, valuesField } from "./values";

// Rust's `\w` is Unicode-aware and its `.` stops only at "\n".
const TYPE_VALUE = /^([\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]+):([^\n]*)$/u;

function normalizeMechanism(exception: JsonObject, name: string, sink: ErrorSink): void {
  const mechanism = objectField(exception, "mechanism", name, sink);
  if (!mechanism) return;
  const at = path(name, "mechanism");
  for (const key of ["type", "description", "help_link", "source"]) stringField(mechanism, key, at, sink);
  for (const key of ["handled", "synthetic", "is_exception_group"]) booleanField(mechanism, key, at, sink);
  objectField(mechanism, "data", at, sink);
  objectField(mechanism, "meta", at, sink);
}

/** Returns false when the exception has neither type nor value and must be removed. */
function normalizeException(exception: JsonObject, name: string, sink: ErrorSink): boolean {
  stringField(exception, "type", name, sink, { maxChars: FIELD_CAPS.exceptionType });
  // Relay's exception value is a JsonLenientString: anything that is not a string is kept as its JSON text.
  if (exception.value !== undefined && exception.value !== null) exception.value = jsonLenientString(exception.value);
  else delete exception.value;
  stringField(exception, "module", name, sink, { maxChars: FIELD_CAPS.exceptionModule });
  if (exception.thread_id !== undefined && typeof exception.thread_id !== "string" && typeof exception.thread_id !== "number") {
    if (exception.thread_id !== null) sink.add("invalid_data", path(name, "thread_id"), exception.thread_id, { reason: "expected a thread id" });
    delete exception.thread_id;
  }
  normalizeMechanism(exception, name, sink);
  stacktraceField(exception, "stacktrace", name, sink);
  stacktraceField(exception, "raw_stacktrace", name, sink);

  const empty = (v: unknown) => v === undefined || v === "";
  if (empty(exception.type) && typeof exception.value === "string") {
    const m = TYPE_VALUE.exec(exception.value);
    if (m && m[1] !== undefined && m[2] !== undefined) {
      exception.type = m[1];
      exception.value = m[2].trim();
    }
  }
  // Trimmed last, as Relay's trimming runs after normalization (the split above sees the value whole).
  stringField(exception, "value", name, sink, { maxChars: FIELD_CAPS.exceptionValue });
  if (empty(exception.type) && empty(exception.value)) {
    sink.add("missing_attribute", name, undefined, { attribute: "type or value" });
    return false;
  }
  return true;
}

/** Normalizes `event.exception` into `{values: [...]}` of valid exceptions. */
export function normalizeExceptions(event: JsonObject, sink: ErrorSink): void {
  const values = valuesField(event, "exception", sink);
  if (!values) return;
  const items = objectItems(values, "exception.values", sink);
  // A single exception takes the event's top-level stacktrace (Relay's `normalize_exceptions`).
  if (items.length === 1 && items[0] && event.stacktrace !== undefined && event.stacktrace !== null) {
    items[0].stacktrace = event.stacktrace;
    delete event.stacktrace;
  }
  const kept = items.filter((e, i) => normalizeException(e, `exception.values.${i}`, sink));
  values.splice(0, values.length, ...kept);
}
