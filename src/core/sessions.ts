// Sign-in sessions (issue 20): the account page lists a person's active sessions (device, address, created, last seen,
// which one is this one) and revokes one or all the others. Only a person's own: every function takes the session the
// request came with and acts on the actor's sessions alone, so another person's session id is "not found", as an id
// that never existed. Revocations are recorded in the instance's security log (core/audit.ts). A revoked session is
// refused at its next request (better-auth reads the session row on every request: no cookie cache); its open live
// streams are ended by the caller with the ids returned here (web/live-streams.ts).
import Bowser from "bowser";
import { z } from "zod";
import { isSessionIdRevoked } from "../auth/revoked-sessions";
import { SESSION_LIMITS } from "../config/limits";
import type { SessionInfo } from "../storage/sign-in-session-ports";
import type { Store } from "../storage/ports";
import { audit } from "./audit";
import { actingUser, type CoreContext } from "./context";
import { AppError } from "./errors";

/** What a session's user agent tells of its device (empty strings where it tells nothing). */
export type Device = { browser: string; os: string; platform: "desktop" | "mobile" | "tablet" | "tv" | "bot" | "" };

export type SessionView = SessionInfo & { device: Device; current: boolean };

/** The device of a user agent, read by Bowser (a maintained parser); a missing or unreadable agent tells nothing. */
export function describeDevice(userAgent: string | null): Device {
  const ua = (userAgent ?? "").slice(0, SESSION_LIMITS.userAgentMaxLength);
  if (!ua.trim()) return { browser: "", os: "", platform: "" };
  try {
    const parsed = Bowser.parse(ua);
    const version = parsed.browser.version?.split(".")[0];
    const browser = parsed.browser.name ? `${parsed.browser.name}${version ? ` ${version}` : ""}` : "";
    const os = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(" ");
    const type = parsed.platform.type;
    const platform = type === "desktop" || type === "mobile" || type === "tablet" || type === "tv" || type === "bot" ? type : "";
    return { browser, os, platform };
  } catch {
    return { browser: "", os: "", platform: "" };
  }
}

/**
 * The person's active sessions: this one (marked) first, then the others, most recently seen first. A session signed
 * out while the disk was full is not active, though its row waits to be deleted (auth/revoked-sessions.ts).
 */
export async function listSessions(ctx: CoreContext, currentSessionId: string): Promise<SessionView[]> {
  const user = actingUser(ctx);
  const sessions = (await ctx.store.listUserSessions(user.id, new Date().toISOString())).filter((s) => !isSessionIdRevoked(s.id));
  const views = sessions.map((s) => ({ ...s, device: describeDevice(s.userAgent), current: s.id === currentSessionId }));
  return [...views.filter((s) => s.current), ...views.filter((s) => !s.current)];
}

const revokeSchema = z.object(
  {
    sessionId: z
      .string({ error: "Choose a session" })
      .min(1, "Choose a session")
      .max(SESSION_LIMITS.idMaxLength, "Not a session id")
      .regex(/^[A-Za-z0-9_-]+$/, "Not a session id"),
  },
  { error: "Choose a session" },
);

const deviceLabel = (s: SessionInfo) => {
  const d = describeDevice(s.userAgent);
  return [d.browser, d.os].filter(Boolean).join(" on ") || "an unknown device";
};

/**
 * Revokes one of the person's sessions (not the one in use: signing out ends that). Returns the id revoked. Another
 * person's session, an expired one or one that never existed: not found.
 */
export async function revokeSession(ctx: CoreContext, currentSessionId: string, input: unknown): Promise<string[]> {
  const user = actingUser(ctx);
  const parsed = revokeSchema.safeParse(input);
  // One message for the one field, shown as the form's own (the id is a hidden field, no one types it).
  if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Not a session id");
  const { sessionId } = parsed.data;
  if (sessionId === currentSessionId) throw new AppError("bad_request", "This is the session you are using; sign out to end it");
  const session = (await ctx.store.listUserSessions(user.id, new Date().toISOString())).find((s) => s.id === sessionId);
  if (!session || !(await ctx.store.deleteUserSession(user.id, sessionId))) throw new AppError("not_found", "Session not found");
  await audit(ctx, {
    organizationId: null,
    event: "user.session-revoke",
    target: sessionId,
    targetUserId: user.id,
    note: `${user.email} signed out their session on ${deviceLabel(session)}`,
    data: { sessions: 1, ipAddress: session.ipAddress, device: deviceLabel(session) },
  });
  return [sessionId];
}

/** Revokes every session of the person but the one in use; returns the ids revoked (none: nothing is recorded). */
export async function revokeOtherSessions(ctx: CoreContext, currentSessionId: string): Promise<string[]> {
  const user = actingUser(ctx);
  const revoked = await ctx.store.deleteOtherUserSessions(user.id, currentSessionId);
  if (revoked.length > 0) {
    await audit(ctx, {
      organizationId: null,
      event: "user.session-revoke",
      targetUserId: user.id,
      note: `${user.email} signed out ${revoked.length} other session${revoked.length === 1 ? "" : "s"}`,
      data: { sessions: revoked.length },
    });
  }
  return revoked;
}

/** A revocation through better-auth's own HTTP endpoints (`path`: which one), recorded as the account page's are. */
export async function recordApiRevocation(ctx: CoreContext, path: string, sessions: number): Promise<void> {
  const user = actingUser(ctx);
  await audit(ctx, {
    organizationId: null,
    event: "user.session-revoke",
    targetUserId: user.id,
    note: `${user.email} signed out ${sessions} session${sessions === 1 ? "" : "s"} through the auth API (${path})`,
    data: { sessions, endpoint: path },
  });
}

/** Sessions this process wrote "last seen" for, with when (ms): within the interval not even the conditional write is sent. */
const SEEN_KEY = Symbol.for("faultline.sessionsSeen");
const seenHolder = globalThis as typeof globalThis & { [SEEN_KEY]?: Map<string, number> };
const seen = (seenHolder[SEEN_KEY] ??= new Map<string, number>());

/**
 * Notes that a session made a request: writes its "last seen" at most once per SESSION_LIMITS.lastSeenWriteSeconds
 * (remembered in this process, and checked by the write itself for other processes), never once per request.
 */
export async function noteSessionSeen(store: Store, sessionId: string, now = Date.now()): Promise<void> {
  const interval = SESSION_LIMITS.lastSeenWriteSeconds * 1000;
  const last = seen.get(sessionId);
  if (last !== undefined && now - last < interval) return;
  if (seen.size >= SESSION_LIMITS.seenMemoryEntries) seen.clear();
  seen.set(sessionId, now);
  await store.touchSession(sessionId, new Date(now).toISOString(), new Date(now - interval).toISOString());
}
