// The envelope wire format (../shared/spec/sentry-protocol.md §2, from develop's envelopes.mdx and Relay's
// envelope/mod.rs):  Envelope = Headers { "\n" Item } [ "\n" ] ;  Item = Headers "\n" Payload ;
// Pure: parses bytes already in memory (the intake bounds their size while reading them). Header lines are bounded in
// length and nesting, and items in number, so no envelope costs more than a bounded amount of memory to read.
import { INGEST_LIMITS } from "../config/limits";
import { ProtocolError } from "./errors";
import { jsonDepthExceeds } from "./json";

export type EnvelopeHeaders = Record<string, unknown> & { event_id?: unknown; dsn?: unknown; sent_at?: unknown };
export type ItemHeaders = Record<string, unknown> & { type: string; length?: number };
export type EnvelopeItem = { headers: ItemHeaders; payload: Uint8Array };
export type Envelope = { headers: EnvelopeHeaders; items: EnvelopeItem[] };

const NEWLINE = 0x0a;
/** Header lines must be valid UTF-8, as Relay's JSON parser requires; U+FFFD substitution would hide bad bytes. */
const utf8 = new TextDecoder("utf-8", { fatal: true });
/** bytes; the "JSON object followed by more bytes" diagnosis re-parses prefixes, so only short lines get it. */
const MAX_DIAGNOSED_LINE = 64 * 1024;

/** True when the line begins with a complete JSON object (tries the prefixes ending at "}", at most 64). */
function startsWithJsonObject(text: string): boolean {
  if (text.length > MAX_DIAGNOSED_LINE || !text.trimStart().startsWith("{")) return false;
  let end = text.lastIndexOf("}");
  for (let tries = 0; end > 0 && tries < 64; tries++, end = text.lastIndexOf("}", end - 1)) {
    if (end === text.length - 1) continue; // the whole line: already known not to parse
    try {
      const v: unknown = JSON.parse(text.slice(0, end + 1));
      if (typeof v === "object" && v !== null && !Array.isArray(v)) return true;
    } catch {
      // not this prefix
    }
  }
  return false;
}

/** A header line: one JSON object, ending at "\n" or EOF ("a \r before \n is not stripped"). */
function readHeaderLine(bytes: Uint8Array, start: number, what: "envelope" | "item"): { value: Record<string, unknown>; next: number } {
  const reason = what === "envelope" ? "bad_envelope_header" : "bad_item_header";
  // Only the header's own bytes are searched for its end, so a payload-sized "header" is refused without a full scan.
  const window = bytes.subarray(start, Math.min(bytes.length, start + INGEST_LIMITS.maxHeaderLineBytes + 1));
  const found = window.indexOf(NEWLINE);
  if (found < 0 && window.length > INGEST_LIMITS.maxHeaderLineBytes)
    throw new ProtocolError(reason, `${what} header is longer than ${INGEST_LIMITS.maxHeaderLineBytes} bytes`);
  const end = found < 0 ? -1 : start + found;
  const stop = end < 0 ? bytes.length : end;
  let text: string;
  try {
    text = utf8.decode(bytes.subarray(start, stop));
  } catch {
    // A JSON object followed by stray bytes is still Relay's MissingNewline; otherwise the header is not UTF-8.
    const lossy = Buffer.from(bytes.subarray(start, stop)).toString("utf8");
    throw new ProtocolError(startsWithJsonObject(lossy) && !lossy.startsWith("\ufffd") ? "missing_newline" : reason, `${what} header is not valid UTF-8`);
  }
  if (jsonDepthExceeds(text, INGEST_LIMITS.maxHeaderDepth))
    throw new ProtocolError(reason, `${what} header is nested deeper than ${INGEST_LIMITS.maxHeaderDepth} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // A JSON object followed by other bytes on the same line is Relay's MissingNewline; anything else is not JSON.
    throw new ProtocolError(startsWithJsonObject(text) ? "missing_newline" : reason, `invalid ${what} header`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ProtocolError(reason, `${what} header is not a JSON object`);
  }
  // JSON.parse allows trailing whitespace; Relay requires "\n" or EOF right after the object ("\r\n" is not a newline).
  if (!text.endsWith("}")) throw new ProtocolError("missing_newline", `${what} header is followed by more bytes on its line`);
  return { value: value as Record<string, unknown>, next: end < 0 ? bytes.length : end + 1 };
}

/** The envelope's header line alone, and where its items start: enough to find the DSN before reading any item. */
export function parseEnvelopeHeaders(bytes: Uint8Array): { headers: EnvelopeHeaders; next: number } {
  const { value, next } = readHeaderLine(bytes, 0, "envelope");
  return { headers: value, next };
}

/**
 * Parses an envelope. Items keep their payload bytes untouched; unknown item types and unknown header keys are kept
 * ("must be skipped without failing" is the intake's decision, not the parser's). `head` is the header line when
 * parseEnvelopeHeaders has read it already. More than INGEST_LIMITS.maxItemsPerEnvelope items refuse the envelope.
 */
export function parseEnvelope(bytes: Uint8Array, head = parseEnvelopeHeaders(bytes)): Envelope {
  const { headers, next } = head;
  const items: EnvelopeItem[] = [];
  let pos = next;
  while (pos < bytes.length) {
    // "The final newline is optional": a lone trailing newline (or blank lines between items) ends nothing.
    if (bytes[pos] === NEWLINE) {
      pos++;
      continue;
    }
    if (items.length >= INGEST_LIMITS.maxItemsPerEnvelope)
      throw new ProtocolError("too_many_items", `an envelope may hold at most ${INGEST_LIMITS.maxItemsPerEnvelope} items`);
    const { value: itemHeaders, next: payloadStart } = readHeaderLine(bytes, pos, "item");
    if (typeof itemHeaders.type !== "string" || itemHeaders.type === "") throw new ProtocolError("bad_item_header", "item header without a type");
    const length = itemHeaders.length;
    let payloadEnd: number;
    if (length !== undefined && length !== null) {
      if (typeof length !== "number" || !Number.isInteger(length) || length < 0 || length > 0xffffffff) {
        throw new ProtocolError("bad_item_header", "item length must be a whole number of bytes");
      }
      // "The payload is exactly that many bytes, and the next byte must be \n or EOF."
      payloadEnd = payloadStart + length;
      if (payloadEnd > bytes.length) throw new ProtocolError("unexpected_eof", "item payload is shorter than its length");
      if (payloadEnd < bytes.length && bytes[payloadEnd] !== NEWLINE) throw new ProtocolError("missing_newline", "item payload is longer than its length");
    } else {
      // "Without length: the payload runs to the next \n or EOF."
      const nl = bytes.indexOf(NEWLINE, payloadStart);
      payloadEnd = nl < 0 ? bytes.length : nl;
    }
    items.push({ headers: itemHeaders as ItemHeaders, payload: bytes.subarray(payloadStart, payloadEnd) });
    pos = payloadEnd + 1;
  }
  return { headers, items };
}
