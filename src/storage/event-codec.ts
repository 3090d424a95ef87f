// How an event's JSON is kept in events.data: one codec byte, then the codec's bytes. Every write goes through
// encodeEventData and every read through decodeEventData, so a later codec only adds a byte value here.
//
//   0x01  raw deflate (RFC 1951) with the preset dictionary EVENT_DICTIONARY_1, at EVENT_DEFLATE_LEVEL
//   '{'   uncompressed JSON, as the first releases stored it (TEXT on SQLite; bytea after 0006 on PostgreSQL)
//
// Deflate with a dictionary rather than brotli or zstd: Node 20's zlib has it built in (no new dependency), and the
// dictionary carries the keys and values every event repeats, which a 5 KB event cannot amortise on its own. On the
// bench's browser error (bench/storage.mjs: 7.2 KB of normalized JSON) it keeps about 1,000 bytes, where brotli at
// quality 5 keeps about 1,540 for nearly twice the CPU and plain deflate about 1,700; Node 20's brotli takes no custom
// dictionary, and Node 20 has no zstd compressor.
import zlib from "node:zlib";
import { INGEST_LIMITS } from "../config/limits";
import { EVENT_DICTIONARY_1 } from "./event-dictionary";

export const EVENT_CODEC = { deflateDictionary1: 0x01, json: 0x7b } as const;

/**
 * zlib level (1 fastest … 9 smallest) of codec 1. Measured on the bench's 5 KB browser error on this 2-core machine
 * (best of five passes): level 1 keeps about 1,060 bytes for 47 µs, level 4 about 960 bytes for 57 µs, level 6 about
 * 910 bytes for 63 µs, level 9 hardly less than 6. Level 4 takes most of the saving at a cost the digest's target of
 * 2,000 events/s carries (about 12% of one core); level 6 costs 10% more CPU for 5% fewer bytes. Decoding costs about
 * 15 µs at any level. Changing the level needs no new codec byte: any level inflates the same way.
 */
export const EVENT_DEFLATE_LEVEL = 4;

const dictionary1 = Buffer.from(EVENT_DICTIONARY_1, "utf8");

/**
 * bytes; the most a stored event may inflate to. Normalization can grow an event beyond the intake's 1 MiB (meta and
 * defaults), never by this much; a larger result is corruption, refused rather than allocated.
 */
const MAX_DECODED_BYTES = 8 * INGEST_LIMITS.maxEventBytes;

export class EventDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EventDataError";
  }
}

/** The bytes to store for an event's JSON text. */
export function encodeEventData(json: string): Buffer {
  const body = zlib.deflateRawSync(Buffer.from(json, "utf8"), { level: EVENT_DEFLATE_LEVEL, dictionary: dictionary1 });
  const out = Buffer.allocUnsafe(body.length + 1);
  out[0] = EVENT_CODEC.deflateDictionary1;
  body.copy(out, 1);
  return out;
}

/** An event's JSON text from what events.data holds, in any codec Faultline ever wrote. Throws EventDataError. */
export function decodeEventData(stored: string | Uint8Array): string {
  if (typeof stored === "string") return stored;
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
  switch (bytes[0]) {
    case EVENT_CODEC.json:
      return bytes.toString("utf8");
    case EVENT_CODEC.deflateDictionary1:
      try {
        return zlib.inflateRawSync(bytes.subarray(1), { dictionary: dictionary1, maxOutputLength: MAX_DECODED_BYTES }).toString("utf8");
      } catch (err) {
        throw new EventDataError(`stored event data does not inflate: ${(err as Error).message}`);
      }
    default:
      throw new EventDataError(`stored event data has an unknown codec byte ${bytes[0] ?? "(empty)"}`);
  }
}

/**
 * `decodeEventData` for readers that go on without the data: the JSON text, or `fallback` and the reason when the
 * stored bytes do not decode (an event damaged on disk still lists, is erased and exported, instead of failing the
 * page or the request that reads it).
 */
export function decodeEventDataOr(stored: string | Uint8Array, fallback: string): { json: string; unreadable?: string } {
  try {
    return { json: decodeEventData(stored) };
  } catch (err) {
    if (err instanceof EventDataError) return { json: fallback, unreadable: err.message };
    throw err;
  }
}
