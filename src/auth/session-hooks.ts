// better-auth's endpoints that end sessions: a password change (signing the other sessions out), turning two-factor on
// or off (the session in use is renewed, and here every other session is signed out, as after a password change),
// signing out, and better-auth's own revoke endpoints. Whose sessions they are is noted before the endpoint runs (its
// session may be gone after it); once it succeeded, `onSessionsEnded` is told, so that the live streams of the ended
// sessions close at once (runtime/services.ts → web/live-streams.ts) rather than at their next tick.
import { createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import type { Db } from "../storage/db";
import { createStore } from "../storage/kysely";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Endpoints after which some of the person's sessions may have ended. */
const ENDING = new Set(["/change-password", "/two-factor/verify-totp", "/two-factor/disable", "/sign-out", "/revoke-session", "/revoke-sessions", "/revoke-other-sessions"]);

const owners = new WeakMap<object, string>();

/** Before an endpoint that may end sessions: notes whose they are. */
export async function beforeSessionEnding(ctx: HookContext): Promise<void> {
  if (!ENDING.has(ctx.path)) return;
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) owners.set(ctx.context, session.user.id);
}

/** After it: if it succeeded, tells `onSessionsEnded` whose sessions may have ended. */
export async function afterSessionEnding(ctx: HookContext, onSessionsEnded: ((userId: string) => Promise<void>) | undefined): Promise<void> {
  const userId = owners.get(ctx.context);
  if (!userId) return;
  owners.delete(ctx.context);
  const returned: unknown = ctx.context.returned;
  if (isAPIError(returned) || returned instanceof Error || (returned instanceof Response && !returned.ok)) return;
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
