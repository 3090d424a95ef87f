import { SESSION_LIMITS } from "../../config/limits";
import type { SessionInfo, SignInSessionStore } from "../sign-in-session-ports";
import type { Ctx } from "./shared";

/** better-auth writes Date objects on PostgreSQL and ISO strings on SQLite; both are read back as ISO 8601. */
const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

export function signInSessionStore({ db }: Ctx): SignInSessionStore {
  return {
    async listUserSessions(userId, now) {
      const rows = await db
        .selectFrom("sessions")
        .select(["id", "created_at", "last_seen_at", "expires_at", "ip_address", "user_agent"])
        .where("user_id", "=", userId)
        .where("expires_at", ">", now)
        .orderBy("created_at", "desc")
        .limit(SESSION_LIMITS.maxListed)
        .execute();
      return rows
        .map(
          (r): SessionInfo => ({
            id: r.id,
            createdAt: iso(r.created_at),
            lastSeenAt: r.last_seen_at,
            expiresAt: iso(r.expires_at),
            ipAddress: r.ip_address,
            userAgent: r.user_agent,
          }),
        )
        .sort(
          (a, b) =>
            (b.lastSeenAt ?? b.createdAt).localeCompare(a.lastSeenAt ?? a.createdAt) || b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id),
        );
    },
    async deleteUserSession(userId, sessionId) {
      const r = await db.deleteFrom("sessions").where("user_id", "=", userId).where("id", "=", sessionId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async deleteOtherUserSessions(userId, keepSessionId) {
      const rows = await db.deleteFrom("sessions").where("user_id", "=", userId).where("id", "<>", keepSessionId).returning("id").execute();
      return rows.map((r) => r.id);
    },
    async touchSession(sessionId, seenAt, notBefore) {
      await db
        .updateTable("sessions")
        .set({ last_seen_at: seenAt })
        .where("id", "=", sessionId)
        .where((eb) => eb.or([eb("last_seen_at", "is", null), eb("last_seen_at", "<", notBefore)]))
        .execute();
    },
  };
}
