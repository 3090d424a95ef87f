// A new DSN key pair, for a new key (keys.ts) and for a new project's first key (projects.ts).
import { randomBytes } from "node:crypto";

/** 32 hex characters each, the shape SDKs expect for a DSN's public key. */
export function newKeyPair(): { publicKey: string; secretKey: string } {
  return { publicKey: randomBytes(16).toString("hex"), secretKey: randomBytes(16).toString("hex") };
}
