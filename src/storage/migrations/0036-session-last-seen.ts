// Sessions on the account page (issue 20): when each signed-in session was last seen.
// - sessions.last_seen_at: ISO 8601 text, written at most once per SESSION_LIMITS.lastSeenWriteSeconds per session
//   (core/sessions.ts), never on every request; null until the session's first request after sign-in.
//   The account page lists a person's sessions through sessions_user_id_idx (migration 0001).
import type { Kysely } from "kysely";

export function sessionLastSeen() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("sessions").addColumn("last_seen_at", "text").execute();
    },
  };
}
