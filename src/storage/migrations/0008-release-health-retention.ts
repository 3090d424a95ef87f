// Retention of release health: session counts go by their hour and users of a release by when they were last seen,
// each read from the low end of an index, as the other hourly counters are.
import type { Kysely } from "kysely";

export function releaseHealthRetention() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex("release_session_counts_hour_idx").on("release_session_counts").column("hour").execute();
      await db.schema.createIndex("release_session_users_last_seen_idx").on("release_session_users").column("last_seen").execute();
    },
  };
}
