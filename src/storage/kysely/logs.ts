// Structured logs (storage/log-ports.ts) for SQLite and PostgreSQL. Rows carry their search terms into the dialect's
// index (migration 0031): SQLite's FTS5 table logs_fts by rowid, PostgreSQL's tsvector column. Reads are in
// log-search.ts.
import { type Kysely, type Transaction, sql } from "kysely";
import { logTerms, projectToken } from "../../core/log-terms";
import type { Dialect } from "../db";
import type { LogStore, LogTx, NewLog } from "../log-ports";
import type { Database } from "../schema";
import { chunks } from "./batch-rows";
import { listLogs, tailLogs, traceLogs } from "./log-search";
import type { Ctx } from "./shared";

/** Rows per INSERT: 13 columns, well under both dialects' bound-parameter limits. */
const ROWS_PER_INSERT = 200;

const columns = (l: NewLog) => ({
  project_id: l.projectId,
  timestamp: l.timestamp,
  received_at: l.receivedAt,
  level: l.level,
  severity_number: l.severityNumber,
  body: l.body,
  attributes: JSON.stringify(l.attributes),
  trace_id: l.traceId,
  span_id: l.spanId,
  release: l.release,
  environment: l.environment,
  meta: l.meta ? JSON.stringify(l.meta) : null,
});

/** A tsvector of exactly these lexemes (no text parser: core/log-terms.ts made them); `=`-prefixed tokens cannot meet body words. */
const tsvectorOf = (l: NewLog) => {
  const { words, tokens } = logTerms(l.body, l.attributes);
  return sql`array_to_tsvector(${[...words, ...tokens.map((t) => `=${t}`)]}::text[])`;
};

export async function insertLogRows(db: Kysely<Database> | Transaction<Database>, dialect: Dialect, rows: NewLog[]): Promise<void> {
  for (const part of chunks(rows, ROWS_PER_INSERT)) {
    if (dialect === "postgres") {
      await db
        .insertInto("logs")
        .values(part.map((l) => ({ ...columns(l), search: tsvectorOf(l) }) as never))
        .execute();
      continue;
    }
    const ids = await db.insertInto("logs").values(part.map(columns)).returning("id").execute();
    const terms = part.map((l, i) => {
      const { words, tokens } = logTerms(l.body, l.attributes);
      return sql`(${Number(ids[i]!.id)}, ${words.join(" ")}, ${[projectToken(l.projectId), ...tokens].join(" ")})`;
    });
    await sql`insert into logs_fts (rowid, body, attrs) values ${sql.join(terms)}`.execute(db);
  }
}

export function logTx(trx: Transaction<Database>, dialect: Dialect): LogTx {
  return { insertLogs: (rows) => insertLogRows(trx, dialect, rows) };
}

export function logStore({ db, dialect }: Ctx): LogStore {
  return {
    listLogs: (filter, limit, before) => listLogs(db, dialect, filter, limit, before ?? null),
    tailLogs: (filter, afterId, limit) => tailLogs(db, dialect, filter, afterId, limit),
    traceLogs: (organizationId, traceId, limit) => traceLogs(db, organizationId, traceId, limit),

    async lastLogId() {
      // Any project's: the tail reads this project's lines after it. The primary key's end, one index probe.
      const row = await db
        .selectFrom("logs")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirst();
      return Number(row?.id ?? 0);
    },

    async pruneLogsBefore(cutoff, now, instanceDays, limit) {
      // The lowest ids arrived first: those received before the cutoff go, without reading the table further.
      const rows = await db.selectFrom("logs").select(["id", "received_at"]).orderBy("id").limit(limit).execute();
      const old = rows.filter((r) => r.received_at < cutoff).map((r) => r.id);
      let deleted = old.length > 0 ? Number((await db.deleteFrom("logs").where("id", "in", old).executeTakeFirst()).numDeletedRows) : 0;
      // Projects with a retention of their own shorter than the instance's, through (project_id, timestamp).
      const projects = await db
        .selectFrom("projects")
        .select(["id", "retention_days"])
        .where("retention_days", "is not", null)
        .where("retention_days", "<", instanceDays)
        .orderBy("id")
        .execute();
      for (const p of projects) {
        if (deleted >= limit) break;
        const own = new Date(Date.parse(now) - Number(p.retention_days) * 86_400_000).toISOString();
        const ids = await db
          .selectFrom("logs")
          .select("id")
          .where("project_id", "=", p.id)
          .where("timestamp", "<", own)
          .orderBy("timestamp")
          .limit(limit - deleted)
          .execute();
        if (ids.length > 0)
          deleted += Number(
            (
              await db
                .deleteFrom("logs")
                .where(
                  "id",
                  "in",
                  ids.map((r) => r.id),
                )
                .executeTakeFirst()
            ).numDeletedRows,
          );
      }
      return deleted;
    },
  };
}
