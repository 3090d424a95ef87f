// Reading logs (storage/log-ports.ts): newest first per project through (project_id, timestamp, id) or, for one
// level, (project_id, level, timestamp, id); a trace's lines through trace_id. Words and `key:value` pairs go through
// the dialect's full-text index (migration 0031):
// - PostgreSQL: `search @@ tsquery` of exactly the terms (prefix matches for words), the planner choosing between the
//   GIN index and the timestamp index by its statistics.
// - SQLite: the FTS5 index is asked for the newest LOG_LIMITS.searchCandidateRows matching lines of the project (by
//   arrival, which FTS5 reads backwards cheaply, stopping at the limit) and the page is those rows ordered by
//   timestamp, exact as long as an arrival bound holds (sqliteSearch); else more, up to
//   LOG_LIMITS.searchCandidateMaxRows, and in the end the timestamp index walked line by line.
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { LOG_LIMITS } from "../../config/limits";
import { pairToken, projectToken } from "../../core/log-terms";
import type { Dialect } from "../db";
import type { LogCursor, LogFilter, LogLevel, StoredLog } from "../log-ports";
import type { Database } from "../schema";

type Row = Database["logs"] & { id: number | string };
type Query = SelectQueryBuilder<Database, "logs", Row>;

const toLog = (r: Row): StoredLog => ({
  id: Number(r.id),
  projectId: r.project_id,
  timestamp: r.timestamp,
  receivedAt: r.received_at,
  level: r.level as LogLevel,
  severityNumber: Number(r.severity_number),
  body: r.body,
  attributes: JSON.parse(r.attributes) as StoredLog["attributes"],
  traceId: r.trace_id,
  spanId: r.span_id,
  release: r.release,
  environment: r.environment,
  meta: r.meta ? (JSON.parse(r.meta) as StoredLog["meta"]) : null,
});

const hasSearch = (f: LogFilter) => (f.words?.length ?? 0) > 0 || (f.pairs?.length ?? 0) > 0;

/** FTS5's query: each word as a prefix in the body column, the project's and each pair's token in the attrs column. */
function ftsQuery(f: LogFilter): string {
  const terms = [`attrs : "${projectToken(f.projectId)}"`];
  for (const w of f.words ?? []) terms.push(`body : "${w.replaceAll('"', '""')}" *`);
  for (const p of f.pairs ?? []) terms.push(`attrs : "${pairToken(p.key, p.value)}"`);
  return terms.join(" AND ");
}

/** PostgreSQL's tsquery, written as lexemes (not parsed as text): words as prefixes, pairs as their `=` tokens. */
function tsQuery(f: LogFilter): string {
  const quote = (s: string) => `'${s.replaceAll("'", "''").replaceAll("\\", "\\\\")}'`;
  return [...(f.words ?? []).map((w) => `${quote(w)}:*`), ...(f.pairs ?? []).map((p) => quote(`=${pairToken(p.key, p.value)}`))].join(" & ");
}

/**
 * The filters every read shares, but the search. On SQLite, which has no statistics to choose by, a column written
 * `+column` is kept from choosing the index: several levels are read through the timestamp index; a trace through
 * trace_id (a few lines, sorted); candidate ids (`byId`) by their primary key, with every filter checked per row.
 */
function narrow(q: Query, f: LogFilter, dialect: Dialect, byId = false): Query {
  const lite = dialect === "sqlite";
  const col = (name: string, plain: boolean) => (lite && plain ? sql.raw(`+${name}`) : sql.ref(name));
  q = q.where(sql<boolean>`${col("project_id", byId || !!f.traceId)} = ${f.projectId}`);
  const levels = f.levels ?? [];
  if (levels.length === 1) q = q.where(sql<boolean>`${col("level", byId)} = ${levels[0]!}`);
  else if (levels.length > 1) q = q.where(sql<boolean>`${col("level", true)} in (${sql.join(levels)})`);
  if (f.from) q = q.where(sql<boolean>`${col("timestamp", byId)} >= ${f.from}`);
  if (f.to) q = q.where(sql<boolean>`${col("timestamp", byId)} < ${f.to}`);
  if (f.traceId) q = q.where(sql<boolean>`${col("trace_id", byId)} = ${f.traceId}`);
  return q;
}

/** The search, line by line: PostgreSQL's @@, or FTS5 asked about this row. */
function perRowSearch(q: Query, f: LogFilter, dialect: Dialect): Query {
  if (!hasSearch(f)) return q;
  if (dialect === "postgres") return q.where(sql<boolean>`search @@ ${tsQuery(f)}::tsquery`);
  return q.where(sql<boolean>`exists (select 1 from logs_fts where logs_fts match ${ftsQuery(f)} and logs_fts.rowid = logs.id)`);
}

