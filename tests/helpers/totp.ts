// RFC 6238 TOTP (HMAC-SHA-1, as authenticator apps), computed here independently of the code under test, and the
// RFC 4648 base32 an otpauth:// URI carries its secret in.
import { createHmac } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = ALPHABET.indexOf(ch);
    if (i < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 HOTP: the dynamic truncation of HMAC-SHA-1(key, counter). */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 10 ** digits).padStart(digits, "0");
}

/** RFC 6238 TOTP at `unixSeconds` (T0 = 0), `step` steps after it (-1: the previous code, 1: the next). */
export function totp(key: Buffer, unixSeconds = Date.now() / 1000, { period = 30, digits = 6, step = 0 } = {}): string {
  return hotp(key, Math.floor(unixSeconds / period) + step, digits);
}

/** The secret of an otpauth://totp/… URI. */
export function secretOfUri(uri: string): Buffer {
  const secret = new URL(uri).searchParams.get("secret");
  if (!secret) throw new Error("no secret in the URI");
  return base32Decode(secret);
}
