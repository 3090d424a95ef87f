// The msgpack parts sentry-native's Crashpad and Breakpad backends upload beside the minidump, read into its event as
// Relay reads them (getsentry/relay relay-server/src/services/processor/event.rs: extract, event_from_attachments,
// extract_attached_event, parse_msgpack_breadcrumbs; endpoints/minidump.rs infers their types from the field names):
//   `__sentry-event`: one msgpack map, the scope applied to an empty event without breadcrumbs (level, release,
//     environment, user, tags, contexts, sdk, event_id…; sentry-native src/backends/sentry_backend_crashpad.cpp
//     flush_scope_to_event, written by sentry_value_to_msgpack in src/sentry_value.c);
//   `__sentry-breadcrumb1`, `__sentry-breadcrumb2`: msgpack maps one after another, no array around them. The SDK
//     appends each breadcrumb to one file until it holds `max_breadcrumbs`, then starts the other afresh
//     (crashpad_backend_add_breadcrumb), so one file holds the older breadcrumbs and the other the newer ones.
// Breadcrumbs are merged as Relay does: the file whose last timestamped breadcrumb is older goes first, and of both
// together only the newest max(len1, len2) are kept, which is the SDK's max_breadcrumbs once a file has filled.
// Where Relay refuses the whole crash for a bad part (InvalidMsgpack, PayloadTooLarge), Faultline keeps the crash and
// drops the part, noting why in the event's `errors`; a breadcrumb file cut short (the process died while appending)
// keeps the breadcrumbs before the cut. Pure: bytes in, event out.
import { ExtData, decode, decodeMulti } from "@msgpack/msgpack";
import { ATTACHMENT_LIMITS } from "../config/limits";
import { msgpackShape } from "./msgpack-shape";

type Json = Record<string, unknown>;

export const NATIVE_EVENT_PART = "__sentry-event";
export const NATIVE_BREADCRUMB_PARTS = ["__sentry-breadcrumb1", "__sentry-breadcrumb2"] as const;

/** Whether a multipart file field is one of sentry-native's msgpack parts (read into the event, never stored). */
export const isNativePart = (field: string): boolean => field === NATIVE_EVENT_PART || (NATIVE_BREADCRUMB_PARTS as readonly string[]).includes(field);

/** A part as the upload carried it: its bytes, or null when it was larger than ATTACHMENT_LIMITS.maxNativePartBytes. */
export type NativePart = { field: string; bytes: Uint8Array | null; size: number };

/** A note in the event's `errors` (Sentry's EventError shape): the part and why it was dropped, wholly or in part. */
export type NativePartNote = { type: "invalid_data"; name: string; reason: string };

const isMap = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** What the decoder gives, made JSON: binary and extension values (no JSON form) become null and are counted. */
function toJson(value: unknown, dropped: { n: number }): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value instanceof Date) {
    // msgpack's timestamp extension (type -1), which the decoder reads as a Date: seconds, as Sentry's timestamps.
    const ms = value.getTime();
    if (Number.isFinite(ms)) return ms / 1000;
  } else if (Array.isArray(value)) return value.map((v) => toJson(v, dropped));
  else if (isMap(value) && !(value instanceof ExtData) && !(value instanceof Uint8Array)) {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJson(v, dropped);
    return out;
  }
  dropped.n++;
  return null;
}

const limitsFor = (bytes: Uint8Array) => {
  const n = bytes.byteLength;
  return { maxStrLength: n, maxBinLength: n, maxArrayLength: n, maxMapLength: n, maxExtLength: n };
};

/** The part's bytes checked before decoding: present, within the size and shape bounds. A reason when not. */
function refusal(part: NativePart): string | null {
  if (!part.bytes) return `larger than ${ATTACHMENT_LIMITS.maxNativePartBytes} bytes (${part.size})`;
  const shape = msgpackShape(part.bytes, ATTACHMENT_LIMITS.maxMsgpackDepth, ATTACHMENT_LIMITS.maxMsgpackValues);
  return shape.ok ? null : `not readable msgpack: ${shape.reason}`;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 200);
const note = (name: string, reason: string): NativePartNote => ({ type: "invalid_data", name, reason });

