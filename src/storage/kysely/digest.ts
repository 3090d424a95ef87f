// The digest's store: its saved spool positions, and one transaction per batch (digest-tx.ts holds the operations).
// With several nodes on PostgreSQL two batches may still deadlock or fail to serialize: the batch is written again
// at once, a few times (CLUSTER_LIMITS.transactionRetries), as the whole transaction it is.
import { CLUSTER_LIMITS } from "../../config/limits";
import type { DigestStore } from "../digest-ports";
import { digestTx } from "./digest-tx";
import type { Ctx } from "./shared";

/**
 * PostgreSQL's SQLSTATEs for a transaction that failed because of another one, worth running again as it was: a
 * deadlock, a serialization failure, and a foreign key violation (23503), which another node's retention deleting
 * an issue between this batch's read of its hashes and its insert of events causes (run again, the event finds no
 * issue and makes a new one). A foreign key violation of the data itself fails the same way each time, and then
 * goes on as a failure about the data.
 */
const RETRYABLE = new Set(["40P01", "40001", "23503"]);

export const isTransactionConflict = (err: unknown) => typeof err === "object" && err !== null && RETRYABLE.has(String((err as { code?: unknown }).code));

export function digestStore({ db, dialect }: Ctx): DigestStore {
  return {
    async getSpoolPosition(spoolId) {
      const r = await db.selectFrom("spool_cursors").select("position").where("spool_id", "=", spoolId).executeTakeFirst();
      return r ? Number(r.position) : 0;
    },
    async digestTransaction(work) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().execute((trx) => work(digestTx(trx, dialect)));
        } catch (err) {
          if (dialect !== "postgres" || attempt > CLUSTER_LIMITS.transactionRetries || !isTransactionConflict(err)) throw err;
          await new Promise((r) => setTimeout(r, Math.random() * CLUSTER_LIMITS.transactionRetryJitterMs));
        }
      }
    },
  };
}
