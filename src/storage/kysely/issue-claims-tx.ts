// What keeps several digests (several Faultline nodes on one PostgreSQL) from deciding the same thing twice, inside
// the batch's transaction (part of DigestTx, kysely/digest-tx.ts). A new hash is locked before its issue is created:
// the second transaction to see it waits for the first to commit, then finds the first's issue (READ COMMITTED reads
// what committed before each statement). Issue states are read again once the batch's updates hold their rows, so a
// regression or the end of an ignore is decided on the state no other transaction can change before this one commits.
// SQLite has one writer at a time: there the locks are no-ops.
import { type Transaction, sql } from "kysely";
import type { Dialect } from "../db";
import type { IssueClaimTx, IssueState } from "../digest-ports";
import type { Database } from "../schema";
import { chunks } from "./batch-rows";
import { ISSUE_COLUMNS, toIssue } from "./issue-rows";

/** The first key of the new-hash advisory locks (the second is a hash of project and hash): "FLIH", issue hashes. */
const ISSUE_HASH_LOCK = 0x464c4948;

export function issueClaimTx(trx: Transaction<Database>, dialect: Dialect): IssueClaimTx {
  return {
    async lockHashes(hashes) {
      if (dialect !== "postgres" || hashes.length === 0) return;
      const keys = [...new Set(hashes.map((h) => `${h.projectId}:${h.hash}`))];
      // All of a batch's keys in one ascending order, so two batches never wait on each other in a cycle. Two hashes
      // that share a 32-bit key only wait for each other once.
      await sql`select pg_advisory_xact_lock(${ISSUE_HASH_LOCK}, k) from (select distinct hashtext(x) as k from unnest(${keys}::text[]) as x order by k) as ordered`.execute(
        trx,
      );
    },

    async issueStates(ids) {
      const out = new Map<number, IssueState>();
      for (const part of chunks([...new Set(ids)])) {
        const rows = await trx
          .selectFrom("issues")
          .select([...ISSUE_COLUMNS])
          .where("id", "in", part)
          .execute();
        for (const r of rows) out.set(r.id, toIssue(r));
      }
      return out;
    },
  };
}
