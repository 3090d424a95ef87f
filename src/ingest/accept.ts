// What the intake keeps of a request: the item policy (which types are kept, their size limits, at most one event),
// the event id the SDK is answered with, and the event quotas. Whole-request problems throw an IntakeRefusal;
// per-item decisions become outcome counts.
import { INGEST_LIMITS, LOG_LIMITS, SELF_MONITORING_LIMITS } from "../config/limits";
import { type DataCategory, QUOTA_CATEGORIES, categoryOf, quotaCategoryOf } from "../protocol/categories";
import type { Envelope } from "../protocol/envelope";
import { looksLikeJsonObject, normalizeEventId, parseJsonObject, parseJsonObjectOrNull } from "../protocol/json";
import type { ActiveRateLimit } from "../protocol/rate-limits";
import { hourOf } from "../core/hours";
import type { IntakeKey, OutcomeIncrement, OutcomeKind } from "../storage/ports";
import type { RateLimiter } from "./rate-limiter";
import { IntakeRefusal } from "./refusals";
import type { SpoolEntry } from "./spool";

/** Item types Faultline keeps (sentry-protocol.md §2); every other type is skipped and counted as filtered. */
const EVENT_ITEMS = new Set(["event", "transaction", "feedback"]);
const KEPT_ITEMS = new Set([...EVENT_ITEMS, "attachment", "session", "sessions", "client_report", "user_report", "span", "check_in", "log", "otel_log"]);

function sizeLimit(type: string): number {
  switch (type) {
    case "attachment":
      return INGEST_LIMITS.maxAttachmentBytes;
    case "client_report":
      return INGEST_LIMITS.maxClientReportBytes;
    case "check_in":
      return INGEST_LIMITS.maxCheckInBytes;
    case "log":
    case "otel_log":
      return LOG_LIMITS.maxItemBytes;
    case "event":
    case "transaction":
    case "feedback":
    case "span":
      return INGEST_LIMITS.maxEventBytes;
    default:
      return INGEST_LIMITS.maxOtherItemBytes;
  }
}

/**
 * Units of an item for its quota: bytes of an attachment; the log lines of a `log` item, from its item_count header
 * (as Relay counts it before reading the payload; absent or out of range counts as one, and the digest counts what it
 * read); one for anything else.
 */
function quantityOf(type: string, headers: Record<string, unknown>, bytes: number): number {
  if (type === "attachment") return bytes;
  const n = headers.item_count;
  if (type === "log" && typeof n === "number" && Number.isInteger(n) && n >= 1) return Math.min(n, LOG_LIMITS.maxLogsPerItem);
  return 1;
}

export type Accepted = { eventId: string | null; entries: SpoolEntry[]; outcomes: OutcomeIncrement[]; limits: ActiveRateLimit[] };
export type AcceptContext = { key: IntakeKey; now: number; meta: string; limiter: RateLimiter };

export const newEventId = () => crypto.randomUUID().replace(/-/g, "");

/** Counts `quantity` of a category under an outcome, for the key's project, in the current hour. */
export const outcome = (ctx: { key: IntakeKey; now: number }, category: string, kind: OutcomeKind, reason: string, quantity = 1): OutcomeIncrement => ({
  projectId: ctx.key.projectId,
  hour: hourOf(ctx.now),
  category,
  outcome: kind,
  reason,
  quantity,
});

/**
 * Applies the key's, the project's and the organization's quotas of the item's category to one item of `quantity`
 * units (bytes for attachments); the limit hit, if any, named with the category's Sentry names for
 * X-Sentry-Rate-Limits. The internal project's key has quotas of its own by default
 * (SELF_MONITORING_LIMITS.internalKeyQuotas): its DSN is public.
 */
export function quotaRefusal(ctx: AcceptContext, category: DataCategory, quantity: number): { limit: ActiveRateLimit; reason: string } | null {
  const name = quotaCategoryOf(category);
  if (!name) return null;
  const keyLimit = ctx.key.keyQuotas[name] ?? (ctx.key.internal ? SELF_MONITORING_LIMITS.internalKeyQuotas[name] : undefined);
  const quotas = [
    { name: `key:${ctx.key.keyId}:${name}`, limit: keyLimit, scope: "key" as const, reason: "key_quota" },
    { name: `project:${ctx.key.projectId}:${name}`, limit: ctx.key.projectQuotas[name], scope: "project" as const, reason: "project_quota" },
    { name: `org:${ctx.key.organizationId}:${name}`, limit: ctx.key.organizationQuotas[name], scope: "organization" as const, reason: "org_quota" },
  ];
  for (const q of quotas) {
    if (!q.limit) continue;
    const taken = ctx.limiter.take(q.name, q.limit, ctx.now, quantity);
    if (!taken.ok)
      return {
        limit: { retryAfterSeconds: taken.retryAfterSeconds, categories: QUOTA_CATEGORIES[name], scope: q.scope, reasonCode: q.reason },
        reason: q.reason,
      };
  }
  return null;
}

