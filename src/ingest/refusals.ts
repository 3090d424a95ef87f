// The intake's one error table: every reason a request is refused, with Relay's status, the message the SDK sees
// (JSON {"detail"} and X-Sentry-Error) and the outcome reason it is counted under.
import type { ProtocolErrorReason } from "../protocol/errors";
import type { OutcomeIncrement } from "../storage/ports";

export type RefusalReason =
  | ProtocolErrorReason
  | "unknown_key"
  | "disabled_key"
  | "project_mismatch"
  | "dsn_mismatch"
  | "backpressure"
  | "spool_failure"
  | "rate_limited"
  | "method_not_allowed";

const STATUS: Record<RefusalReason, number> = {
  missing_auth: 401,
  multiple_auth: 401,
  bad_auth: 401,
  unsupported_version: 400,
  bad_envelope_header: 400,
  bad_item_header: 400,
  missing_newline: 400,
  unexpected_eof: 400,
  unsupported_encoding: 400,
  bad_encoding: 400,
  payload_too_large: 413,
  empty_body: 400,
  invalid_json: 400,
  invalid_report: 400,
  dsn_mismatch: 400,
  too_many_items: 400,
  request_timeout: 408,
  invalid_multipart: 400,
  missing_minidump: 400,
  invalid_minidump: 400,
  unknown_key: 403,
  disabled_key: 403,
  project_mismatch: 403,
  rate_limited: 429,
  backpressure: 503,
  spool_failure: 503,
  method_not_allowed: 405,
};

export class IntakeRefusal extends Error {
  readonly status: number;
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly headers: Record<string, string> = {},
    /** What to count for the refused items, when the project is known. */
    readonly outcomes: OutcomeIncrement[] = [],
  ) {
    super(message);
    this.name = "IntakeRefusal";
    this.status = STATUS[reason];
  }
}

/** The outcome a refused item is counted under: rate limits and overload are "rate_limited", the rest "invalid". */
export function outcomeOf(reason: RefusalReason): "rate_limited" | "invalid" {
  return reason === "rate_limited" || reason === "backpressure" || reason === "spool_failure" ? "rate_limited" : "invalid";
}

export function statusOf(reason: RefusalReason): number {
  return STATUS[reason];
}
