// Sessions signed out while the disk was full. Signing out deletes the session's row, and a full disk refuses the
// delete (better-auth writes its rate limit first, and the delete is a write too): the browser drops its cookie, but
// the token would stay valid until it expires for anyone who copied it. So the session is refused here, in memory,
// from the moment of sign-out: every lookup of a session by its cookie goes through better-auth's
// internalAdapter.findSession (getSession, which pages, actions, the web API and the live streams ask; sessionMiddleware
// of its own endpoints; sign-out), and refuseRevokedSessions() makes it find nothing for these. The rows are deleted
// again every STORAGE_FULL_LIMITS.revokedSessionsRetryMs until a delete succeeds, then forgotten.
//
// One process only: with several nodes, another node does not know of the revocation and accepts the session until
// this node deletes its row (within seconds of space being freed, as the disk is the database's, shared by all) or it
// expires. A restart forgets the revocation the same way. Kept by the SHA-256 of the token, never the token itself.
import { createHash } from "node:crypto";
import { STORAGE_FULL_LIMITS } from "../config/limits";
import type { SignInSessionStore } from "../storage/sign-in-session-ports";
import { isStorageFull, noteStorageWritable, reportStorageFull } from "../storage/storage-full";

/** A session as better-auth gives it (its row). */
export type SignedOutSession = { id: string; token: string; userId: string; expiresAt: Date | string };

type Revoked = { sessionId: string; userId: string; expiresAt: number; store: SignInSessionStore };
type Registry = { byToken: Map<string, Revoked>; ids: Set<string>; timer: ReturnType<typeof setInterval> | null; retrying: Promise<void> | null };

// On globalThis: the custom server and Next's bundle each load this module, and a revocation must hold in both.
const KEY = Symbol.for("faultline.revokedSessions");
const holder = globalThis as typeof globalThis & { [KEY]?: Registry };
const registry = (holder[KEY] ??= { byToken: new Map(), ids: new Set(), timer: null, retrying: null });

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

function forget(hash: string): void {
  const r = registry.byToken.get(hash);
  if (!r) return;
  registry.byToken.delete(hash);
  registry.ids.delete(r.sessionId);
  if (registry.byToken.size === 0 && registry.timer) {
    clearInterval(registry.timer);
    registry.timer = null;
  }
}

/**
 * Refuses `session` in this process from now on, its row left behind by a sign-out that could not delete it; the row
 * is deleted through `store` once writes succeed again.
 */
export function revokeSignedOutSession(store: SignInSessionStore, session: SignedOutSession): void {
  const hash = hashOf(session.token);
  if (registry.byToken.has(hash)) return;
  if (registry.byToken.size >= STORAGE_FULL_LIMITS.revokedSessionsMax) forget(registry.byToken.keys().next().value!);
  const expiresAt = new Date(session.expiresAt).getTime();
  registry.byToken.set(hash, { sessionId: session.id, userId: session.userId, expiresAt, store });
  registry.ids.add(session.id);
  registry.timer ??= setInterval(() => void retryRevokedSessions(), STORAGE_FULL_LIMITS.revokedSessionsRetryMs);
  registry.timer.unref();
}

/** Whether the session of this token was signed out in this process and its row is not yet deleted. */
export function isSessionTokenRevoked(token: string): boolean {
  return registry.byToken.size > 0 && registry.byToken.has(hashOf(token));
}

/** Whether the session with this id was signed out in this process and its row is not yet deleted. */
export function isSessionIdRevoked(sessionId: string): boolean {
  return registry.ids.has(sessionId);
}

/** How many signed-out sessions wait for their rows to be deleted (the diagnostics page). */
export function pendingRevokedSessions(): number {
  return registry.byToken.size;
}

/**
 * Deletes the rows of the signed-out sessions, and forgets each that is gone (or expired: better-auth refuses it by
 * itself then). A full disk ends the round at the first delete it refuses; any other failure is logged and tried again.
 */
export function retryRevokedSessions(now = Date.now()): Promise<void> {
  registry.retrying ??= (async () => {
    try {
      for (const [hash, r] of [...registry.byToken]) {
        if (r.expiresAt <= now) {
          forget(hash);
          continue;
        }
        try {
          await r.store.deleteUserSession(r.userId, r.sessionId);
        } catch (err) {
          if (isStorageFull(err)) {
            reportStorageFull("signedOutSessions");
            return;
          }
          console.error("faultline: deleting a signed-out session failed; trying again later", err);
          continue;
        }
        noteStorageWritable();
        forget(hash);
      }
    } finally {
      registry.retrying = null;
    }
  })();
  return registry.retrying;
}

type SessionLookup = { findSession: (token: string) => Promise<unknown> };

/**
 * Makes better-auth find no session for a revoked token. better-auth has no hook on reading a session, so its
 * context's findSession is wrapped, once, before any request runs (createAuth calls this on the context it resolves).
 */
export function refuseRevokedSessions(context: { internalAdapter: SessionLookup }): void {
  const adapter = context.internalAdapter;
  const find = adapter.findSession.bind(adapter);
  adapter.findSession = async (token: string) => (isSessionTokenRevoked(token) ? null : find(token));
}
