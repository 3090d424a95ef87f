// Several nodes on one PostgreSQL (README, "Several nodes"). quota_counts: the units each quota window has taken on
// every node, added to by each node's intake a few times a second (ingest/quota-sync.ts) so that a quota holds across
// nodes; a row lives until its window ends (expires_at, epoch milliseconds) and is then pruned. job_claims: a job that
// must run on one node at a time (the retention pass) is claimed by name until a time; another node takes it only
// after that.
import type { Kysely } from "kysely";

export function cluster() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("quota_counts")
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("window_start", "bigint", (c) => c.notNull())
        .addColumn("expires_at", "bigint", (c) => c.notNull())
        .addColumn("count", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("quota_counts_pkey", ["name", "window_start"])
        .execute();
      await db.schema.createIndex("quota_counts_expires_idx").on("quota_counts").column("expires_at").execute();
      await db.schema
        .createTable("job_claims")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("claimed_until", "text", (c) => c.notNull())
        .addColumn("claimed_by", "text", (c) => c.notNull())
        .execute();
    },
  };
}
