// Releases as Sentry's release API shows them (when work started, the commits and refs sentry-cli sends), and release
// health: per-session state (so an update of a session never counts it twice), session counts per release,
// environment and hour, and the distinct users of each release and environment.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function releases(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("releases").addColumn("started_at", "text").execute();
      /** JSON: the `refs` of sentry-cli's set-commits ([{repository, commit, previousCommit}]). */
      await db.schema.alterTable("releases").addColumn("refs", "text").execute();
      /** JSON: the `commits` of set-commits --local ([{id, repository, message, author_name, author_email, timestamp}]). */
      await db.schema.alterTable("releases").addColumn("commits", "text").execute();
      await db.schema
        .createTable("release_session_states")
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("session_id", "text", (c) => c.notNull())
        .addColumn("release", "text", (c) => c.notNull())
        .addColumn("environment", "text", (c) => c.notNull())
        .addColumn("hour", "text", (c) => c.notNull())
        .addColumn("distinct_id", "text")
        .addColumn("errored", t.bool, (c) => c.notNull())
        /** ok until the session ends: exited, crashed or abnormal. */
        .addColumn("status", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("release_session_states_pkey", ["project_id", "session_id"])
        .execute();
      await db.schema.createIndex("release_session_states_hour_idx").on("release_session_states").column("hour").execute();
      await db.schema
        .createTable("release_session_counts")
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("release", "text", (c) => c.notNull())
        .addColumn("environment", "text", (c) => c.notNull())
        .addColumn("hour", "text", (c) => c.notNull())
        .addColumn("started", t.bigint, (c) => c.notNull())
        /** Sessions with errors, crashed and abnormal ones included (Sentry's errored_all). */
        .addColumn("errored", t.bigint, (c) => c.notNull())
        .addColumn("crashed", t.bigint, (c) => c.notNull())
        .addColumn("abnormal", t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint("release_session_counts_pkey", ["project_id", "release", "environment", "hour"])
        .execute();
      await db.schema
        .createTable("release_session_users")
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("release", "text", (c) => c.notNull())
        .addColumn("environment", "text", (c) => c.notNull())
        .addColumn("distinct_id", "text", (c) => c.notNull())
        .addColumn("crashed", t.bool, (c) => c.notNull())
        .addColumn("first_seen", "text", (c) => c.notNull())
        .addColumn("last_seen", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("release_session_users_pkey", ["project_id", "release", "environment", "distinct_id"])
        .execute();
    },
  };
}
