// Spool rows into what the database keeps: events (with their listed columns), sessions for release health, other
// kept items as they came, and outcome counts (the intake's, and the SDKs' own client reports).
import { DIGEST_LIMITS } from "../config/limits";
import { hourOf } from "../core/hours";
import { categoryOf } from "../protocol/categories";
import { ProtocolError } from "../protocol/errors";
import { parseJsonObjectText, utf8Text } from "../protocol/json";
import type { SpoolRow } from "../ingest/spool";
import type { NewRawItem, OutcomeIncrement } from "../storage/ports";
import { issueMetadata, issueTags, stacktraceCulprit, userKey } from "./event-facts";
import type { DigestedEvent } from "./digested-event";
import { userParts } from "./event-users";
import type { NewFeedback } from "../storage/feedback-ports";
import { feedbackOfEvent, feedbackOfUserReport } from "./feedback";
import { groupHashes } from "./grouping";
import { normalizeEvent } from "./normalize";
import { jsonHasNoNul, stripNul, stripNulFromJsonText } from "./normalize/nul";
import { NO_PROGRESS, type RecordProgress } from "./progress";
import type { FailedRecord } from "./set-aside";
import type { ScrubberOf } from "./scrubbers";
import { type SessionItem, readSessionRow } from "./sessions";
import { type CheckInItem, readCheckIn } from "./check-ins";
import type { NewLog } from "../storage/log-ports";
import { readLogItem } from "./logs";
import { type ExpandedSpans, spanItemSpans, traceIdOf, transactionSpans } from "./spans";
import { summarize } from "./summary";
import { type PendingAttachment, readAttachment } from "./attachments";
import { ArtifactsUnavailable, type ProjectOptions, type Symbolicator } from "./symbolicate";

/** `failed`: rows whose processing threw in the batch and again alone, to be set aside (set-aside.ts). */
export type DigestedRows = {
  events: DigestedEvent[];
  rawItems: NewRawItem[];
  outcomes: OutcomeIncrement[];
  sessions: SessionItem[];
  spans: ExpandedSpans;
  failed: FailedRecord[];
  checkIns?: CheckInItem[];
  feedback: NewFeedback[];
  pendingAttachments?: PendingAttachment[];
  logs?: NewLog[];
};

const EVENT_TYPES = new Set(["event", "transaction", "feedback", "security"]);
type Json = Record<string, unknown>;

/** A kept item's JSON payload, without NUL characters (normalize/nul.ts); not JSON is `invalid_json`. */
function parse(bytes: Uint8Array, what: string): unknown {
  const text = utf8Text(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProtocolError("invalid_json", `the ${what} is not valid JSON`);
  }
  return jsonHasNoNul(text) ? value : stripNul(value).value;
}

export type { DigestedEvent } from "./digested-event";

/**
 * Transactions are stored but not grouped (performance monitoring reads them); so is feedback, which the feedback
 * inbox lists (digest/feedback.ts): with nothing to group by, every feedback event fell into one fallback issue, shared
 * with any other event without a message or exception. Everything else becomes an issue.
 */
const UNGROUPED_TYPES = new Set(["transaction", "feedback"]);

/** Symbolication of JavaScript frames, before grouping, with the options of each event's project. */
export type DigestSymbolication = { symbolicator: Symbolicator; project: (projectId: number) => ProjectOptions };

async function toEvent(row: SpoolRow, receivedAt: string, symbolication: DigestSymbolication | null, scrubbers: ScrubberOf): Promise<DigestedEvent> {
  // Leniently, as the intake checked it: sentry-python's NaN and Infinity become null here.
  const text = utf8Text(row.payload);
  const { value } = parseJsonObjectText(text);
  const meta = JSON.parse(row.meta) as Json;
  if (!value.sdk && meta.sdk) value.sdk = meta.sdk;
  const clientIp = typeof meta.client_ip === "string" ? meta.client_ip : null;
  const { event } = normalizeEvent(value, {
    receivedAt: row.receivedAt,
    eventId: row.eventId!,
    clientIp,
    itemType: row.itemType,
    ownsInput: true,
    payloadBytes: row.payload.length,
    // The SDK's name and version may come from the envelope's header, kept in the row's meta.
    nulFree: jsonHasNoNul(text) && jsonHasNoNul(row.meta),
  });
  // Scrubbed before anything reads it for storage (issue 18): grouping, tags, the user key and the stored JSON.
  scrubbers(row.projectId)?.scrubEvent(event);
  // Mapped frames are what the culprit, the title's location and the grouping read.
  if (symbolication) await symbolication.symbolicator.symbolicate(event, symbolication.project(row.projectId));
  const summary = summarize(row.itemType, event, receivedAt);
  if (summary.type === "error" && !summary.culprit) summary.culprit = stacktraceCulprit(event);
  let grouping: DigestedEvent["grouping"] = null;
  if (!UNGROUPED_TYPES.has(summary.type)) {
    const grouped = groupHashes(event);
    grouping = { config: grouped.config, hashes: grouped.hashes };
    event.fingerprints = grouped.hashes;
  }
  const user = userKey(event);
  const spans =
    summary.type === "transaction"
      ? transactionSpans(
          event,
          row.eventId!,
          { projectId: row.projectId, environment: summary.environment, release: summary.release, receivedAt },
          "other-traces",
        )
      : undefined;
  const data = JSON.stringify(event);
  return {
    projectId: row.projectId,
    eventId: row.eventId!,
    receivedAt,
    size: Buffer.byteLength(data),
    data,
    category: row.itemType === "security" ? "security" : categoryOf(row.itemType, event),
    ...summary,
    grouping,
    metadata: JSON.stringify(issueMetadata(summary.type, summary.title, event)),
    userKey: user,
    userParts: userParts(event),
    tags: issueTags(event, user),
    spans,
    traceId: grouping ? traceIdOf(event) : null,
    feedback: summary.type === "feedback" ? feedbackOfEvent(event, row.projectId, row.eventId!, receivedAt) : null,
  };
}

