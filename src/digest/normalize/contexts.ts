// Contexts (relay-event-schema protocol/contexts.rs: each value an object whose `type` defaults to its key) and their
// normalization (relay-event-normalization event.rs `normalize_contexts`: the `reprocessing` context is removed,
// a trace context without status gets "unknown"). Every context is kept, known type or not.
import { ErrorSink } from "./errors";
import { isObject, type JsonObject } from "./json";
import { objectField } from "./strings";

/** Normalizes `event.contexts`. */
export function normalizeContexts(event: JsonObject, sink: ErrorSink): void {
  const contexts = objectField(event, "contexts", "", sink);
  if (!contexts) return;
  delete contexts.reprocessing;
  for (const [key, value] of Object.entries(contexts)) {
    if (!isObject(value)) {
      if (value !== null) sink.add("invalid_data", `contexts.${key}`, value, { reason: "expected an object" });
      delete contexts[key];
      continue;
    }
    if (typeof value.type !== "string" || value.type === "") value.type = key;
    if (value.type === "trace" && (value.status === undefined || value.status === null)) value.status = "unknown";
  }
}
