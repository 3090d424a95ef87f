// Spans of transactions (relay-event-schema protocol/span.rs): each span an object, its timestamps parsed as the
// event's; a span before 1970 is removed (relay-event-normalization timestamp.rs `process_span`).
import { ErrorSink } from "./errors";
import { isObject, type JsonObject } from "./json";
import { objectField } from "./strings";
import { timestampField } from "./timestamps";

/** Normalizes `event.spans`: an array of span objects with numeric timestamps. */
export function normalizeSpans(event: JsonObject, sink: ErrorSink): void {
  if (!("spans" in event)) return;
  const raw = event.spans;
  if (!Array.isArray(raw)) {
    if (raw !== null) sink.add("invalid_data", "spans", raw, { reason: "expected an array" });
    delete event.spans;
    return;
  }
  const kept: JsonObject[] = [];
  // A loop, not forEach with an arrow: a closure made per event is compiled again after each full collection
  // (storage/kysely/batch-rows.ts sumBy).
  for (let i = 0; i < raw.length; i++) {
    const span: unknown = raw[i];
    const name = `spans.${i}`;
    if (!isObject(span)) {
      if (span !== null) sink.add("invalid_data", name, span, { reason: "expected a span" });
      continue;
    }
    const start = timestampField(span, "start_timestamp", `${name}.start_timestamp`, sink);
    const end = timestampField(span, "timestamp", `${name}.timestamp`, sink);
    if ((start !== undefined && start < 0) || (end !== undefined && end < 0)) {
      sink.add("invalid_data", name, undefined, { reason: "timestamp is too stale" });
      continue;
    }
    objectField(span, "data", name, sink);
    kept.push(span);
  }
  event.spans = kept;
}
