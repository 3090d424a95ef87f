// Setting a spool record aside: into the dead-letter table (storage/dead-letter-ports.ts) with the record itself, its
// error and how many attempts were made, counted as an `invalid` outcome with reason `processing_error`, so that the
// digest goes on with the next record and the project's stats show what was lost. A superuser can send it through
// the digest again from the diagnostics page (core/dead-letters.ts).
import { DIGEST_LIMITS } from "../config/limits";
import { hourOf } from "../core/hours";
import { encodeRecord } from "../ingest/spool-record";
import type { SpoolRow } from "../ingest/spool";
import { categoryOf } from "../protocol/categories";
import type { NewDeadLetter } from "../storage/dead-letter-ports";
import type { DigestTx } from "../storage/digest-ports";
import type { OutcomeIncrement } from "../storage/ports";
import { describeFailure } from "./failures";

/** characters of an error kept with a dead letter: its code and message, not the data it may quote at length. */
const MAX_ERROR_CHARS = 2000;

export type FailedRecord = { row: SpoolRow; error: unknown; attempts: number };

/** The outcome reason of a record set aside. */
export const SET_ASIDE_REASON = "processing_error";

/** The error as the dead-letter table keeps it: short, and without NUL (it may quote the data that failed). */
export function errorText(err: unknown): string {
  const text = describeFailure(err).replaceAll("\u0000", "");
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
}

export function deadLetterOf(spoolId: string, f: FailedRecord, failedAt: string): NewDeadLetter {
  const { row } = f;
  const [head, payload] = encodeRecord(row);
  return {
    spoolId,
    recordId: row.id,
    projectId: row.kind === "item" ? row.projectId : null,
    itemType: row.kind === "item" ? row.itemType.replaceAll("\u0000", "") : "outcomes",
    eventId: row.eventId?.replaceAll("\u0000", "") ?? null,
    receivedAt: new Date(Number.isFinite(row.receivedAt) ? row.receivedAt : 0).toISOString(),
    record: Buffer.concat([head, payload]),
    error: errorText(f.error),
    attempts: f.attempts,
    failedAt,
  };
}

/** What a record set aside counts: one invalid item of its category (the intake's outcome records count nothing). */
export function setAsideOutcome(row: SpoolRow): OutcomeIncrement | null {
  if (row.kind !== "item") return null;
  return {
    projectId: row.projectId,
    hour: hourOf(row.receivedAt),
    category: categoryOf(row.itemType),
    outcome: "invalid",
    reason: SET_ASIDE_REASON,
    quantity: 1,
  };
}

/** Keeps the records in the transaction's dead-letter table, with their outcomes. */
export async function writeSetAside(tx: DigestTx, spoolId: string, failed: FailedRecord[]): Promise<void> {
  if (failed.length === 0) return;
  const now = new Date().toISOString();
  await tx.addDeadLetters(
    failed.map((f) => deadLetterOf(spoolId, f, now)),
    DIGEST_LIMITS.deadLettersKept,
  );
  await tx.addOutcomes(failed.map((f) => setAsideOutcome(f.row)).filter((o): o is OutcomeIncrement => o !== null));
}
