// Retention's bounded deletes (storage/retention-ports.ts) for SQLite and PostgreSQL. Rows to delete are chosen by a
// short indexed read, then deleted by primary key; row-value IN (…) works the same in both dialects.
import { type ExpressionBuilder, sql } from "kysely";
import type { Database } from "../schema";
import type { RetentionStore } from "../retention-ports";
import type { Ctx } from "./shared";
import { forgetEventRows, pruneProjectEvents } from "./retention-projects";
import { pruneDefaultEventRows, pruneDefaultPartition } from "./partitions";

/** The instance setting (instance_settings.key) that keeps the per-issue cap's cursor (RetentionStore.overflowCursor). */
const OVERFLOW_CURSOR_SETTING = "retention.overflow_cursor";

/** Everything of retention but the uploaded artifacts, whose prune is in artifacts.ts. */
export function retentionStore({ db, dialect }: Ctx): Omit<RetentionStore, "pruneArtifactsBefore"> {
  /**
   * Of the `limit` lowest ids of an append-only table, deletes those received before `cutoff`. On PostgreSQL whole
   * days go by dropping their partition (kysely/partitions.ts): only rows of the DEFAULT partition are deleted here.
   */
  async function pruneOldest(table: "events" | "raw_items", cutoff: string, limit: number): Promise<number> {
    if (dialect === "postgres") {
      const gone = await pruneDefaultPartition(db, table, cutoff, limit);
      if (table === "events") {
        await forgetEventRows(
          db,
          dialect,
          gone.map((r) => Number(r.id)),
        );
        // Rows named by events (their users, their trace links) left in a DEFAULT partition without their event.
        if (gone.length < limit) for (const named of ["event_users", "trace_events"] as const) await pruneDefaultEventRows(db, named, cutoff, limit);
      }
      return gone.length;
    }
    const rows = await db.selectFrom(table).select(["id", "received_at"]).orderBy("id").limit(limit).execute();
    const old = rows.filter((r) => r.received_at < cutoff);
    if (old.length === 0) return 0;
    const r = await db
      .deleteFrom(table)
      .where(
        "id",
        "in",
        old.map((x) => x.id),
      )
      .executeTakeFirst();
    // An event's user row goes with it (foreign key, migration 0039).
    return Number(r.numDeletedRows);
  }

  /** Deletes up to `limit` rows whose `column` is below `bound` (read from the low end of its index), by primary key. */
  async function deleteBelow(table: keyof Database, key: string[], column: string, bound: string, limit: number): Promise<number> {
    const keys = sql.join(key.map((k) => sql.ref(k)));
    const r =
      await sql`delete from ${sql.table(table)} where (${keys}) in (select ${keys} from ${sql.table(table)} where ${sql.ref(column)} < ${bound} limit ${limit})`.execute(
        db,
      );
    return Number(r.numAffectedRows ?? 0);
  }

  /** Runs deletes in turn within one budget of `limit` rows: each gets what the ones before it left. */
  async function inTurn(limit: number, deletes: ((left: number) => Promise<number>)[]): Promise<number> {
    let left = limit;
    for (const run of deletes) {
      if (left <= 0) break;
      left -= await run(left);
    }
    return limit - left;
  }

  return {
    pruneEventsBefore: (cutoff, limit) => pruneOldest("events", cutoff, limit),
    pruneProjectEvents: (now, instanceDays, limit) => pruneProjectEvents(db, dialect, now, instanceDays, limit),
    pruneRawItemsBefore: (cutoff, limit) => pruneOldest("raw_items", cutoff, limit),

    async pruneFeedbackBefore(cutoff, limit) {
      const rows = await db.selectFrom("user_feedback").select(["id", "received_at"]).orderBy("id").limit(limit).execute();
      const old = rows.filter((r) => r.received_at < cutoff).map((r) => r.id);
      if (old.length === 0) return 0;
      return Number((await db.deleteFrom("user_feedback").where("id", "in", old).executeTakeFirst()).numDeletedRows);
    },

    async crowdedIssuesAfter(afterEventId, scan, keep) {
      const rows = await db.selectFrom("events").select(["id", "issue_id"]).where("id", ">", afterEventId).orderBy("id").limit(scan).execute();
      const lastEventId = rows.length > 0 ? rows[rows.length - 1]!.id : afterEventId;
      const seen = [...new Set(rows.map((r) => r.issue_id).filter((id): id is number => id !== null))];
      if (seen.length === 0) return { issueIds: [], lastEventId };
      const crowded = await db.selectFrom("issues").select("id").where("id", "in", seen).where("times_seen", ">", keep).orderBy("id").execute();
      return { issueIds: crowded.map((r) => r.id), lastEventId };
    },

    async overflowCursor() {
      const row = await db.selectFrom("instance_settings").select("value").where("key", "=", OVERFLOW_CURSOR_SETTING).executeTakeFirst();
      const id = Number(row?.value ?? 0);
      return Number.isSafeInteger(id) && id > 0 ? id : 0;
    },

    async saveOverflowCursor(eventId) {
      await db
        .insertInto("instance_settings")
        .values({ key: OVERFLOW_CURSOR_SETTING, value: String(eventId), created_at: new Date().toISOString() })
        // Never back: a node whose pass outlasted its claim may save an older place than the next node did.
        .onConflict((oc) =>
          oc
            .column("key")
            .doUpdateSet({ value: String(eventId) })
            .where(sql<number>`cast(instance_settings.value as bigint)`, "<", eventId),
        )
        .execute();
    },

    async pruneIssueOverflow(issueId, keep, limit) {
      // The keep-th newest event: everything older goes, but the first. Both reads walk the (issue_id, id) index.
      const boundary = await db
        .selectFrom("events")
        .select("id")
        .where("issue_id", "=", issueId)
        .orderBy("id", "desc")
        .offset(keep - 1)
        .limit(1)
        .executeTakeFirst();
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
      return Number(r.numDeletedRows);
    },

    pruneHourlyCountersBefore: (hour, limit) =>
      inTurn(limit, [
        (left) => deleteBelow("issue_counts", ["issue_id", "hour"], "hour", hour, left),
        (left) => deleteBelow("outcomes", ["project_id", "hour", "category", "outcome", "reason"], "hour", hour, left),
      ]),

    pruneReleaseHealthBefore: (cutoff, hour, limit) =>
      inTurn(limit, [
        (left) => deleteBelow("release_session_counts", ["project_id", "release", "environment", "hour"], "hour", hour, left),
        (left) => deleteBelow("release_session_users", ["project_id", "release", "environment", "distinct_id"], "last_seen", cutoff, left),
      ]),

    async pruneIssuesBefore(cutoff, limit) {
      // last_seen is the SDK's event timestamp, which may be weeks older than the event's arrival: an issue goes only
      // when it has no event received since the cutoff either. The DELETE repeats both conditions, so an issue a
      // concurrent digest revived after the SELECT stays.
      const expired = (eb: ExpressionBuilder<Database, "issues">) =>
        eb.and([
          eb("issues.last_seen", "<", cutoff),
          eb.not(
            eb.exists(
              eb.selectFrom("events").select(sql.lit(1).as("one")).whereRef("events.issue_id", "=", "issues.id").where("events.received_at", ">=", cutoff),
            ),
          ),
        ]);
      const rows = await db.selectFrom("issues").select("id").where(expired).orderBy("id").limit(limit).execute();
      if (rows.length === 0) return 0;
      const r = await db
        .deleteFrom("issues")
        .where(
          "id",
          "in",
          rows.map((x) => x.id),
        )
        .where(expired)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
