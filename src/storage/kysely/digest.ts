// The digest's store: its saved spool positions, and one transaction per batch (digest-tx.ts holds the operations).
import type { DigestStore } from "../digest-ports";
import { digestTx } from "./digest-tx";
import type { Ctx } from "./shared";

export function digestStore({ db, dialect }: Ctx): DigestStore {
  return {
    async getSpoolPosition(spoolId) {
      const r = await db.selectFrom("spool_cursors").select("position").where("spool_id", "=", spoolId).executeTakeFirst();
      return r ? Number(r.position) : 0;
    },
    digestTransaction(work) {
      return db.transaction().execute((trx) => work(digestTx(trx, dialect)));
    },
  };
}