const newestFirst = (q: Query, before: LogCursor | null): Query => {
  if (before) q = q.where("timestamp", "<=", before.timestamp).where((eb) => eb.or([eb("timestamp", "<", before.timestamp), eb("id", "<", before.id)]));
  return q.orderBy("timestamp", "desc").orderBy("id", "desc");
};

/** Rows of these ids with the filters, newest first by timestamp: the page among the candidates. */
async function pageOf(db: Kysely<Database>, dialect: Dialect, f: LogFilter, ids: number[], limit: number, before: LogCursor | null): Promise<StoredLog[]> {
  const base = db.selectFrom("logs").selectAll() as unknown as Query;
  const rows = await newestFirst(narrow(base, f, dialect, true).where(sql<boolean>`id in (select value from json_each(${JSON.stringify(ids)}))`), before)
    .limit(limit)
    .execute();
  return rows.map(toLog);
}

/**
 * SQLite's search: the newest matches by arrival from FTS5, then their page by timestamp. Exact: every match not read
 * arrived before the oldest one read, and a line's timestamp is never later than its arrival plus
 * LOG_LIMITS.maxSecondsInFuture (digest/logs.ts clamps it), so once the page's last line is newer than that bound, no
 * unread match can enter the page. Otherwise more are read (sized by how short the page fell), and past
 * LOG_LIMITS.searchCandidateMaxRows the timestamp index is walked, asking FTS5 about each line.
 */
async function sqliteSearch(db: Kysely<Database>, f: LogFilter, limit: number, before: LogCursor | null): Promise<StoredLog[] | null> {
  const match = ftsQuery(f);
  // A level, or a page further down, keeps only some of the candidates: start ten times wider (each step re-reads the
  // index, and a word's prefix costs its terms' merge every time, so one wide step beats two narrow ones).
  const narrowed = (f.levels?.length ?? 0) > 0 || before !== null;
  for (let k = LOG_LIMITS.searchCandidateRows * (narrowed ? 10 : 1); ; ) {
    const found = await sql<{ id: number }>`select rowid as id from logs_fts where logs_fts match ${match} order by rowid desc limit ${k + 1}`.execute(db);
    const ids = found.rows.map((r) => Number(r.id));
    if (ids.length === 0) return [];
    const page = await pageOf(db, "sqlite", f, ids.slice(0, k), limit, before);
    if (ids.length <= k) return page;
    const oldest = ids[k - 1]!;
    const arrived = await db.selectFrom("logs").select("received_at").where("id", "=", oldest).executeTakeFirst();
    // A second of slack: requests accepted together may be stored in either order.
    const bound = arrived ? new Date(Date.parse(arrived.received_at) + LOG_LIMITS.maxSecondsInFuture * 1000 + 1000).toISOString() : null;
    const last = page[limit - 1];
    if (bound !== null && last && last.timestamp > bound) return page;
    if (k >= LOG_LIMITS.searchCandidateMaxRows) return null;
    // A short page (a level or the cursor kept few of the candidates) tells how many more it takes: twice its
    // shortfall, two to ten times as many; a full page that is not yet exact (lines late by more than the bound), ten.
    const grow = page.length < limit ? Math.min(10, Math.max(2, (2 * limit) / Math.max(page.length, 1))) : 10;
    k = Math.min(LOG_LIMITS.searchCandidateMaxRows, Math.ceil(k * grow));
  }
}

export async function listLogs(db: Kysely<Database>, dialect: Dialect, f: LogFilter, limit: number, before: LogCursor | null): Promise<StoredLog[]> {
  if (dialect === "sqlite" && hasSearch(f)) {
    const page = await sqliteSearch(db, f, limit, before);
    if (page) return page;
  }
  const base = db.selectFrom("logs").selectAll() as unknown as Query;
  const rows = await newestFirst(perRowSearch(narrow(base, f, dialect), f, dialect), before)
    .limit(limit)
    .execute();
  return rows.map(toLog);
}

export async function tailLogs(db: Kysely<Database>, dialect: Dialect, f: LogFilter, afterId: number, limit: number): Promise<StoredLog[]> {
  const base = db.selectFrom("logs").selectAll() as unknown as Query;
  const rows = await perRowSearch(narrow(base, f, dialect), f, dialect)
    .where("id", ">", afterId)
    .orderBy("id", "asc")
    .limit(limit)
    .execute();
  return rows.map(toLog);
}

export async function traceLogs(
  db: Kysely<Database>,
  organizationId: number,
  traceId: string,
  limit: number,
): Promise<(StoredLog & { projectSlug: string })[]> {
  const rows = await db
    .selectFrom("logs")
    .innerJoin("projects", "projects.id", "logs.project_id")
    .selectAll("logs")
    .select("projects.slug as project_slug")
    .where("logs.trace_id", "=", traceId)
    .where("projects.organization_id", "=", organizationId)
    .orderBy("logs.timestamp")
    .orderBy("logs.id")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...toLog(r as unknown as Row), projectSlug: r.project_slug }));
}
