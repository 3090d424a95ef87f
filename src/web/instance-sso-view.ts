// What the instance settings' single sign-on page shows of a provider's secret: its last four characters, never more.
import "server-only";
import { ssoFromStored } from "../auth/sso-settings";
import type { Config } from "../config/env";
import { type EnvSso, secretHintOf } from "../core/instance-sso";
import { getServices } from "../runtime/services";
import type { StoredSsoSettings } from "../storage/sso-ports";

export function envSsoView(config: Config): EnvSso {
  const o = config.oidc;
  return o ? { issuer: o.issuer, clientId: o.clientId, name: o.name, secretHint: secretHintOf(o.clientSecret()) } : null;
}

export async function storedSecretHint(stored: StoredSsoSettings): Promise<string | null> {
  const sso = await ssoFromStored(stored, getServices().config.secretKey);
  return sso ? secretHintOf(sso.clientSecret()) : null;
}