/**
 * A discarded-event count as Relay reads it (protocol/client_report.rs `quantity: u64`: a whole number, so 1e20 or
 * -1 refuse the entry), within DIGEST_LIMITS.clientReportMaxQuantity so that the 64-bit counters it adds to never
 * overflow; anything else drops the entry.
 */
const discardedQuantity = (v: unknown): number | null => (typeof v === "number" && v >= 1 && v <= DIGEST_LIMITS.clientReportMaxQuantity ? Math.floor(v) : null);

function clientReportOutcomes(row: SpoolRow): OutcomeIncrement[] {
  const parsed = parse(row.payload, "client report");
  const report = (typeof parsed === "object" && parsed !== null ? parsed : {}) as Json;
  const discarded = Array.isArray(report.discarded_events)
    ? (report.discarded_events as unknown[]).filter((d): d is Json => typeof d === "object" && d !== null)
    : [];
  return discarded
    .filter((d) => typeof d.reason === "string" && typeof d.category === "string" && discardedQuantity(d.quantity) !== null)
    .map((d) => ({
      projectId: row.projectId,
      hour: hourOf(row.receivedAt),
      category: (d.category as string).slice(0, 32),
      outcome: "client_discard" as const,
      reason: (d.reason as string).slice(0, 64),
      quantity: discardedQuantity(d.quantity)!,
    }));
}

export const emptyRows = (): DigestedRows => ({
  events: [],
  rawItems: [],
  outcomes: [],
  sessions: [],
  spans: { spans: [], values: [] },
  failed: [],
  feedback: [],
});

/** One row into `out`: what it stores and counts. Throws when its processing fails. */
async function digestRow(
  row: SpoolRow,
  out: DigestedRows,
  symbolication: DigestSymbolication | null,
  scrubbers: ScrubberOf,
  stagingDir: string | null,
): Promise<void> {
  const receivedAt = new Date(row.receivedAt).toISOString();
  if (row.kind === "outcomes") out.outcomes.push(...(parse(row.payload, "outcome record") as OutcomeIncrement[]));
  else if (EVENT_TYPES.has(row.itemType)) out.events.push(await toEvent(row, receivedAt, symbolication, scrubbers));
  else if (row.itemType === "client_report") out.outcomes.push(...clientReportOutcomes(row));
  else if (row.itemType === "user_report") out.feedback.push(feedbackOfUserReport(parse(row.payload, "user report"), row.projectId, receivedAt, "user_report"));
  else if (row.itemType === "span") {
    // Spans become rows of the span model (digest/spans.ts), counted as accepted one per span.
    const span = parse(row.payload, "span");
    if (typeof span === "object" && span !== null && !Array.isArray(span)) scrubbers(row.projectId)?.scrubSpan(span as Json);
    const read = spanItemSpans(span, row.projectId, receivedAt);
    out.spans.spans.push(...read.spans);
    out.spans.values.push(...read.values);
    if (read.spans.length > 0)
      out.outcomes.push({
        projectId: row.projectId,
        hour: hourOf(row.receivedAt),
        category: "span",
        outcome: "accepted",
        reason: "",
        quantity: read.spans.length,
      });
  } else if (row.itemType === "check_in") {
    // Check-ins go to the monitors, applied in the batch's transaction (check-ins-commit.ts); one unread is counted.
    const read = readCheckIn(parse(row.payload, "check-in"), row.projectId, receivedAt);
    if ("item" in read) (out.checkIns ??= []).push(read.item);
    else
      out.outcomes.push({ projectId: row.projectId, hour: hourOf(row.receivedAt), category: "monitor", outcome: "invalid", reason: read.dropped, quantity: 1 });
  } else if (row.itemType === "attachment" || row.itemType === "staged_attachment") {
    // Attachments are stored outside the events table (digest/attachments.ts), or dropped and counted.
    const read = await readAttachment(row, stagingDir, scrubbers(row.projectId));
    if ("row" in read) (out.pendingAttachments ??= []).push(read);
    else out.outcomes.push(read);
  } else if (row.itemType === "log" || row.itemType === "otel_log") {
    // Structured logs (digest/logs.ts), scrubbed as they are read; counted in log_item and log_byte.
    const read = readLogItem(row.itemType, row.payload, row.projectId, row.receivedAt, scrubbers(row.projectId));
    (out.logs ??= []).push(...read.logs);
    out.outcomes.push(...read.outcomes);
  } else if (row.itemType === "session" || row.itemType === "sessions") {
    const read = readSessionRow(row, parse(row.payload, row.itemType));
    out.sessions.push(...read.items);
    out.outcomes.push(read.outcome);
  } else {
    out.rawItems.push({
      projectId: row.projectId,
      type: row.itemType,
      eventId: row.eventId,
      receivedAt,
      headers: stripNulFromJsonText(row.headers),
      payload: row.payload,
      category: categoryOf(row.itemType),
      // One per item (sessions: sessions.ts; attachments, in bytes: commit.ts).
      quantity: 1,
    });
  }
}

