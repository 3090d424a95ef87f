// Why the wire data of a request is refused. The intake maps each reason to Relay's status and message.
export type ProtocolErrorReason =
  | "missing_auth"
  | "multiple_auth"
  | "bad_auth"
  | "unsupported_version"
  | "bad_envelope_header"
  | "bad_item_header"
  | "missing_newline"
  | "unexpected_eof"
  | "unsupported_encoding"
  | "bad_encoding"
  | "payload_too_large"
  | "empty_body"
  | "invalid_json"
  | "invalid_report"
  | "too_many_items"
  | "request_timeout"
  | "invalid_multipart"
  | "missing_minidump"
  | "invalid_minidump";

export class ProtocolError extends Error {
  readonly isProtocolError = true;
  constructor(
    readonly reason: ProtocolErrorReason,
    message: string,
  ) {
    super(message);
    this.name = "ProtocolError";
  }
}
