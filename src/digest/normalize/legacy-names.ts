// The legacy names Relay reads as the current ones, applied before anything else looks at an event. Relay declares
// them as `#[metastructure(legacy_alias = "…")]` on the fields of relay-event-schema (protocol/event.rs,
// exception.rs, breadcrumb.rs, debugmeta.rs) and as the legacy shape `Mechanism::from_value` converts
// (protocol/mechanism.rs). relay-protocol-derive reads a field as `remove(name).or(remove(alias))…`: the current
// name wins whenever it is present (even as null), the aliases are tried in order, and every alias is removed
// either way, so none is kept as an unknown field. Older raven clients and Sentry's own sample events
// (src/sentry/data/samples/*.json) send `sentry.interfaces.*`; without this their exception, request, user and
// breadcrumbs were lost, and every such event became one `<unlabeled event>` issue.
import { isObject, type JsonObject } from "./json";

/** Event fields and their legacy aliases, in Relay's order (event.rs `Event`). */
const EVENT_ALIASES: readonly (readonly [string, readonly string[]])[] = [
  // `message`, logentry's last alias, is read by logentry.ts, which also knows its string form.
  ["logentry", ["sentry.interfaces.Message"]],
  ["user", ["sentry.interfaces.User"]],
  ["request", ["sentry.interfaces.Http"]],
  ["contexts", ["sentry.interfaces.Contexts"]],
  ["breadcrumbs", ["sentry.interfaces.Breadcrumbs"]],
  ["exception", ["sentry.interfaces.Exception"]],
  ["stacktrace", ["sentry.interfaces.Stacktrace"]],
  ["template", ["sentry.interfaces.Template"]],
  ["csp", ["sentry.interfaces.Csp"]],
  ["hpkp", ["sentry.interfaces.Hpkp"]],
  ["expectct", ["sentry.interfaces.ExpectCT"]],
  ["expectstaple", ["sentry.interfaces.ExpectStaple"]],
];

/** Debug image types that are Relay's `NativeDebugImage` (debugmeta.rs `DebugImage`), whose fields have aliases. */
const NATIVE_IMAGE_TYPES = new Set(["symbolic", "macho", "elf", "pe", "pe_dotnet", "wasm"]);

/** relay-protocol-derive's read of one field: the current name if present, else the first alias present. */
function alias(object: JsonObject, name: string, aliases: readonly string[]): void {
  for (const legacy of aliases) {
    if (!Object.hasOwn(object, legacy)) continue;
    const value = object[legacy];
    delete object[legacy];
    if (!Object.hasOwn(object, name)) object[name] = value;
  }
}

/** The items of a `Values<T>` interface: `{values: [...]}`, a bare array or one object (values.ts); objects only. */
function items(value: unknown): JsonObject[] {
  if (Array.isArray(value)) return value.filter(isObject);
  if (!isObject(value)) return [];
  if (!Object.hasOwn(value, "values")) return Object.keys(value).length > 0 ? [value] : [];
  return Array.isArray(value.values) ? value.values.filter(isObject) : [];
}

/**
 * Relay's legacy mechanism (mechanism.rs `LegacyMechanism`): an object without `type` is a "generic" mechanism whose
 * fields become its `data`, with `posix_signal` and `mach_exception` moved under `meta` in their current shape. A
 * `type` that is not a string counts as missing here (Relay reports it and keeps the other fields): normalization
 * drops such a type, so reading the result again gives the same event.
 */
function legacyMechanism(exception: JsonObject): void {
  const mechanism = exception.mechanism;
  if (!isObject(mechanism) || typeof mechanism.type === "string") return;
  if (Object.keys(mechanism).length === 0) {
    delete exception.mechanism;
    return;
  }
  const { type: _invalid, posix_signal: signal, mach_exception: mach, ...data } = mechanism;
  const meta: JsonObject = {};
  if (isObject(signal)) meta.signal = { number: signal.signal, code: signal.code, name: signal.name, code_name: signal.code_name };
  if (isObject(mach)) meta.mach_exception = { exception: mach.exception, code: mach.code, subcode: mach.subcode, name: mach.exception_name };
  for (const part of Object.values(meta) as JsonObject[]) for (const key of Object.keys(part)) if (part[key] === undefined) delete part[key];
  // Relay leaves out an empty `data` and `meta` when it writes the event.
  exception.mechanism = { type: "generic", ...(Object.keys(data).length > 0 ? { data } : {}), ...(Object.keys(meta).length > 0 ? { meta } : {}) };
}

/** Renames every legacy field of `event` in place to its current name, as Relay reads it. */
export function readLegacyNames(event: JsonObject): void {
  for (const [name, aliases] of EVENT_ALIASES) alias(event, name, aliases);
  for (const exception of items(event.exception)) {
    alias(exception, "stacktrace", ["sentry.interfaces.Stacktrace"]); // exception.rs
    legacyMechanism(exception);
  }
  for (const crumb of items(event.breadcrumbs)) alias(crumb, "type", ["ty"]); // breadcrumb.rs
  const images = isObject(event.debug_meta) && Array.isArray(event.debug_meta.images) ? event.debug_meta.images.filter(isObject) : [];
  for (const image of images) {
    if (typeof image.type !== "string" || !NATIVE_IMAGE_TYPES.has(image.type)) continue;
    alias(image, "code_file", ["name"]); // debugmeta.rs `NativeDebugImage`
    alias(image, "debug_id", ["id"]);
  }
}
