// Who is signed in, for pages and server actions. Every page and action calls one of these: authorization is
// enforced where the data is read or written, never only in middleware.
import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { CLIENT_IP_HEADER } from "../auth/create-auth";
import type { UserContext } from "../core/context";
import { noteSessionSeen } from "../core/sessions";
import { getServices } from "../runtime/services";
import type { User } from "../storage/ports";
import { renderStore } from "./render-store";

/** Asked once per render and cookie: a page's layouts and the page itself each ask who is signed in. */
const sessionOf = cache(async (cookie: string): Promise<{ user: User; sessionId: string } | null> => {
  const { auth } = getServices();
  const store = renderStore();
  const h = new Headers(headers());
  h.set("cookie", cookie);
  const session = await auth.api.getSession({ headers: h });
  if (!session) return null;
  const user = await store.getUserById(session.user.id);
  if (!user) return null;
  await noteSessionSeen(store, session.session.id).catch((err: unknown) => console.error("faultline: noting a session as seen failed", err));
  return { user, sessionId: session.session.id };
});

/**
 * The signed-in person and the id of their session. better-auth reads the session row on every call (no cookie cache),
 * so a revoked session is refused at its very next page or action; a page's render asks once. Each call counts as the
 * session being seen (written at most once per SESSION_LIMITS.lastSeenWriteSeconds, core/sessions.ts).
 */
export async function getCurrentSession(): Promise<{ user: User; sessionId: string } | null> {
  // cookies() rather than the request's Cookie header: within a server action that just signed in or rotated the
  // session (password change), it already holds the new session cookie.
  return sessionOf(cookies().toString());
}

export async function getCurrentUser(): Promise<User | null> {
  return (await getCurrentSession())?.user ?? null;
}

/** The signed-in user and session, or a redirect to the sign-in page of the locale (coming back afterwards). */
export async function requireSession(locale: string, returnTo?: string): Promise<{ user: User; sessionId: string }> {
  const session = await getCurrentSession();
  if (session) return session;
  if ((await getServices().store.countUsers()) === 0) redirect(`/${locale}/setup`);
  redirect(`/${locale}/sign-in${returnTo ? `?next=${encodeURIComponent(returnTo)}` : ""}`);
}

/** The signed-in user, or a redirect to the sign-in page of the locale (coming back afterwards). */
export async function requireUser(locale: string, returnTo?: string): Promise<User> {
  return (await requireSession(locale, returnTo)).user;
}

export async function requireCore(locale: string, returnTo?: string): Promise<UserContext> {
  const user = await requireUser(locale, returnTo);
  return { store: renderStore(), actor: { user }, ip: headers().get(CLIENT_IP_HEADER) };
}

/** As requireCore, with the id of the session the request came with (the account page's sessions). */
export async function requireSessionCore(locale: string, returnTo?: string): Promise<{ core: UserContext; sessionId: string }> {
  const { user, sessionId } = await requireSession(locale, returnTo);
  return { core: { store: renderStore(), actor: { user }, ip: headers().get(CLIENT_IP_HEADER) }, sessionId };
}
