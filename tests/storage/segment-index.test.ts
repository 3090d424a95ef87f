// Migration 0038 (spans_segment_idx): segment spans alone are indexed by project and transaction, on SQLite and
// PostgreSQL, and the reads of segments (recentSegments, the metric alerts' durations) plan with that index.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { CompiledQuery, sql } from "kysely";
import { type OpenDbOptions, openDb } from "../../src/storage/db";
import { migrateToLatest } from "../../src/storage/migrate";
import { freshPgDatabase } from "../helpers/pg";

const dialects: Record<string, () => Promise<{ options: OpenDbOptions; drop: () => Promise<void> }>> = {
  sqlite: async () => ({ options: { dialect: "sqlite", file: ":memory:" }, drop: async () => {} }),
  postgres: async () => {
    const db = await freshPgDatabase(`segment_index_${randomBytes(4).toString("hex")}`);
    return { options: { dialect: "postgres", url: db.url }, drop: db.drop };
  },
};

for (const [dialect, fresh] of Object.entries(dialects)) {
  describe(`the index of segments on ${dialect}`, () => {
    test("0038-segment-index: segments alone are indexed by project and transaction, and the segment reads use that index", async () => {
      const f = await fresh();
      const db = openDb(f.options);
      try {
        await migrateToLatest(db);
        const definitions =
          db.dialect === "postgres"
            ? (await sql<{ def: string }>`select indexdef as def from pg_indexes where tablename = 'spans'`.execute(db.kysely)).rows
            : (await sql<{ def: string }>`select sql as def from sqlite_master where type = 'index' and tbl_name = 'spans'`.execute(db.kysely)).rows;
        const segment = definitions.map((d) => d.def).filter((d) => /spans_segment_idx/.test(d));
        assert.equal(segment.length, 1);
        assert.match(segment[0]!, /\(project_id, "?transaction"?, start_time\) WHERE /i);
        assert.ok(!definitions.some((d) => /spans_project_segment_idx/.test(d.def)), "the index of every span is gone");
        if (db.dialect === "sqlite") {
          // The statement of recentSegments and of the metric alerts' segments, as the store compiles them.
          const plan = async (compiled: { sql: string; parameters: readonly unknown[] }) =>
            (await db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]))).rows
              .map((r) => r.detail)
              .join("; ");
          // SQLite matches a bound is_segment against the index's condition (it plans again for the value bound).
          const spans = db.kysely.selectFrom("spans").selectAll().where("is_segment", "=", 1);
          assert.match(
            await plan(spans.where("project_id", "=", 1).where("transaction", "=", "GET /").orderBy("start_time", "desc").limit(5).compile()),
            /spans_segment_idx/,
          );
          assert.match(await plan(spans.where("project_id", "in", [1, 2]).where("start_time", ">=", "2026-01-01").compile()), /spans_segment_idx/);
        }
      } finally {
        await db.close();
        await f.drop();
      }
    });
  });
}
