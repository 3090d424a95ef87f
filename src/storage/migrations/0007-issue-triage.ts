// Triage: events per issue per day (hourly counters are pruned with the retention, daily ones outlive them), the
// issue's distinct users as a column the list can sort by, an issue assigned to a team, and an index per sort of the
// issue list (last seen, first seen, times seen, users), with and without the status every list filters on.
import { type Kysely, sql } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

/** The issue list's sort columns; each index ends in id, the tie-breaker of the list's keyset pages. */
const SORT_COLUMNS = ["last_seen", "first_seen", "times_seen", "user_count"] as const;

export function issueTriage(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("issues")
        .addColumn("user_count", t.bigint, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("issues")
        .addColumn("assignee_team_id", "integer", (c) => c.references("teams.id").onDelete("set null"))
        .execute();
      await sql`update issues set user_count = (select count(*) from issue_users where issue_users.issue_id = issues.id)`.execute(db);
      await db.schema
        .createTable("issue_counts_daily")
        .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
        .addColumn("day", "text", (c) => c.notNull())
        .addColumn("count", t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint("issue_counts_daily_pkey", ["issue_id", "day"])
        .execute();
      // Hours are "2026-11-23T10:00:00Z"; their day is the first ten characters.
      await sql`insert into issue_counts_daily (issue_id, day, count) select issue_id, substr(hour, 1, 10), sum(count) from issue_counts group by issue_id, substr(hour, 1, 10)`.execute(
        db,
      );
      await db.schema.dropIndex("issues_project_last_seen_idx").execute();
      await db.schema.dropIndex("issues_project_status_last_seen_idx").execute();
      for (const column of SORT_COLUMNS) {
        await db.schema.createIndex(`issues_project_${column}_idx`).on("issues").columns(["project_id", column, "id"]).execute();
        await db.schema.createIndex(`issues_project_status_${column}_idx`).on("issues").columns(["project_id", "status", column, "id"]).execute();
      }
      await db.schema.createIndex("issues_assignee_idx").on("issues").column("assignee_id").execute();
      await db.schema.createIndex("issues_assignee_team_idx").on("issues").column("assignee_team_id").execute();
    },
  };
}
