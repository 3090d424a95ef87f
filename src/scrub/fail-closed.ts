// What is kept of an item whose scrubbing failed (it should never fail: the property tests say so; this is the last
// guard). Failing open would store whatever the rules had not reached yet, so the item keeps only fields that never
// hold personal data (Relay's pii=false fields that grouping and the listed columns read: ids, times, level, release,
// exception types and the frames' code locations), and a processing note says why the rest is gone.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const EVENT_KEYS = [
  "event_id",
  "type",
  "timestamp",
  "start_timestamp",
  "received",
  "level",
  "platform",
  "logger",
  "release",
  "dist",
  "environment",
  "fingerprint",
];
const FRAME_KEYS = ["function", "raw_function", "module", "package", "filename", "abs_path", "lineno", "colno", "in_app", "platform", "instruction_addr"];
const SPAN_KEYS = [
  "span_id",
  "trace_id",
  "parent_span_id",
  "segment_id",
  "is_segment",
  "op",
  "status",
  "start_timestamp",
  "timestamp",
  "exclusive_time",
  "origin",
];

const pick = (from: Json, keys: string[]): Json => Object.fromEntries(keys.filter((k) => from[k] !== undefined).map((k) => [k, from[k]]));

function frames(stacktrace: unknown): Json | undefined {
  if (!isObject(stacktrace) || !Array.isArray(stacktrace.frames)) return undefined;
  return { frames: stacktrace.frames.filter(isObject).map((f) => pick(f, FRAME_KEYS)) };
}

function exceptions(exception: unknown): Json | undefined {
  if (!isObject(exception) || !Array.isArray(exception.values)) return undefined;
  const values = exception.values.filter(isObject).map((e) => {
    const kept = pick(e, ["type", "module"]);
    const st = frames(e.stacktrace);
    return st ? { ...kept, stacktrace: st } : kept;
  });
  return { values };
}

/** Empties `item` in place but for what never holds personal data, and notes why (`errors` for events). */
export function keepOnlySafeFields(item: Json, kind: "event" | "span"): void {
  const kept = kind === "span" ? pick(item, SPAN_KEYS) : pick(item, EVENT_KEYS);
  if (kind === "event") {
    const exception = exceptions(item.exception);
    if (exception) kept.exception = exception;
    const errors = Array.isArray(item.errors) ? item.errors : [];
    // Earlier notes keep their type and path only: their original values could be what scrubbing was to remove.
    const notes = errors
      .filter(isObject)
      .filter((e) => typeof e.type === "string")
      .map((e) => ({ type: e.type, name: typeof e.name === "string" ? e.name : "" }));
    kept.errors = [...notes, { type: "invalid_data", name: "", reason: "data scrubbing failed: the event's data that could hold personal data was removed" }];
  }
  for (const key of Object.keys(item)) delete item[key];
  Object.assign(item, kept);
}
