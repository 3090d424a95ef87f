// The browser tests' OpenID Connect provider: panva's oidc-provider (an OpenID Certified implementation) on loopback,
// with the sso server (servers.mjs) registered as a confidential client, and the main server as another (set in its
// instance settings by sso-settings.spec.ts). Its own login page (oidc-provider's
// development interactions) takes any login: the login is the person's e-mail address, and an address starting with
// "unverified" is one the provider has not verified (email_verified false).
// One test switch, POST /__test/clock-skew?seconds=N: the provider's clock runs N seconds behind while it issues
// tokens, so that the ID token it signs has expired on arrival (the "expired ID token" test); 0 sets it right.
import { createServer } from "node:http";
import Provider from "oidc-provider";
import { OIDC, SERVERS } from "./servers";

let skewSeconds = 0;
const realNow = Date.now;

const provider = new Provider(OIDC.issuer, {
  clients: [
    {
      client_id: OIDC.clientId,
      client_secret: OIDC.clientSecret,
      redirect_uris: [`${SERVERS.sso.origin}/api/auth/callback/sso`],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    },
    {
      client_id: OIDC.mainClientId,
      client_secret: OIDC.mainClientSecret,
      redirect_uris: [`${SERVERS.main.origin}/api/auth/callback/sso`],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    },
  ],
  pkce: { required: () => true },
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  // The claims go into the ID token itself, where Faultline reads them after verifying it.
  conformIdTokenClaims: false,
  ttl: { IdToken: 600, AccessToken: 600, AuthorizationCode: 60, Session: 3600, Interaction: 600, Grant: 3600 },
  cookies: { keys: ["e2e-oidc-cookie-key-0123456789abcdef"] },
  findAccount: async (_ctx, id) => ({
    accountId: id,
    claims: async () => ({ sub: id, email: id, email_verified: !id.startsWith("unverified"), name: id.split("@")[0] }),
  }),
});

// The token endpoint under a skewed clock: every timestamp it writes (iat, exp) is N seconds in the past.
provider.use(async (ctx, next) => {
  if (ctx.path === "/token" && skewSeconds > 0) {
    Date.now = () => realNow() - skewSeconds * 1000;
    try {
      await next();
    } finally {
      Date.now = realNow;
    }
    return;
  }
  await next();
});

const callback = provider.callback();
createServer((req, res) => {
  const url = new URL(req.url ?? "/", OIDC.issuer);
  if (url.pathname === "/__test/clock-skew" && req.method === "POST") {
    skewSeconds = Number(url.searchParams.get("seconds") ?? 0) || 0;
    res.writeHead(204).end();
    return;
  }
  callback(req, res);
}).listen(OIDC.port, "127.0.0.1");
