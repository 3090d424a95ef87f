// When each chunk of an attachment blob was written (issue 19), for retention's sweep of blobs that no attachment row
// names (digest/blob-sweep.ts): those older than ATTACHMENT_LIMITS.blobSweepGraceMs go.
// - attachment_chunks.created_at (PostgreSQL): timestamptz, the writing transaction's time by default. Chunks stored
//   before this migration get the migration's time (PostgreSQL fills the column once, with now() of the ALTER), so a
//   blob orphaned before it is swept one grace period after the upgrade.
// - SQLite keeps its blobs as files (storage/attachment-files.ts), dated by their modification time: its
//   attachment_chunks table is never written, and gets no column.
import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

export function attachmentChunkTimes(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== "postgres") return;
      await db.schema
        .alterTable("attachment_chunks")
        .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  };
}
