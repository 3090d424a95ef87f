// Values wrappers (relay-event-schema protocol/types.rs `impl FromValue for Values<T>`): `{values: [...]}`, a bare
// array, or a single object all become `{values: [...]}`; an empty object is no value at all.
import { ErrorSink } from "./errors";
import { isObject, type JsonObject } from "./json";

/** Normalizes `event[key]` to `{values: [...]}` (other keys of the wrapper kept) and returns the values, or removes it. */
export function valuesField(event: JsonObject, key: string, sink: ErrorSink): unknown[] | undefined {
  if (!(key in event)) return undefined;
  const raw = event[key];
  if (Array.isArray(raw)) {
    event[key] = { values: raw };
    return raw;
  }
  if (isObject(raw)) {
    if (Object.keys(raw).length === 0) {
      delete event[key];
      return undefined;
    }
    if (!("values" in raw)) {
      const values = [raw];
      event[key] = { values };
      return values;
    }
    const values = raw.values;
    if (Array.isArray(values)) return values;
    if (values !== null && values !== undefined) sink.add("invalid_data", `${key}.values`, values, { reason: "expected an array" });
    delete event[key];
    return undefined;
  }
  if (raw !== null && raw !== undefined) sink.add("invalid_data", key, raw, { reason: "expected a list or values object" });
  delete event[key];
  return undefined;
}

/** Keeps the object items of a values list; other items are removed with `invalid_data`. */
export function objectItems(values: unknown[], name: string, sink: ErrorSink): JsonObject[] {
  const kept: JsonObject[] = [];
  values.forEach((item, i) => {
    if (isObject(item)) kept.push(item);
    else if (item !== null) sink.add("invalid_data", `${name}.${i}`, item, { reason: "expected an object" });
  });
  values.splice(0, values.length, ...kept);
  return kept;
}
