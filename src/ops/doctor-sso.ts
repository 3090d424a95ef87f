// `faultline doctor`'s single sign-on check: the configured OpenID Connect provider (the environment's, else the
// instance settings') publishes a discovery document whose issuer is exactly the configured one, with the endpoints
// sign-in needs and signing keys. The issuer is the operator's: loopback and private addresses are fetched.
import { ssoFromStored } from "../auth/sso-settings";
import { discoveryUrlOf } from "../auth/sso";
import type { Config } from "../config/env";
import { DOCTOR_LIMITS } from "../config/limits";
import type { Store } from "../storage/ports";

type CheckResult = { name: string; ok: boolean; detail: string; fix?: string };
const NAME = "single sign-on";

async function getJson(url: string): Promise<unknown> {
  const r = await fetch(url, { signal: AbortSignal.timeout(DOCTOR_LIMITS.requestTimeoutMs), redirect: "manual", headers: { accept: "application/json" } });
  if (r.status !== 200) throw new Error(`answers ${r.status}`);
  return r.json();
}

/** null when no provider is configured (nothing to check). */
export async function checkSso(config: Config, store: Store | null): Promise<CheckResult | null> {
  let issuer = config.oidc?.issuer;
  let source = "FAULTLINE_OIDC_ISSUER";
  if (!issuer && store) {
    // A database not yet migrated to 0035 has no instance settings provider: nothing to check.
    const stored = await store.getSsoSettings().catch(() => null);
    if (stored) {
      if (!(await ssoFromStored(stored, config.secretKey))) {
        return {
          name: NAME,
          ok: false,
          detail: "the client secret in the instance settings cannot be decrypted with this secret key",
          fix: "set the client secret again under Instance settings → Single sign-on",
        };
      }
      issuer = stored.issuer;
      source = "the instance settings";
    }
  }
  if (!issuer) return null;
  const url = discoveryUrlOf(issuer);
  const fix = `check ${source} (the provider's issuer URL exactly as it names itself), and that this host reaches the provider`;
  try {
    const doc = (await getJson(url)) as Record<string, unknown>;
    if (typeof doc.issuer !== "string" || doc.issuer.replace(/\/+$/, "") !== issuer)
      return { name: NAME, ok: false, detail: `${url} names the issuer ${JSON.stringify(doc.issuer)}, not ${issuer}`, fix };
    const missing = ["authorization_endpoint", "token_endpoint", "jwks_uri"].filter((k) => typeof doc[k] !== "string");
    if (missing.length)
      return { name: NAME, ok: false, detail: `${url} lacks ${missing.join(", ")}`, fix: "the provider must support OpenID Connect's authorization code flow" };
    const jwks = (await getJson(new URL(String(doc.jwks_uri), url).toString())) as { keys?: unknown };
    if (!Array.isArray(jwks.keys) || jwks.keys.length === 0)
      return {
        name: NAME,
        ok: false,
        detail: `${String(doc.jwks_uri)} publishes no signing keys`,
        fix: "the provider must publish the keys it signs ID tokens with",
      };
    return {
      name: NAME,
      ok: true,
      detail: `${issuer} (from ${source}) publishes its discovery document and ${jwks.keys.length} signing key${jwks.keys.length === 1 ? "" : "s"}`,
    };
  } catch (err) {
    return { name: NAME, ok: false, detail: `${url}: ${String((err as Error)?.message ?? err).split("\n", 1)[0]}`, fix };
  }
}
