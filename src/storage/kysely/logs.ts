// Structured logs (storage/log-ports.ts) for SQLite and PostgreSQL. Rows carry their search terms into the dialect's
// index (migration 0031): SQLite's FTS5 table logs_fts by rowid, PostgreSQL's tsvector column. Reads are in
// log-search.ts.
import type { Kysely, Transaction } from "kysely";
import { logTerms, projectToken } from "../../core/log-terms";
import type { Dialect } from "../db";
import type { LogStore, LogTx, NewLog } from "../log-ports";
import type { Database } from "../schema";
import { chunks } from "./batch-rows";
import { type RowShape, insertRows } from "./row-inserts";
import { listLogs, tailLogs, traceLogs } from "./log-search";
import type { Ctx } from "./shared";

/** Rows per INSERT: 13 columns, well under both dialects' bound-parameter limits. */
const ROWS_PER_INSERT = 200;

const LOG_COLUMNS = [
  "project_id",
  "timestamp",
  "received_at",
  "level",
  "severity_number",
  "body",
  "attributes",
  "trace_id",
  "span_id",
  "release",
  "environment",
  "meta",
];
const logValues = (l: NewLog): unknown[] => [
  l.projectId,
  l.timestamp,
  l.receivedAt,
  l.level,
  l.severityNumber,
  l.body,
  JSON.stringify(l.attributes),
  l.traceId,
  l.spanId,
  l.release,
  l.environment,
  l.meta ? JSON.stringify(l.meta) : null,
];

/** PostgreSQL's rows carry their search terms: a tsvector of exactly these lexemes (no text parser: core/log-terms.ts made them); `=`-prefixed tokens cannot meet body words. */
const LOG_ROWS_PG: RowShape<NewLog> = {
  table: "logs",
  columns: [...LOG_COLUMNS, "search"],
  values: (l) => {
    const { words, tokens } = logTerms(l.body, l.attributes);
    return [...logValues(l), [...words, ...tokens.map((t) => `=${t}`)]];
  },
  expressions: { search: (parameter) => `array_to_tsvector(${parameter}::text[])` },
  rowsPerStatement: ROWS_PER_INSERT,
};
/** SQLite's rows, their ids returned for the search terms' rows of logs_fts. */
const LOG_ROWS_SQLITE: RowShape<NewLog> = {
  table: "logs",
  columns: LOG_COLUMNS,
  values: logValues,
  suffix: { sqlite: "returning id" },
  rowsPerStatement: ROWS_PER_INSERT,
};
const LOG_TERM_ROWS: RowShape<{ id: number; words: string[]; tokens: string[]; projectId: number }> = {
  table: "logs_fts",
  columns: ["rowid", "body", "attrs"],
  values: (t) => [t.id, t.words.join(" "), [projectToken(t.projectId), ...t.tokens].join(" ")],
  rowsPerStatement: ROWS_PER_INSERT,
};

export async function insertLogRows(db: Kysely<Database> | Transaction<Database>, dialect: Dialect, rows: NewLog[]): Promise<void> {
  if (dialect === "postgres") return void (await insertRows(db, dialect, LOG_ROWS_PG, rows));
  for (const part of chunks(rows, ROWS_PER_INSERT)) {
    const ids = await insertRows<NewLog, { id: number }>(db, dialect, LOG_ROWS_SQLITE, part);
    // A loop, not a callback made per batch (batch-rows.ts sumBy says why).
    const terms = [];
    for (let i = 0; i < part.length; i++) {
      const l = part[i]!;
      terms.push({ id: Number(ids[i]!.id), ...logTerms(l.body, l.attributes), projectId: l.projectId });
    }
    await insertRows(db, dialect, LOG_TERM_ROWS, terms);
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