/** `__sentry-event`: the attached event, or the note it is dropped with. An empty part is no event (Relay). */
function attachedEvent(part: NativePart, notes: NativePartNote[]): Json | null {
  if (part.bytes?.byteLength === 0) return null;
  const refused = refusal(part);
  if (refused) return (void notes.push(note(part.field, refused)), null);
  let value: unknown;
  try {
    value = decode(part.bytes!, limitsFor(part.bytes!));
  } catch (err) {
    return (void notes.push(note(part.field, `not readable msgpack: ${describe(err)}`)), null);
  }
  if (!isMap(value) || value instanceof ExtData || value instanceof Uint8Array || value instanceof Date)
    return (void notes.push(note(part.field, `not a msgpack map but ${Array.isArray(value) ? "an array" : value === null ? "nil" : typeof value}`)), null);
  const dropped = { n: 0 };
  const event = toJson(value, dropped) as Json;
  if (dropped.n > 0) notes.push(note(part.field, `${dropped.n} binary or extension value(s) have no JSON form and were dropped`));
  return event;
}

/** A breadcrumb file: its breadcrumbs in file order; what cannot be read is noted. */
function attachedBreadcrumbs(part: NativePart, notes: NativePartNote[]): Json[] {
  if (part.bytes?.byteLength === 0) return [];
  const refused = refusal(part);
  if (refused) return (void notes.push(note(part.field, refused)), []);
  const crumbs: Json[] = [];
  const dropped = { n: 0 };
  let skipped = 0;
  try {
    for (const value of decodeMulti(part.bytes!, limitsFor(part.bytes!))) {
      const crumb = toJson(value, dropped);
      if (isMap(crumb)) crumbs.push(crumb);
      else skipped++;
    }
  } catch (err) {
    notes.push(note(part.field, `cut short after ${crumbs.length + skipped} breadcrumb(s): ${describe(err)}`));
  }
  if (skipped > 0) notes.push(note(part.field, `${skipped} value(s) are not msgpack maps and are not breadcrumbs`));
  if (dropped.n > 0) notes.push(note(part.field, `${dropped.n} binary or extension value(s) have no JSON form and were dropped`));
  return crumbs;
}

/** A breadcrumb's time in seconds (an RFC 3339 string, as sentry-native writes, or a number), null without one. */
function timeOf(crumb: Json): number | null {
  const t = crumb.timestamp;
  if (typeof t === "number") return Number.isFinite(t) ? t : null;
  if (typeof t !== "string") return null;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/** The time of the last breadcrumb that has one (Relay: `.rev().find_map(timestamp)`); null sorts first, as Rust's None. */
function lastTime(crumbs: Json[]): number | null {
  for (let i = crumbs.length - 1; i >= 0; i--) {
    const t = timeOf(crumbs[i]!);
    if (t !== null) return t;
  }
  return null;
}

/** Relay's event_from_attachments: older file first, then the newest max(len1, len2) of both. */
export function mergeBreadcrumbFiles(first: Json[], second: Json[]): Json[] {
  const [a, b] = [lastTime(first), lastTime(second)];
  const [older, newer] = a !== null && (b === null || a > b) ? [second, first] : [first, second];
  const keep = Math.max(first.length, second.length);
  const all = [...older, ...newer];
  return all.slice(Math.max(0, all.length - keep));
}

/** Sentry's merge_attached_event: the attached event's values win; maps merge key by key; nil leaves a value be. */
function mergeInto(target: Json, source: Json): void {
  for (const [k, v] of Object.entries(source)) {
    if (v === null || k === "__proto__") continue;
    const had = target[k];
    if (isMap(had) && isMap(v)) mergeInto(had, v);
    else target[k] = v;
  }
}

export type NativeMerge = { event: Json; attachedEventId: unknown; notes: NativePartNote[] };

/**
 * The event of a minidump upload with sentry-native's parts read into it: `formEvent` (the form fields, as
 * form-event.ts builds it) with the attached event merged over it and the breadcrumb files as its breadcrumbs.
 * `attachedEventId` is the attached event's `event_id`, which names the crash before the form's (Relay's
 * event_id_from_items reads the msgpack event before the form data).
 */
export function mergeNativeParts(formEvent: Json, parts: readonly NativePart[]): NativeMerge {
  const notes: NativePartNote[] = [];
  const event: Json = { ...formEvent };
  const eventPart = parts.find((p) => p.field === NATIVE_EVENT_PART);
  const attached = eventPart ? attachedEvent(eventPart, notes) : null;
  if (attached) mergeInto(event, attached);
  const files = NATIVE_BREADCRUMB_PARTS.map((field) => {
    const part = parts.find((p) => p.field === field);
    return part ? attachedBreadcrumbs(part, notes) : [];
  });
  const crumbs = mergeBreadcrumbFiles(files[0]!, files[1]!);
  if (crumbs.length > 0) event.breadcrumbs = { values: crumbs };
  if (notes.length > 0) event.errors = [...(Array.isArray(event.errors) ? (event.errors as unknown[]) : []), ...notes];
  return { event, attachedEventId: attached?.event_id, notes };
}
