// The dead-letter table (storage/dead-letter-ports.ts), for SQLite and PostgreSQL: kept inside the digest's batch
// transaction, read and changed by the diagnostics page.
import type { Kysely, Transaction } from "kysely";
import type { DeadLetter, DeadLetterStore, DeadLetterTx } from "../dead-letter-ports";
import type { Database } from "../schema";
import type { Ctx } from "./shared";

type Db = Kysely<Database> | Transaction<Database>;

export function deadLetterTx(trx: Transaction<Database>): DeadLetterTx {
  return {
    async addDeadLetters(rows, keep) {
      if (rows.length === 0) return;
      for (const r of rows) {
        await trx
          .insertInto("dead_letters")
          .values({
            spool_id: r.spoolId,
            record_id: r.recordId,
            project_id: r.projectId,
            item_type: r.itemType,
            event_id: r.eventId,
            received_at: r.receivedAt,
            record: r.record,
            size: r.record.byteLength,
            error: r.error,
            attempts: r.attempts,
            failed_at: r.failedAt,
          })
          .onConflict((oc) => oc.columns(["spool_id", "record_id"]).doNothing())
          .execute();
      }
      const oldestKept = await trx
        .selectFrom("dead_letters")
        .select("id")
        .orderBy("id", "desc")
        .limit(1)
        .offset(keep - 1)
        .executeTakeFirst();
      if (oldestKept) await trx.deleteFrom("dead_letters").where("id", "<", oldestKept.id).execute();
    },
  };
}

const LISTED = [
  "d.id",
  "d.spool_id",
  "d.record_id",
  "d.project_id",
  "d.item_type",
  "d.event_id",
  "d.received_at",
  "d.size",
  "d.error",
  "d.attempts",
  "d.failed_at",
  "d.retried_at",
  "p.slug as project_slug",
  "p.name as project_name",
  "o.slug as organization_slug",
] as const;

function listed(db: Db) {
  return db
    .selectFrom("dead_letters as d")
    .leftJoin("projects as p", "p.id", "d.project_id")
    .leftJoin("organizations as o", "o.id", "p.organization_id")
    .select(LISTED);
}

type Row = Awaited<ReturnType<ReturnType<typeof listed>["executeTakeFirstOrThrow"]>>;

const toDeadLetter = (r: Row): DeadLetter => ({
  id: r.id,
  spoolId: r.spool_id,
  recordId: Number(r.record_id),
  projectId: r.project_id,
  itemType: r.item_type,
  eventId: r.event_id,
  receivedAt: r.received_at,
  size: r.size,
  error: r.error,
  attempts: r.attempts,
  failedAt: r.failed_at,
  retriedAt: r.retried_at,
  projectSlug: r.project_slug,
  projectName: r.project_name,
  organizationSlug: r.organization_slug,
});

export function deadLetterStore({ db }: Ctx): DeadLetterStore {
  return {
    async listDeadLetters(limit) {
      const rows = await listed(db).orderBy("d.id", "desc").limit(limit).execute();
      const { total } = await db
        .selectFrom("dead_letters")
        .select((eb) => eb.fn.countAll<number | string>().as("total"))
        .executeTakeFirstOrThrow();
      return { items: rows.map(toDeadLetter), total: Number(total) };
    },
    async getDeadLetter(id) {
      const row = await listed(db).select("d.record").where("d.id", "=", id).executeTakeFirst();
      return row ? { letter: toDeadLetter(row), record: new Uint8Array(row.record) } : null;
    },
    async markDeadLetterRetried(id, at) {
      const r = await db.updateTable("dead_letters").set({ retried_at: at }).where("id", "=", id).where("retried_at", "is", null).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async unmarkDeadLetterRetried(id, at) {
      const r = await db.updateTable("dead_letters").set({ retried_at: null }).where("id", "=", id).where("retried_at", "=", at).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async deleteDeadLetter(id) {
      const r = await db.deleteFrom("dead_letters").where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
