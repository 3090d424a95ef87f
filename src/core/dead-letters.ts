// Records the digest set aside (digest/set-aside.ts), for the install's superusers: listed on the diagnostics page,
// sent through the digest again (after an upgrade that fixes what failed), or discarded. A record is sent again as
// its SDK sent it: rebuilt into an envelope (its envelope headers, its item headers and payload) and handed to the
// intake's in-process entry with the project's key, so the same checks, quotas and spool apply; the digest then takes
// it like any other, and sets it aside again (as a new record) if it still fails.
import { type SpoolRecord, decodeRecord } from "../ingest/spool-record";
import type { SubmitEnvelope } from "../ingest/in-process";
import type { DeadLetter } from "../storage/dead-letter-ports";
import { actingUser, type CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import { parseId } from "./schemas";

/** Dead letters shown at once: the newest; the table keeps DIGEST_LIMITS.deadLettersKept. */
const LISTED = 100;

/** Item types the envelope endpoint takes, so a record of one of them can be sent again. */
const RESENDABLE = new Set(["event", "transaction", "feedback", "attachment", "session", "sessions", "client_report", "user_report", "span", "check_in"]);

/** Keys of a record's meta the intake adds from the request itself, not from the envelope's headers. */
const REQUEST_META = new Set(["client_ip", "user_agent", "client"]);

export type DeadLetterRow = DeadLetter & { resendable: boolean };

/** Only superusers see the records of every organization; to anyone else there is nothing here. */
function superuser(ctx: CoreContext): void {
  if (!actingUser(ctx).isSuperuser) throw notFound("Page");
}

const resendable = (d: Pick<DeadLetter, "itemType" | "projectId">) => d.projectId !== null && RESENDABLE.has(d.itemType);

export async function listDeadLetters(ctx: CoreContext): Promise<{ items: DeadLetterRow[]; total: number }> {
  superuser(ctx);
  const { items, total } = await ctx.store.listDeadLetters(LISTED);
  return { items: items.map((d) => ({ ...d, resendable: resendable(d) })), total };
}

const record = (bytes: Uint8Array): SpoolRecord => {
  const decoded = decodeRecord(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0);
  if (decoded === "partial" || decoded === "corrupt") throw new AppError("bad_request", "This record cannot be sent again; discard it instead");
  return decoded.record;
};

function json(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The envelope an SDK would have sent for one record: its envelope's headers, its item's headers and payload. */
export function envelopeOf(r: SpoolRecord): { body: Buffer; clientIp: string; userAgent: string | null } {
  const meta = json(r.meta);
  const headers = Object.fromEntries(Object.entries(meta).filter(([k]) => !REQUEST_META.has(k)));
  if (r.eventId) headers.event_id = r.eventId;
  const item = { ...json(r.headers), type: r.itemType, length: r.payload.byteLength };
  const body = Buffer.concat([Buffer.from(`${JSON.stringify(headers)}\n${JSON.stringify(item)}\n`), r.payload, Buffer.from("\n")]);
  return {
    body,
    clientIp: typeof meta.client_ip === "string" ? meta.client_ip : "127.0.0.1",
    userAgent: typeof meta.user_agent === "string" ? meta.user_agent : null,
  };
}

/**
 * Sends a record through the digest again, with the key it came with (or, when that one is gone or disabled, the
 * project's first active key), and marks it sent. Returns the event id the intake answered with.
 */
export async function retryDeadLetter(ctx: CoreContext, id: unknown, submit: SubmitEnvelope | null): Promise<{ eventId: string | null }> {
  superuser(ctx);
  const found = await ctx.store.getDeadLetter(parseId(id) ?? 0);
  if (!found) throw notFound("Dead letter");
  const { letter } = found;
  if (letter.retriedAt) throw new AppError("conflict", "This record was already sent again");
  if (!resendable(letter)) throw new AppError("bad_request", "This record cannot be sent again; discard it instead");
  const r = record(found.record);
  const keys = (await ctx.store.listKeys(letter.projectId!)).filter((k) => k.isActive);
  const key = keys.find((k) => k.id === r.keyId) ?? keys[0];
  if (!key) throw new AppError("bad_request", "The project has no active DSN key");
  if (!submit) throw new AppError("bad_request", "This process takes no events: start Faultline with faultline start");
  // Claimed before it is sent, so that two clicks at once send it once; the claim is given back if the send fails.
  const claimedAt = new Date().toISOString();
  if (!(await ctx.store.markDeadLetterRetried(letter.id, claimedAt))) throw new AppError("conflict", "This record was already sent again");
  let answer: Awaited<ReturnType<SubmitEnvelope>>;
  try {
    answer = await submit({ ...envelopeOf(r), auth: { projectId: String(letter.projectId), publicKey: key.publicKey } });
  } catch (err) {
    await ctx.store.unmarkDeadLetterRetried(letter.id, claimedAt);
    throw err;
  }
  if (!answer.ok) {
    await ctx.store.unmarkDeadLetterRetried(letter.id, claimedAt);
    throw new AppError(
      answer.status === 429 ? "rate_limited" : "bad_request",
      answer.status === 429 || answer.status === 503 ? "The intake is busy; try again later" : "The intake refused the record",
    );
  }
  return { eventId: answer.eventId };
}

/** Deletes a record set aside, for good. */
export async function discardDeadLetter(ctx: CoreContext, id: unknown): Promise<void> {
  superuser(ctx);
  if (!(await ctx.store.deleteDeadLetter(parseId(id) ?? 0))) throw notFound("Dead letter");
}
