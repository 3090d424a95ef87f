// The legacy /store/ body (develop's store.mdx, Relay's store_body.rs `decode_bytes`): JSON as is, or base64 of JSON,
// or base64 of zlib-deflated JSON, whatever the headers say. sentry-raven 3.x sends the last by default.
import zlib from "node:zlib";
import { ProtocolError } from "./errors";

const isJsonStart = (b: Uint8Array) => {
  for (const byte of b) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === 0x7b; // "{"
  }
  return false;
};

/** Decodes a store body within `maxBytes` of output (the inflate stops at the limit, so a bomb cannot grow). */
export function decodeStoreBody(body: Buffer, maxBytes: number): Buffer {
  if (body.length === 0) throw new ProtocolError("empty_body", "empty request body");
  if (isJsonStart(body)) return body;
  const text = body.toString("latin1").trim();
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) throw new ProtocolError("invalid_json", "the body is neither JSON nor base64");
  const decoded = Buffer.from(text, "base64");
  if (isJsonStart(decoded)) return decoded;
  try {
    return zlib.inflateSync(decoded, { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new ProtocolError("payload_too_large", `decompressed event is larger than ${maxBytes} bytes`);
    throw new ProtocolError("bad_encoding", "the base64 body does not inflate");
  }
}
