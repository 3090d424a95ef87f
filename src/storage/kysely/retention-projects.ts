// Retention per project (issue 18, migration 0024): a project whose retention_days is shorter than the instance's
// loses its events received before its own cutoff, oldest first through events(project_id, received_at), in bounded
// deletes; and the user rows (event_users) and trace links (trace_events) of events retention deletes go with them.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import type { Database } from "../schema";
import { chunks } from "./batch-rows";

/**
 * Deletes the rows named by deleted events' events.id (their user, event_users, and their trace link, trace_events) on
 * PostgreSQL, whose partitioned events cannot be referenced by a foreign key. On SQLite the foreign keys have deleted
 * them with their events (migrations 0039 and 0040).
 */
export async function forgetEventRows(db: Kysely<Database>, dialect: Dialect, eventRowIds: number[]): Promise<void> {
  if (dialect !== "postgres") return;
  for (const part of chunks(eventRowIds)) {
    await db.deleteFrom("event_users").where("event_row_id", "in", part).execute();
    await db.deleteFrom("trace_events").where("event_row_id", "in", part).execute();
  }
}

/** Up to `limit` events of projects with a retention shorter than `instanceDays`, received before their cutoff. */
export async function pruneProjectEvents(db: Kysely<Database>, dialect: Dialect, now: string, instanceDays: number, limit: number): Promise<number> {
  const projects = await db
    .selectFrom("projects")
    .select(["id", "retention_days"])
    .where("retention_days", "is not", null)
    .where("retention_days", "<", instanceDays)
    .orderBy("id")
    .execute();
  let left = limit;
  for (const p of projects) {
    if (left <= 0) break;
    const cutoff = new Date(Date.parse(now) - Number(p.retention_days) * 86_400_000).toISOString();
    const rows = await db
      .selectFrom("events")
      .select("id")
      .where("project_id", "=", p.id)
      .where("received_at", "<", cutoff)
      .orderBy("received_at")
      .limit(left)
      .execute();
    if (rows.length === 0) continue;
    const r = await db
      .deleteFrom("events")
      .where(
        "id",
        "in",
        rows.map((x) => x.id),
      )
      .executeTakeFirst();
    await forgetEventRows(
      db,
      dialect,
      rows.map((x) => x.id),
    );
    left -= Number(r.numDeletedRows);
  }
  return limit - left;
}
