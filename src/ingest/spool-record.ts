// One spool record on disk. A frame of 8 bytes (the body's length and its CRC-32), then the body: the entry's fields
// and its payload. The checksum tells a whole record from one torn by a crash or still being written by the intake.
//
//   u32 body length | u32 crc32(body) | u8 kind | f64 project id | f64 key id | f64 received at (epoch ms)
//   | 4 × (u32 byte length, UTF-8): item type, event id (0xffffffff: none), headers, meta | payload to the end
import zlib from "node:zlib";
import { INGEST_LIMITS } from "../config/limits";

export type RecordKind = "item" | "outcomes";
export type SpoolRecord = {
  kind: RecordKind;
  projectId: number;
  keyId: number;
  /** Epoch milliseconds. */
  receivedAt: number;
  itemType: string;
  eventId: string | null;
  /** The item's headers, as JSON. */
  headers: string;
  /** What the digest needs from the envelope and the request (sent_at, sdk, client address, user agent), as JSON. */
  meta: string;
  payload: Uint8Array;
};

export const FRAME_BYTES = 8;
const FIXED_BODY_BYTES = 1 + 3 * 8;
const NO_STRING = 0xffffffff;
/** bytes; no record is larger than the largest request body plus its fields, so a larger length means corruption. */
const MAX_BODY_BYTES = INGEST_LIMITS.maxDecompressedBodyBytes + 1024 * 1024;

/** The record as buffers to write one after the other: its frame and fields, then the payload itself (not copied). */
export function encodeRecord(r: SpoolRecord): [Buffer, Uint8Array] {
  const strings = [r.itemType, r.eventId, r.headers, r.meta];
  const lengths = strings.map((s) => (s === null ? 0 : Buffer.byteLength(s)));
  const head = Buffer.allocUnsafe(FRAME_BYTES + FIXED_BODY_BYTES + 16 + lengths.reduce((a, b) => a + b, 0));
  let at = FRAME_BYTES;
  at = head.writeUInt8(r.kind === "item" ? 0 : 1, at);
  at = head.writeDoubleLE(r.projectId, at);
  at = head.writeDoubleLE(r.keyId, at);
  at = head.writeDoubleLE(r.receivedAt, at);
  strings.forEach((s, i) => {
    at = head.writeUInt32LE(s === null ? NO_STRING : lengths[i]!, at);
    if (s !== null) at += head.write(s, at, "utf8");
  });
  head.writeUInt32LE(head.length - FRAME_BYTES + r.payload.byteLength, 0);
  head.writeUInt32LE(zlib.crc32(r.payload, zlib.crc32(head.subarray(FRAME_BYTES))), 4);
  return [head, r.payload];
}

/** The whole length (frame included) of the record at `at`, or null when not even its frame is in `buf`. */
export function recordLength(buf: Buffer, at: number): number | null {
  return buf.length - at < FRAME_BYTES ? null : FRAME_BYTES + buf.readUInt32LE(at);
}

/**
 * The record at `at` in `buf` and its whole length; "partial" when `buf` ends inside it, "corrupt" when it cannot
 * be a record (impossible length, checksum or fields). The payload is a view into `buf`, not a copy.
 */
export function decodeRecord(buf: Buffer, at: number): { record: SpoolRecord; length: number } | "partial" | "corrupt" {
  const length = recordLength(buf, at);
  if (length === null) return "partial";
  const bodyLength = length - FRAME_BYTES;
  if (bodyLength < FIXED_BODY_BYTES + 16 || bodyLength > MAX_BODY_BYTES) return "corrupt";
  if (at + length > buf.length) return "partial";
  const body = buf.subarray(at + FRAME_BYTES, at + length);
  if (zlib.crc32(body) !== buf.readUInt32LE(at + 4)) return "corrupt";
  let pos = FIXED_BODY_BYTES;
  const strings: (string | null)[] = [];
  for (let i = 0; i < 4; i++) {
    if (pos + 4 > body.length) return "corrupt";
    const n = body.readUInt32LE(pos);
    pos += 4;
    if (n === NO_STRING) {
      strings.push(null);
      continue;
    }
    if (pos + n > body.length) return "corrupt";
    strings.push(body.toString("utf8", pos, pos + n));
    pos += n;
  }
  const [itemType, eventId, headers, meta] = strings;
  if (itemType == null || headers == null || meta == null) return "corrupt";
  const record: SpoolRecord = {
    kind: body[0] === 0 ? "item" : "outcomes",
    projectId: body.readDoubleLE(1),
    keyId: body.readDoubleLE(9),
    receivedAt: body.readDoubleLE(17),
    itemType,
    eventId: eventId ?? null,
    headers,
    meta,
    payload: body.subarray(pos),
  };
  return { record, length };
}
