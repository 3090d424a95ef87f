// Calls better-auth's HTTP endpoints in-process from server actions, so that its rate limiter and origin checks
// apply exactly as for HTTP clients, then hands the cookies it sets to Next's cookie store. A failed or refused
// sign-in is recorded in the instance's audit trail (core/audit.ts), whichever form it came from.
import "server-only";
import { parseSetCookieHeader, toCookieOptions } from "better-auth/cookies";
import { cookies, headers } from "next/headers";
import { authPath, CLIENT_IP_HEADER } from "../auth/create-auth";
import { revokeSessionInMemory } from "../auth/sign-out";
import { recordSignInAttempt } from "../core/audit";
import { currentServices, getServices } from "../runtime/services";

export type AuthCallResult = { status: number; body: Record<string, unknown> | null };

export async function callAuth(endpoint: string, body: Record<string, unknown>): Promise<AuthCallResult> {
  const { auth, config, basePath } = await currentServices();
  const incoming = headers();
  const url = `${config.publicUrl}${authPath(basePath)}${endpoint}`;
  const forwarded = new Headers({ "content-type": "application/json", origin: new URL(config.publicUrl).origin });
  for (const name of [CLIENT_IP_HEADER, "user-agent", "cookie"]) {
    const v = incoming.get(name);
    if (v) forwarded.set(name, v);
  }
  const res = await auth.handler(new Request(url, { method: "POST", headers: forwarded, body: JSON.stringify(body) }));
  if (endpoint === "/sign-in/email" && res.status !== 200) {
    const email = typeof body.email === "string" ? body.email : "";
    await recordSignInAttempt(getServices().store, { email, ip: incoming.get(CLIENT_IP_HEADER), lockedOut: res.status === 429 });
  }
  const setCookie = res.headers.get("set-cookie");
  if (setCookie) {
    const jar = cookies();
    for (const [name, attrs] of parseSetCookieHeader(setCookie)) jar.set(name, attrs.value, toCookieOptions(attrs));
  }
  const text = await res.text();
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed };
}

/**
 * Signs this browser out when better-auth cannot end the session (the disk is full: it writes its rate limit before it
 * deletes the row): the session is refused in this process from now on, though its row stays (auth/sign-out.ts; its
 * row is deleted once writes succeed again, and until then another node of a cluster still accepts it), and the
 * browser drops its cookies.
 */
export async function dropSessionCookies(): Promise<void> {
  const { auth, store } = await currentServices();
  await revokeSessionInMemory(auth, store, new Headers({ cookie: cookies().toString() }));
  const { authCookies } = await auth.$context;
  const jar = cookies();
  for (const cookie of [authCookies.sessionToken, authCookies.sessionData, authCookies.dontRememberToken])
    jar.set(cookie.name, "", { path: cookie.attributes.path ?? "/", secure: cookie.attributes.secure, httpOnly: true, sameSite: "lax", maxAge: 0 });
}