/** Adds `from`'s rows to `into`'s. */
export function mergeDigested(into: DigestedRows, from: DigestedRows): void {
  into.events.push(...from.events);
  into.rawItems.push(...from.rawItems);
  into.outcomes.push(...from.outcomes);
  into.sessions.push(...from.sessions);
  into.spans.spans.push(...from.spans.spans);
  into.spans.values.push(...from.spans.values);
  into.failed.push(...from.failed);
  if (from.checkIns) (into.checkIns ??= []).push(...from.checkIns);
  if (from.pendingAttachments) (into.pendingAttachments ??= []).push(...from.pendingAttachments);
  into.feedback.push(...from.feedback);
  if (from.logs) (into.logs ??= []).push(...from.logs);
}

/** A payload that is not JSON: the input's fault, counted as invalid (as Relay counts it), not set aside. */
const invalidJson = (err: unknown) => err instanceof ProtocolError && err.reason === "invalid_json";

/** For callers that digest rows without settings at hand (tests of the digest's other parts): nothing scrubbed. */
const NO_SCRUBBING: ScrubberOf = () => null;

/**
 * The batch's rows into what the database keeps. A row whose processing throws is tried once more, alone; when it
 * fails again it is returned in `failed`, to be set aside, and the others go on. `progress` hears of each row as its
 * processing starts and ends (the watchdog of the digest thread, digest/progress.ts).
 */
export async function digestRows(
  rows: SpoolRow[],
  log: (line: string) => void = () => undefined,
  symbolication: DigestSymbolication | null = null,
  progress: RecordProgress = NO_PROGRESS,
  scrubbers: ScrubberOf = NO_SCRUBBING,
  stagingDir: string | null = null,
): Promise<DigestedRows> {
  const out = emptyRows();
  for (const row of rows) {
    let error: unknown = null;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const one = emptyRows();
      progress.begin(row.id);
      try {
        await digestRow(row, one, symbolication, scrubbers, stagingDir);
        mergeDigested(out, one);
        error = null;
        break;
      } catch (err) {
        // Uploaded files that could not be read: the whole batch is digested again, rather than events left unmapped.
        if (err instanceof ArtifactsUnavailable) throw err;
        // The intake only outlines an event whose id the envelope header gave: one that is not JSON is counted here,
        // as Relay counts it after answering 200.
        if (invalidJson(err)) {
          if (row.kind === "item")
            out.outcomes.push({
              projectId: row.projectId,
              hour: hourOf(row.receivedAt),
              category: categoryOf(row.itemType),
              outcome: "invalid",
              reason: "invalid_json",
              quantity: 1,
            });
          error = null;
          break;
        }
        error = err;
        log(
          `faultline: digest failed on spool row ${row.id} (attempt ${attempt}${attempt === 1 ? " in its batch" : ", alone"}): ${(err as Error).message ?? String(err)}`,
        );
      } finally {
        progress.end();
      }
    }
    if (error !== null) out.failed.push({ row, error, attempts: 2 });
  }
  return out;
}