/** The kept items of an envelope, in spool form, with their outcomes; throws for a request to refuse whole. */
export function acceptEnvelope(envelope: Envelope, ctx: AcceptContext): Accepted {
  const headerEventId = normalizeEventId(envelope.headers.event_id);
  let eventId: string | null = headerEventId;
  let events = 0;
  let sessions = 0;
  let attachmentBytes = 0;
  const entries: SpoolEntry[] = [];
  const outcomes: OutcomeIncrement[] = [];
  const limits: ActiveRateLimit[] = [];
  const refuse = (reason: "payload_too_large" | "too_many_items" | "invalid_json", message: string, category: string): never => {
    throw new IntakeRefusal(reason, message, {}, [outcome(ctx, category, "invalid", reason)]);
  };

  // The event first: when its quota refuses it, the attachments of the envelope go with it (Relay's EnvelopeLimiter),
  // while attachments refused by their own quota leave the event as it is.
  let eventLimited: { limit: ActiveRateLimit; reason: string } | null = null;
  const ordered = [...envelope.items.filter((i) => EVENT_ITEMS.has(i.headers.type)), ...envelope.items.filter((i) => !EVENT_ITEMS.has(i.headers.type))];
  for (const item of ordered) {
    const type = item.headers.type;
    if (!KEPT_ITEMS.has(type)) {
      outcomes.push(outcome(ctx, categoryOf(type), "filtered", "unsupported_item_type"));
      continue;
    }
    if (item.payload.byteLength > sizeLimit(type))
      refuse("payload_too_large", `envelope item ${type} is larger than ${sizeLimit(type)} bytes`, categoryOf(type));
    let category = categoryOf(type);
    let itemEventId: string | null = null;
    let payload: Record<string, unknown> | null = null;
    if (EVENT_ITEMS.has(type)) {
      if (++events > 1) refuse("too_many_items", "an envelope may hold only one event or transaction", category);
      // Parsing is the digest's work. The intake reads the payload only for an event id the envelope header lacks
      // (the SDK is answered with it); otherwise it checks the payload's outline, and the digest counts an item
      // that still fails to parse as invalid (invalid_json), as Relay does after answering 200.
      if (eventId === null) payload = parseJsonObject(item.payload, type);
      else if (!looksLikeJsonObject(item.payload)) refuse("invalid_json", `the ${type} is not a JSON object`, category);
      // "If it disagrees with the payload's event_id, the header wins." Relay generates one when both are missing.
      itemEventId = eventId ?? normalizeEventId(payload?.event_id) ?? newEventId();
      eventId = itemEventId;
    } else if (type === "session" || type === "sessions") {
      sessions += 1;
      if (sessions > INGEST_LIMITS.maxSessionsPerEnvelope)
        refuse("too_many_items", `an envelope may hold at most ${INGEST_LIMITS.maxSessionsPerEnvelope} sessions`, category);
    } else if (type === "attachment") {
      attachmentBytes += item.payload.byteLength;
      if (attachmentBytes > INGEST_LIMITS.maxAttachmentBytes)
        refuse("payload_too_large", `attachments are larger than ${INGEST_LIMITS.maxAttachmentBytes} bytes together`, category);
      // The envelope's event (read first), else the envelope header's id: an envelope of attachments alone names it there.
      itemEventId = eventId;
    } else if (type === "user_report") {
      itemEventId = headerEventId;
    }
    const quantity = quantityOf(type, item.headers, item.payload.byteLength);
    const limited: { limit: ActiveRateLimit; reason: string } | null =
      type === "attachment" && eventLimited ? eventLimited : quotaRefusal(ctx, category, quantity);
    if (limited) {
      if (EVENT_ITEMS.has(type)) eventLimited = limited;
      if (!limits.includes(limited.limit)) limits.push(limited.limit);
      // An event is counted as "error" or "default" by whether it has an exception; only a refused one is read here.
      if (type === "event") category = categoryOf(type, payload ?? parseJsonObjectOrNull(item.payload) ?? undefined);
      outcomes.push(outcome(ctx, category, "rate_limited", limited.reason, quantity));
      if (category === "log_item") outcomes.push(outcome(ctx, "log_byte", "rate_limited", limited.reason, item.payload.byteLength));
      continue;
    }
    entries.push({
      projectId: ctx.key.projectId,
      keyId: ctx.key.keyId,
      receivedAt: ctx.now,
      itemType: type,
      eventId: itemEventId,
      headers: JSON.stringify(item.headers),
      meta: ctx.meta,
      payload: item.payload,
    });
  }
  return { eventId, entries, outcomes, limits };
}

/** A single event (a /store/ body, or a security report turned into an event) as one spool entry. */
export function acceptEvent(itemType: "event" | "security", payload: Uint8Array, event: Record<string, unknown>, ctx: AcceptContext): Accepted {
  const category = itemType === "security" ? "security" : categoryOf("event", event);
  const eventId = normalizeEventId(event.event_id) ?? newEventId();
  const limited = quotaRefusal(ctx, category, 1);
  if (limited) return { eventId: null, entries: [], outcomes: [outcome(ctx, category, "rate_limited", limited.reason)], limits: [limited.limit] };
  const entry: SpoolEntry = {
    projectId: ctx.key.projectId,
    keyId: ctx.key.keyId,
    receivedAt: ctx.now,
    itemType,
    eventId,
    headers: `{"type":"${itemType}"}`,
    meta: ctx.meta,
    payload,
  };
  return { eventId, entries: [entry], outcomes: [], limits: [] };
}
