// Retention's bounded deletes (storage/retention-ports.ts) for SQLite and PostgreSQL. Rows to delete are chosen by a
// short indexed read, then deleted by primary key; row-value IN (…) works the same in both dialects.
import { type ExpressionBuilder, sql } from "kysely";
import type { Database } from "../schema";
import type { RetentionStore } from "../retention-ports";
import type { Ctx } from "./shared";

export function retentionStore({ db }: Ctx): RetentionStore {
  /** Of the `limit` lowest ids of an append-only table, deletes those received before `cutoff`. */
  async function pruneOldest(table: "events" | "raw_items", cutoff: string, limit: number): Promise<number> {
    const rows = await db.selectFrom(table).select(["id", "received_at"]).orderBy("id").limit(limit).execute();
    const ids = rows.filter((r) => r.received_at < cutoff).map((r) => r.id);
    if (ids.length === 0) return 0;
    const r = await db.deleteFrom(table).where("id", "in", ids).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  return {
    pruneEventsBefore: (cutoff, limit) => pruneOldest("events", cutoff, limit),
    pruneRawItemsBefore: (cutoff, limit) => pruneOldest("raw_items", cutoff, limit),

    async crowdedIssuesAfter(afterEventId, scan, keep) {
      const rows = await db.selectFrom("events").select(["id", "issue_id"]).where("id", ">", afterEventId).orderBy("id").limit(scan).execute();
      const lastEventId = rows.length > 0 ? rows[rows.length - 1]!.id : afterEventId;
      const seen = [...new Set(rows.map((r) => r.issue_id).filter((id): id is number => id !== null))];
      if (seen.length === 0) return { issueIds: [], lastEventId };
      const crowded = await db.selectFrom("issues").select("id").where("id", "in", seen).where("times_seen", ">", keep).orderBy("id").execute();
      return { issueIds: crowded.map((r) => r.id), lastEventId };
    },

    async pruneIssueOverflow(issueId, keep, limit) {
      // The keep-th newest event: everything older goes, but the first. Both reads walk the (issue_id, id) index.
      const boundary = await db.selectFrom("events").select("id").where("issue_id", "=", issueId).orderBy("id", "desc").offset(keep - 1).limit(1).executeTakeFirst();
      if (!boundary) return 0;
      const first = await db.selectFrom("events").select("id").where("issue_id", "=", issueId).orderBy("id").limit(1).executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom("events")
        .select("id")
        .where("issue_id", "=", issueId)
        .where("id", "<", boundary.id)
        .where("id", ">", first.id)
        .orderBy("id")
        .limit(limit)
        .execute();
      if (rows.length === 0) return 0;
      const r = await db.deleteFrom("events").where("id", "in", rows.map((x) => x.id)).executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    async pruneHourlyCountersBefore(hour, limit) {
      const counts = await sql`delete from issue_counts where (issue_id, hour) in (select issue_id, hour from issue_counts where hour < ${hour} limit ${limit})`.execute(db);
      const left = limit - Number(counts.numAffectedRows ?? 0);
      if (left <= 0) return limit;
      const outcomes = await sql`delete from outcomes where (project_id, hour, category, outcome, reason) in
        (select project_id, hour, category, outcome, reason from outcomes where hour < ${hour} limit ${left})`.execute(db);
      return limit - left + Number(outcomes.numAffectedRows ?? 0);
    },

    async pruneIssuesBefore(cutoff, limit) {
      // last_seen is the SDK's event timestamp, which may be weeks older than the event's arrival: an issue goes only
      // when it has no event received since the cutoff either. The DELETE repeats both conditions, so an issue a
      // concurrent digest revived after the SELECT stays.
      const expired = (eb: ExpressionBuilder<Database, "issues">) =>
        eb.and([
          eb("issues.last_seen", "<", cutoff),
          eb.not(eb.exists(eb.selectFrom("events").select(sql.lit(1).as("one")).whereRef("events.issue_id", "=", "issues.id").where("events.received_at", ">=", cutoff))),
        ]);
      const rows = await db.selectFrom("issues").select("id").where(expired).orderBy("id").limit(limit).execute();
      if (rows.length === 0) return 0;
      const r = await db.deleteFrom("issues").where("id", "in", rows.map((x) => x.id)).where(expired).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
