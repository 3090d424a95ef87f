// The single sign-on provider configured in the instance settings (core/instance-sso.ts), as better-auth needs it:
// its client secret is stored encrypted with a key derived from the instance secret (better-auth's symmetric
// encryption: XChaCha20-Poly1305), decrypted only here, and kept behind a function. The environment's provider
// (FAULTLINE_OIDC_*) takes precedence over it.
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import type { StoredSsoSettings } from "../storage/sso-ports";
import type { SsoProviderConfig } from "./sso";

const keyOf = (instanceSecret: string) => `faultline-sso-client-secret:${instanceSecret}`;

export function encryptClientSecret(instanceSecret: string, clientSecret: string): Promise<string> {
  return symmetricEncrypt({ key: keyOf(instanceSecret), data: clientSecret });
}

/** The stored provider; null when its secret cannot be decrypted (the instance secret changed): set it again. */
export async function ssoFromStored(stored: StoredSsoSettings, instanceSecret: string): Promise<SsoProviderConfig | null> {
  try {
    const secret = await symmetricDecrypt({ key: keyOf(instanceSecret), data: stored.clientSecret });
    if (!secret) return null;
    return { issuer: stored.issuer, clientId: stored.clientId, clientSecret: () => secret, name: stored.name };
  } catch {
    return null;
  }
}
