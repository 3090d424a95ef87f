// Calls better-auth's HTTP endpoints in-process from server actions, so that its rate limiter and origin checks
// apply exactly as for HTTP clients, then hands the cookies it sets to Next's cookie store. A failed or refused
// sign-in is recorded in the instance's audit trail (core/audit.ts), whichever form it came from.
import "server-only";
import { parseSetCookieHeader, toCookieOptions } from "better-auth/cookies";
import { cookies, headers } from "next/headers";
import { authPath, CLIENT_IP_HEADER } from "../auth/create-auth";
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
 * Signs this browser out by its cookies alone, for when better-auth cannot end the session (the disk is full: it
 * writes before it deletes). The session's row stays until it expires, reachable by nobody once the browser has
 * dropped the cookie: better than a browser left signed in on a shared computer.
 */
export async function dropSessionCookies(): Promise<void> {
  const { authCookies } = await (await currentServices()).auth.$context;
  const jar = cookies();
  for (const cookie of [authCookies.sessionToken, authCookies.sessionData, authCookies.dontRememberToken])
    jar.set(cookie.name, "", { path: cookie.attributes.path ?? "/", secure: cookie.attributes.secure, httpOnly: true, sameSite: "lax", maxAge: 0 });
}
