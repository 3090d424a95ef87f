// The event a minidump upload becomes before any symbolication (Relay's write_native_placeholder): platform
// "native", level fatal, one exception of mechanism "minidump" (unhandled, synthetic) standing for the crash. Sentry
// replaces it with the symbolicated crash; Faultline does not symbolicate native code, so the event says so: its
// exception value reads "Native crash, not symbolicated", with the code and address the minidump names, and the
// operating system and CPU it was written on fill the event's contexts where the form fields did not.
import type { MinidumpInfo } from "./minidump";

type Json = Record<string, unknown>;

export const NOT_SYMBOLICATED = "Native crash, not symbolicated";

export function minidumpEvent(formEvent: Json, info: MinidumpInfo | null, eventId: string): Json {
  const event: Json = { ...formEvent, event_id: eventId, platform: "native" };
  event.level ??= "fatal";
  const where = info?.exception ? ` (${info.exception.name ?? info.exception.code} at ${info.exception.address})` : "";
  event.exception = {
    values: [
      {
        type: info?.exception?.name ?? "Minidump",
        value: `${NOT_SYMBOLICATED}${where}`,
        mechanism: { type: "minidump", handled: false, synthetic: true },
      },
    ],
  };
  if (info) {
    const contexts = (typeof event.contexts === "object" && event.contexts !== null && !Array.isArray(event.contexts) ? event.contexts : {}) as Json;
    if (info.os && !contexts.os) contexts.os = { type: "os", name: info.os, ...(info.osVersion ? { version: info.osVersion } : {}) };
    if (info.cpu && !contexts.device) contexts.device = { type: "device", arch: info.cpu };
    event.contexts = contexts;
    if (info.timestamp > 0 && event.timestamp === undefined) event.timestamp = info.timestamp;
  }
  const tags = Array.isArray(event.tags)
    ? [...(event.tags as unknown[])]
    : typeof event.tags === "object" && event.tags !== null
      ? Object.entries(event.tags as Json)
      : [];
  tags.push(["native.symbolicated", "no"]);
  event.tags = tags;
  return event;
}
