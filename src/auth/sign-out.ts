// Signing out when better-auth could not end the session: its sign-out failed before the endpoint ran (its rate limit,
// a write, met a full disk), so the session's row is still there. The session the request's cookie names is refused
// in this process from now on (auth/revoked-sessions.ts), and its row deleted once writes succeed again.
import type { SignInSessionStore } from "../storage/sign-in-session-ports";
import type { Auth } from "./create-auth";
import { revokeSignedOutSession } from "./revoked-sessions";

/** Revokes the session `headers` (the request's, with its cookie) carry, in memory; returns its id (null: none). */
export async function revokeSessionInMemory(auth: Auth, store: SignInSessionStore, headers: Headers): Promise<string | null> {
  // No refresh: that would be a write. An expired session is none (better-auth refuses it by itself).
  const found = await auth.api.getSession({ headers, query: { disableCookieCache: true, disableRefresh: true } }).catch(() => null);
  if (!found) return null;
  revokeSignedOutSession(store, found.session);
  return found.session.id;
}
