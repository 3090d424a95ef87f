// Several nodes on one PostgreSQL must sign sessions with one secret (README, "Several nodes"): a node left to
// generate its own secret.key refuses every other node's sessions. At start, each node on PostgreSQL records a
// fingerprint of its secret (a SHA-256 of it with a fixed prefix, never the secret) and warns when the node before it
// had another one. Changing the secret on every node warns once, at the first node started with the new one.
import { createHash } from "node:crypto";
import type { InstanceStore } from "../storage/ports";

const SETTING = "session_secret_fingerprint";

export const secretFingerprint = (secret: string) => createHash("sha256").update(`faultline session secret\0${secret}`).digest("hex").slice(0, 32);

/** True when the secret matches the one recorded (or none was); otherwise logs the warning, records this one, false. */
export async function checkSharedSecret(store: InstanceStore, secret: string, generated: boolean, log: (line: string) => void): Promise<boolean> {
  const mine = secretFingerprint(secret);
  if (await store.claimSetting(SETTING, mine)) return true;
  if ((await store.getSetting(SETTING)) === mine) return true;
  log(
    `faultline: warning: the Faultline process started before this one on this database signed sessions with another secret ` +
      `(${generated ? "this node generated its own secret.key" : "FAULTLINE_SECRET_KEY differs"}): sessions signed by one are refused by the other. ` +
      'Give every node the same FAULTLINE_SECRET_KEY (README, "Several nodes").',
  );
  await store.releaseSetting(SETTING);
  await store.claimSetting(SETTING, mine);
  return false;
}
