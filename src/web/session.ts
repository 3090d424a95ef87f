// Who is signed in, for pages and server actions. Every page and action calls one of these: authorization is
// enforced where the data is read or written, never only in middleware.
import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { CLIENT_IP_HEADER } from "../auth/create-auth";
import type { UserContext } from "../core/context";
import { getServices } from "../runtime/services";
import type { User } from "../storage/ports";

export async function getCurrentUser(): Promise<User | null> {
  const { auth, store } = getServices();
  // cookies() rather than the request's Cookie header: within a server action that just signed in or rotated the
  // session (password change), it already holds the new session cookie.
  const h = new Headers(headers());
  h.set("cookie", cookies().toString());
  const session = await auth.api.getSession({ headers: h });
  if (!session) return null;
  return store.getUserById(session.user.id);
}

/** The signed-in user, or a redirect to the sign-in page of the locale (coming back afterwards). */
export async function requireUser(locale: string, returnTo?: string): Promise<User> {
  const user = await getCurrentUser();
  if (user) return user;
  if ((await getServices().store.countUsers()) === 0) redirect(`/${locale}/setup`);
  redirect(`/${locale}/sign-in${returnTo ? `?next=${encodeURIComponent(returnTo)}` : ""}`);
}

export async function requireCore(locale: string, returnTo?: string): Promise<UserContext> {
  const user = await requireUser(locale, returnTo);
  return { store: getServices().store, actor: { user }, ip: headers().get(CLIENT_IP_HEADER) };
}
