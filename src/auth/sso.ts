// Single sign-on with an OpenID Connect provider (issue 20) on better-auth's generic-oauth plugin. The plugin does the
// protocol: discovery ({issuer}/.well-known/openid-configuration), the authorization code flow with PKCE (S256), a
// state bound to the browser (signed cookie and a verification row, used once), a nonce, and the ID token verified
// with jose against the discovery document's JWKS: signature (the algorithms the provider announces), `iss`, `aud`
// (our client id), `exp`, `iat` (30 s of clock tolerance) and `nonce` (@better-auth/core/oauth2/verify-id-token).
// Faultline adds what it leaves open:
// - the provider is registered only with ID token verification (requireIdTokenVerification), and a token response
//   without an ID token signs nobody in (the profile comes from the verified ID token, never from userinfo alone);
// - the ID token's issuer must be the configured issuer exactly (OpenID Connect Discovery §4.3), not merely the one the
//   discovery document names;
// - an ID token posted directly to /sign-in/social or /link-social (better-auth's "ID token sign-in", which has no
//   state and no PKCE of ours) is refused: the browser flow is the only way in;
// - the callback's query is checked before anything reads it: one value per field, within SSO_LIMITS, printable
//   ASCII only; anything else is a 400, never a redirect loop or a 500;
// - an account is created only for an address the provider says is verified (auth/sso-hooks.ts), and
//   a password account is never linked by its e-mail address alone (accountLinking.disableImplicitLinking): the
//   person signs in with the password, then links (web/actions/sso.action.ts, better-auth's /link-social).
import { APIError } from "better-auth/api";
import { decodeJwt } from "jose";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { SSO_LIMITS } from "../config/limits";
import { SSO_PROVIDER_ID } from "../core/sso";

/** The provider as configured (environment or instance settings), the secret behind a function. */
export type SsoProviderConfig = { issuer: string; clientId: string; clientSecret: () => string; name: string };

/** The discovery document's URL of an issuer (OpenID Connect Discovery 1.0 §4). */
export const discoveryUrlOf = (issuer: string) => `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;

const truthy = (v: unknown) => v === true || v === "true";

export function ssoPlugin(sso: SsoProviderConfig) {
  const issuer = sso.issuer.replace(/\/+$/, "");
  return genericOAuth({
    config: [
      {
        providerId: SSO_PROVIDER_ID,
        name: sso.name,
        discoveryUrl: discoveryUrlOf(issuer),
        requireIdTokenVerification: true,
        clientId: sso.clientId,
        clientSecret: sso.clientSecret(),
        scopes: ["openid", "email", "profile"],
        pkce: true,
        // Runs after the plugin verified the ID token (signature, iss against discovery, aud, exp, nonce).
        getUserInfo: async (tokens) => {
          if (!tokens.idToken) return null;
          const claims = decodeJwt(tokens.idToken);
          if ((claims.iss ?? "").replace(/\/+$/, "") !== issuer) return null;
          if (typeof claims.sub !== "string" || typeof claims.email !== "string") return null;
          const name = typeof claims.name === "string" ? claims.name : typeof claims.preferred_username === "string" ? claims.preferred_username : claims.email;
          return { id: claims.sub, sub: claims.sub, email: claims.email, emailVerified: truthy(claims.email_verified), name, image: undefined };
        },
      },
    ],
  });
}

const CALLBACK_FIELDS: Record<string, number> = {
  state: SSO_LIMITS.maxStateLength,
  code: SSO_LIMITS.maxCodeLength,
  error: SSO_LIMITS.maxShortFieldLength,
  error_description: SSO_LIMITS.maxErrorDescriptionLength,
  iss: SSO_LIMITS.maxShortFieldLength,
  session_state: SSO_LIMITS.maxShortFieldLength,
};

/**
 * What these fields may hold: printable ASCII (RFC 6749's VSCHAR for state, code, error and error_description; an
 * issuer URL). A control character, a NUL, or any other character (a broken UTF-8 sequence decodes to U+FFFD) is not
 * something a provider sends.
 */
const VSCHAR = /^[\x20-\x7e]*$/;

function badCallback(message: string): never {
  throw new APIError("BAD_REQUEST", { message, code: "INVALID_CALLBACK_REQUEST" });
}

/** Checks the callback's query (and a form_post body) before better-auth reads it; throws a 400 on anything odd. */
export function checkCallbackInput(query: unknown, body: unknown): void {
  for (const source of [query, body]) {
    if (source === undefined || source === null) continue;
    if (typeof source !== "object" || Array.isArray(source)) badCallback("Malformed callback");
    const entries = Object.entries(source as Record<string, unknown>);
    if (entries.length > 16) badCallback("Too many callback parameters");
    for (const [key, value] of entries) {
      const max = CALLBACK_FIELDS[key];
      if (max === undefined) continue;
      if (typeof value !== "string") badCallback(`The callback's ${key} must appear once`);
      if (value.length > max) badCallback(`The callback's ${key} is too long`);
      if (!VSCHAR.test(value)) badCallback(`The callback's ${key} may only hold printable ASCII characters`);
    }
  }
}

/** Refuses better-auth's direct ID token sign-in and link (no state, no PKCE of ours): the browser flow only. */
export function refuseDirectIdToken(body: unknown): void {
  if (body && typeof body === "object" && "idToken" in body && (body as { idToken?: unknown }).idToken !== undefined) {
    throw new APIError("BAD_REQUEST", { message: "Sign in through the provider's page", code: "ID_TOKEN_NOT_SUPPORTED" });
  }
}
