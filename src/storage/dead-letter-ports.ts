// The dead-letter table's port: the digest sets records aside inside its batch's transaction (DeadLetterTx), and the
// diagnostics page lists, retries and discards them (DeadLetterStore). The record is kept whole (spool-record.ts's
// encoding), so that it can be sent through the digest again after its spool segment is gone.

/** A spool record the digest could not digest. */
export type NewDeadLetter = {
  spoolId: string;
  /** The record's spool position (the log offset just past it). */
  recordId: number;
  /** Null for a record of the intake's outcome counts. */
  projectId: number | null;
  itemType: string;
  eventId: string | null;
  /** When the intake received it (ISO). */
  receivedAt: string;
  /** The encoded spool record (ingest/spool-record.ts `encodeRecord`). */
  record: Uint8Array;
  error: string;
  attempts: number;
  failedAt: string;
};

/** A dead letter as listed: what it was, why it failed, and where it belongs. */
export type DeadLetter = Omit<NewDeadLetter, "record"> & {
  id: number;
  /** Bytes of the kept record. */
  size: number;
  /** When it was sent through the digest again, if it was. */
  retriedAt: string | null;
  projectSlug: string | null;
  projectName: string | null;
  organizationSlug: string | null;
};

export interface DeadLetterTx {
  /**
   * Keeps records set aside (a record already kept is not kept twice), then deletes the oldest beyond `keep`, so that
   * a flood of failing records cannot fill the database.
   */
  addDeadLetters(rows: NewDeadLetter[], keep: number): Promise<void>;
}

export interface DeadLetterStore {
  /** Newest first; at most `limit`, and how many there are in all. */
  listDeadLetters(limit: number): Promise<{ items: DeadLetter[]; total: number }>;
  /** One dead letter with its record; null when there is none with this id. */
  getDeadLetter(id: number): Promise<{ letter: DeadLetter; record: Uint8Array } | null>;
  /**
   * Marks it sent again, if nobody has: the claim that lets only one of two simultaneous retries send it. False when it
   * is gone or was already sent (or is being sent) again.
   */
  markDeadLetterRetried(id: number, at: string): Promise<boolean>;
  /** Takes back the mark made at `at` (the send failed), so that it can be retried; false when there is none. */
  unmarkDeadLetterRetried(id: number, at: string): Promise<boolean>;
  /** Deletes it; false when it is gone. */
  deleteDeadLetter(id: number): Promise<boolean>;
}
