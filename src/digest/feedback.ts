// User feedback in the digest (issue 19): the feedback a `feedback` event carries (contexts.feedback, Relay's
// UserReportV2Context: message, contact_email, name, url, associated_event_id, source) and the legacy `user_report`
// item (Relay's UserReport: event_id, name, email, comments) as rows of user_feedback, written in the batch's
// transaction with a link to the associated event's issue, whichever of the two is stored first.
//
// User reports are not scrubbed: Relay's process_user_reports (relay-server/src/services/processor/report.rs) only
// parses and re-serializes them, and runs no PII processor over them; the name and e-mail are what the person typed to
// be contacted. Feedback events are scrubbed with every other event (scrubbers.ts), and their rows read the scrubbed event.
import { FEEDBACK_LIMITS } from "../config/limits";
import { ProtocolError } from "../protocol/errors";
import type { FeedbackDetails, NewFeedback, WrittenFeedback } from "../storage/feedback-ports";
import type { DigestTx } from "../storage/digest-ports";
import type { DigestedEvent } from "./digested-event";
import { browserOfUserAgent, osOfUserAgent, userAgentOf } from "./user-agent";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : null);

/** An event id as Sentry writes it (32 lowercase hex), from a UUID with or without dashes; else null. */
export function eventIdOf(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const id = v.replace(/-/g, "").toLowerCase();
  return /^[0-9a-f]{32}$/.test(id) ? id : null;
}

/** A text field, cut to `max` characters; a value of the wrong type is dropped. Each change adds a note. */
export function textField(v: unknown, field: string, max: number, notes: string[]): string {
  if (v === undefined || v === null) return "";
  if (typeof v !== "string") {
    notes.push(`${field}: not a string, dropped`);
    return "";
  }
  const clean = v.replace(/\u0000/g, "");
  if (clean.length <= max) return clean;
  notes.push(`${field}: cut to ${max} characters`);
  return clean.slice(0, max);
}

const detail = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v.slice(0, FEEDBACK_LIMITS.maxDetailLength) : undefined);
const nameVersion = (c: Json | null): string | null =>
  c ? (detail([c.name, c.version].filter((x) => typeof x === "string" && x !== "").join(" ")) ?? null) : null;

/** Where a feedback event came from: its browser, OS, device, environment, release, user and tags. */
function detailsOf(event: Json): FeedbackDetails {
  const contexts = obj(event.contexts);
  const details: FeedbackDetails = {};
  // Browser SDKs send no browser context, only the User-Agent header (Relay derives the contexts from it).
  const ua = userAgentOf(event.request);
  const browser = nameVersion(obj(contexts?.browser)) ?? (ua ? browserOfUserAgent(ua) : null);
  if (browser) details.browser = browser;
  const os = nameVersion(obj(contexts?.os)) ?? (ua ? osOfUserAgent(ua) : null);
  if (os) details.os = os;
  const device = detail(obj(contexts?.device)?.model) ?? detail(obj(contexts?.device)?.family);
  if (device) details.device = device;
  const environment = detail(event.environment);
  if (environment) details.environment = environment;
  const release = detail(event.release);
  if (release) details.release = release;
  const user = obj(event.user);
  if (user) {
    const u: NonNullable<FeedbackDetails["user"]> = {};
    for (const k of ["id", "email", "username", "ip_address"] as const) {
      const v = typeof user[k] === "number" ? String(user[k]) : detail(user[k]);
      if (v) u[k] = v;
    }
    if (Object.keys(u).length > 0) details.user = u;
  }
  const tags = Array.isArray(event.tags) ? (event.tags as unknown[]) : [];
  const pairs = tags
    .filter((t): t is [string, string] => Array.isArray(t) && typeof t[0] === "string" && typeof t[1] === "string")
    .slice(0, FEEDBACK_LIMITS.maxTags)
    .map(([k, v]) => [k.slice(0, FEEDBACK_LIMITS.maxDetailLength), v.slice(0, FEEDBACK_LIMITS.maxDetailLength)] as [string, string]);
  if (pairs.length > 0) details.tags = pairs;
  return details;
}

/** The feedback of a normalized (and scrubbed) feedback event; null when it has no feedback context. */
export function feedbackOfEvent(event: Json, projectId: number, eventId: string, receivedAt: string): NewFeedback | null {
  const context = obj(obj(event.contexts)?.feedback);
  if (!context) return null;
  const notes: string[] = [];
  const details = detailsOf(event);
  const requestUrl = obj(event.request)?.url;
  const feedback: NewFeedback = {
    projectId,
    source: "feedback",
    feedbackEventId: eventId,
    associatedEventId: eventIdOf(context.associated_event_id),
    message: textField(context.message, "message", FEEDBACK_LIMITS.maxMessageLength, notes),
    name: textField(context.name, "name", FEEDBACK_LIMITS.maxNameLength, notes),
    email: textField(context.contact_email, "contact_email", FEEDBACK_LIMITS.maxEmailLength, notes),
    url: textField(context.url ?? requestUrl, "url", FEEDBACK_LIMITS.maxUrlLength, notes),
    details,
    receivedAt,
  };
  if (notes.length > 0) details.notes = notes;
  return feedback;
}

/**
 * A user report (the `user_report` item, or the user-feedback API's body) as feedback. Relay drops one whose
 * event_id is missing or not an event id as invalid JSON (UserReport requires it); the other fields are lenient here:
 * a wrong type becomes "" and a long value is cut, each noted.
 */
export function feedbackOfUserReport(report: unknown, projectId: number, receivedAt: string, source: "user_report" | "api"): NewFeedback {
  const r = obj(report);
  const eventId = eventIdOf(r?.event_id);
  if (!r || !eventId) throw new ProtocolError("invalid_json", "the user report has no valid event_id");
  const notes: string[] = [];
  const feedback: NewFeedback = {
    projectId,
    source,
    feedbackEventId: null,
    associatedEventId: eventId,
    message: textField(r.comments, "comments", FEEDBACK_LIMITS.maxMessageLength, notes),
    name: textField(r.name, "name", FEEDBACK_LIMITS.maxNameLength, notes),
    email: textField(r.email, "email", FEEDBACK_LIMITS.maxEmailLength, notes),
    url: "",
    details: notes.length > 0 ? { notes } : {},
    receivedAt,
  };
  return feedback;
}

/**
 * Writes the batch's feedback (called from commit.ts after its events are stored): the feedback of feedback events
 * stored now, and the user reports; then links feedback that was waiting for an event stored in this batch. Returns
 * what became of each row (the new ones fire alert rules, digest/feedback-alerts.ts).
 */
export async function writeFeedback(
  tx: DigestTx,
  stored: DigestedEvent[],
  issueOf: Map<DigestedEvent, number>,
  reports: NewFeedback[],
): Promise<WrittenFeedback[]> {
  // Loops, not callbacks made per batch (storage/kysely/batch-rows.ts sumBy says why).
  const rows: NewFeedback[] = [];
  const links: { projectId: number; eventId: string; issueId: number }[] = [];
  for (const e of stored) {
    if (e.feedback) rows.push(e.feedback);
    const issueId = issueOf.get(e);
    if (issueId !== undefined && e.type !== "feedback") links.push({ projectId: e.projectId, eventId: e.eventId, issueId });
  }
  rows.push(...reports);
  const written = rows.length > 0 ? await tx.insertFeedback(rows) : [];
  if (links.length > 0) await tx.linkFeedback(links);
  return written;
}
