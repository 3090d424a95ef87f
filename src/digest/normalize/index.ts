// Faultline's event normalization, the first step of the digest: a pure function from any JSON value to the event
// Faultline stores, following Sentry's Relay (relay-event-normalization event.rs `normalize_event`/`normalize`,
// with its store defaults). It never throws; every repair is recorded as a Sentry-style processing error.
import { backfillIpAddresses, normalizeUser } from "./user";
import { normalizeBreadcrumbs } from "./breadcrumbs";
import { normalizeContexts } from "./contexts";
import { trimDatabags } from "./databags";
import { ErrorSink, keptErrors, type ProcessingError } from "./errors";
import { normalizeExceptions } from "./exception";
import { applyDefaults, normalizeAttributes, normalizeEnvironment } from "./fields";
import { isObject, type JsonObject } from "./json";
import { MAX_PROCESSING_ERRORS } from "./limits";
import type { Level } from "./levels";
import { readLegacyNames } from "./legacy-names";
import { normalizeLogentry } from "./logentry";
import { removeNul } from "./nul";
import { normalizeTags, type Pair } from "./pairs";
import { normalizeRequest } from "./request";
import { normalizeSpans } from "./spans";
import { normalizeThreads } from "./threads";
import { normalizeTimestamps } from "./timestamps";

export type { ProcessingError, ProcessingErrorType } from "./errors";
export type { Level } from "./levels";
export type { Pair } from "./pairs";

export type NormalizeContext = {
  /** When the intake received the event, epoch milliseconds. */
  receivedAt: number;
  /** The event id the intake assigned (32 hex digits, dashes allowed). */
  eventId: string;
  /** The address the event came from, for `{{auto}}` and platform backfills. */
  clientIp?: string | null;
  /** The envelope item type the event came in. */
  itemType: "event" | "transaction" | "security" | "feedback" | (string & {});
  /**
   * The input is a value fresh from JSON.parse that the caller gives up: it is normalized in place instead of being
   * copied first (the copy, a JSON round trip, cost the digest as much as parsing did).
   */
  ownsInput?: boolean;
  /** The payload's size in bytes, when known: a bound on every databag's size (databags.ts). */
  payloadBytes?: number;
  /**
   * The caller saw that no string or key of the input can hold U+0000 (jsonHasNoNul on the JSON text it was parsed
   * from), so the walk that removes them (nul.ts) is skipped: it cost the digest a tenth of normalizing.
   */
  nulFree?: boolean;
};

export type NormalizedEvent = JsonObject & {
  event_id: string;
  type: string;
  /** Seconds since the epoch, microsecond precision. */
  timestamp: number;
  received: number;
  start_timestamp?: number;
  level: Level;
  platform: string;
  logger: string;
  extra: JsonObject;
  errors: ProcessingError[];
  tags?: Pair[];
  release?: string;
  dist?: string;
  environment?: string;
  fingerprint?: string[];
  logentry?: { message?: string; formatted?: string; params?: unknown } & JsonObject;
  exception?: { values: JsonObject[] } & JsonObject;
  breadcrumbs?: { values: JsonObject[] } & JsonObject;
  threads?: { values: JsonObject[] } & JsonObject;
  user?: JsonObject;
  request?: JsonObject;
  contexts?: Record<string, JsonObject & { type: string }>;
};

export type NormalizeResult = { event: NormalizedEvent; errors: ProcessingError[] };

/** Event ids are stored as 32 lower-case hex digits, as Relay serializes `EventId`. */
function normalizeEventId(id: string): string {
  const simple = id.replace(/-/g, "").toLowerCase();
  return /^[0-9a-f]{32}$/.test(simple) ? simple : id;
}

/** Copies the input into a plain JSON object, or reports why it is not one. */
function copyInput(input: unknown, sink: ErrorSink, owned: boolean): JsonObject {
  if (!isObject(input)) {
    sink.add("invalid_data", "", undefined, { reason: "expected an event object" });
    return {};
  }
  if (owned) return input;
  try {
    const copy: unknown = JSON.parse(JSON.stringify(input));
    if (isObject(copy)) return copy;
  } catch {
    // Not JSON-serializable (cycles, BigInt): fall through to an empty event.
  }
  sink.add("invalid_data", "", undefined, { reason: "expected a JSON object" });
  return {};
}

/** Normalizes one event payload. Pure: the input is not modified, unless `ctx.ownsInput` hands it over. */
export function normalizeEvent(input: unknown, ctx: NormalizeContext): NormalizeResult {
  const sink = new ErrorSink();
  const event = copyInput(input, sink, ctx.ownsInput === true);
  if (ctx.nulFree !== true) removeNul(event, sink);
  readLegacyNames(event);
  // An SDK's list is read no further than what is kept (a megabyte of it is a hundred thousand entries); the rest is counted.
  const sent = Array.isArray(event.errors) ? event.errors : [];
  const sdkErrors = sent.slice(0, MAX_PROCESSING_ERRORS).filter(isObject) as ProcessingError[];
  const sdkLeft = sent.length - Math.min(sent.length, MAX_PROCESSING_ERRORS);
  delete event.errors;

  normalizeAttributes(event, sink);
  normalizeRequest(event, sink);
  normalizeUser(event, sink);
  backfillIpAddresses(event, ctx.clientIp, ctx.itemType);
  normalizeLogentry(event, sink);
  normalizeBreadcrumbs(event, sink);
  normalizeThreads(event, sink);
  normalizeExceptions(event, sink);
  normalizeContexts(event, sink);
  normalizeTags(event, sink);
  normalizeEnvironment(event, sink);
  normalizeSpans(event, sink);
  normalizeTimestamps(event, ctx.receivedAt / 1000, sink);
  applyDefaults(event, ctx.itemType, sink);
  if (isObject(event.user) && Object.keys(event.user).length === 0) delete event.user;
  trimDatabags(event, ctx.payloadBytes);

  event.event_id = normalizeEventId(ctx.eventId);
  event.errors = keptErrors(sdkErrors, sdkLeft, sink);
  return { event: event as NormalizedEvent, errors: sink.errors };
}
