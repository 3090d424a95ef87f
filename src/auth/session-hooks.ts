// better-auth's endpoints that end sessions: a password change (signing the other sessions out), turning two-factor on
// or off (the session in use is renewed, and here every other session is signed out, as after a password change),
// signing out, and better-auth's own revoke endpoints. Whose sessions they are is noted before the endpoint runs (its
// session may be gone after it); once it succeeded, `onSessionsEnded` is told, so that the live streams of the ended
// sessions close at once (runtime/services.ts → web/live-streams.ts) rather than at their next tick.
import { createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import type { Db } from "../storage/db";
import { recordApiRevocation } from "../core/sessions";
import { createStore } from "../storage/kysely";
import { CLIENT_IP_HEADER } from "./client-ip";
import { revokeSignedOutSession } from "./revoked-sessions";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Endpoints after which some of the person's sessions may have ended. */
const ENDING = new Set([
  "/change-password",
  "/two-factor/verify-totp",
  "/two-factor/disable",
  "/sign-out",
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
]);

/** better-auth's own revoke endpoints (its HTTP API; the account page revokes through the core, which records itself). */
const REVOKE = new Set(["/revoke-session", "/revoke-sessions", "/revoke-other-sessions"]);

/** Whose sessions a request may end, and (for the revoke endpoints) how many they had before it. */
const owners = new WeakMap<object, { userId: string; sessionsBefore: number }>();

/** Before an endpoint that may end sessions: notes whose they are. */
export async function beforeSessionEnding(db: Db, ctx: HookContext): Promise<void> {
  if (!ENDING.has(ctx.path)) return;
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (!session) return;
  const sessionsBefore = REVOKE.has(ctx.path) ? (await createStore(db).listUserSessions(session.user.id, new Date().toISOString())).length : 0;
  owners.set(ctx.context, { userId: session.user.id, sessionsBefore });
}

/**
 * After it: if it succeeded, tells `onSessionsEnded` whose sessions may have ended; a revocation through better-auth's
 * own endpoints is recorded in the security log as the account page's are.
 */
export async function afterSessionEnding(db: Db, ctx: HookContext, onSessionsEnded: ((userId: string) => Promise<void>) | undefined): Promise<void> {
  const noted = owners.get(ctx.context);
  if (!noted) return;
  owners.delete(ctx.context);
  const { userId, sessionsBefore } = noted;
  const returned: unknown = ctx.context.returned;
  if (isAPIError(returned) || returned instanceof Error || (returned instanceof Response && !returned.ok)) return;
  if (REVOKE.has(ctx.path)) {
    const store = createStore(db);
    const revoked = sessionsBefore - (await store.listUserSessions(userId, new Date().toISOString())).length;
    const user = revoked > 0 ? await store.getUserById(userId) : null;
    // better-auth answers success for another person's token too, revoking nothing: nothing is recorded then.
    if (user) await recordApiRevocation({ store, actor: { user }, ip: ctx.headers?.get(CLIENT_IP_HEADER) ?? null }, ctx.path, revoked);
  }
  await onSessionsEnded?.(userId);
}

/**
 * After two-factor was turned on or off: signs out the person's sessions other than the renewed one in use (better-auth
 * sets it as the request's new session). Returns how many were signed out.
 */
export async function signOutOthersAfterTwoFactor(db: Db, ctx: HookContext, userId: string): Promise<number> {
  const keep = ctx.context.newSession?.session.id;
  if (!keep || ctx.context.newSession?.user.id !== userId) return 0;
  return (await createStore(db).deleteOtherUserSessions(userId, keep)).length;
}

/**
 * After sign-out: better-auth logs a delete of the session's row that failed (a full disk) and answers success all the
 * same, so a row still there is refused in memory from now on and deleted once writes succeed (auth/revoked-sessions.ts).
 */
export async function afterSignOut(db: Db, ctx: HookContext): Promise<void> {
  const token = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name, ctx.context.secret);
  if (!token) return;
  const left = await ctx.context.internalAdapter.findSession(token).catch(() => null);
  if (left) revokeSignedOutSession(createStore(db), left.session);
}
