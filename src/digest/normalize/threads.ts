// Threads (relay-event-schema protocol/thread.rs) and the event's own stack trace: their stack traces are
// normalized as exception stack traces are (relay-event-normalization event.rs `normalize_stacktraces`).
import { ErrorSink } from "./errors";
import { type JsonObject } from "./json";
import { FIELD_CAPS } from "./limits";
import { stacktraceField } from "./stacktrace";
import { booleanField, stringField } from "./strings";
import { objectItems, valuesField } from "./values";

/** Normalizes `event.threads` into `{values: [...]}` and every thread's stack traces, then `event.stacktrace`. */
export function normalizeThreads(event: JsonObject, sink: ErrorSink): void {
  stacktraceField(event, "stacktrace", "", sink);
  const values = valuesField(event, "threads", sink);
  if (!values) return;
  objectItems(values, "threads.values", sink).forEach((thread, i) => {
    const name = `threads.values.${i}`;
    if (thread.id !== undefined && typeof thread.id !== "string" && typeof thread.id !== "number") {
      if (thread.id !== null) sink.add("invalid_data", `${name}.id`, thread.id, { reason: "expected a thread id" });
      delete thread.id;
    }
    stringField(thread, "name", name, sink, { maxChars: FIELD_CAPS.threadName });
    stringField(thread, "state", name, sink);
    for (const key of ["crashed", "current", "main"]) booleanField(thread, key, name, sink);
    stacktraceField(thread, "stacktrace", name, sink);
    stacktraceField(thread, "raw_stacktrace", name, sink);
  });
}
