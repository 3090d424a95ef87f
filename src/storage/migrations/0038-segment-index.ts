// Segment spans (transactions) are the only spans read by project and transaction (a transaction's recent segments,
// metric alerts' durations); child spans, most of the rows (the bench's transactions carry 20 to 30 each), are read by
// trace only (spans_trace_idx). So the index by project and transaction lists segments alone, a partial index: storing
// a child span updates one index less, and the index holds a fraction of the rows. The reads' `is_segment = ?` matches
// the condition on both engines: SQLite plans such a statement again for the value bound, and PostgreSQL's unnamed
// statements (node-postgres's) are planned with their values.
// On PostgreSQL the index is made on the partitioned table, so every day partition, present and future, has it.
import { sql, type Kysely } from "kysely";
import type { Dialect } from "../db";

export function segmentIndex(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`drop index spans_project_segment_idx`.execute(db);
      const segment = dialect === "postgres" ? sql`is_segment = true` : sql`is_segment = 1`;
      await sql`create index spans_segment_idx on spans (project_id, "transaction", start_time) where ${segment}`.execute(db);
    },
  };
}
