// The digest's per-issue counters that go beyond one upsert (part of DigestTx, kysely/digest-tx.ts): events per
// day next to events per hour, and distinct users with the issue's user_count raised by those seen for the first time.
import { type RawBuilder, type Transaction, sql } from "kysely";
import type { Dialect } from "../db";
import type { IssueCountIncrement } from "../digest-ports";
import type { Database } from "../schema";

/** The UTC day of an hour ("2026-11-23T10:00:00Z" → "2026-11-23"). */
export const dayOf = (hour: string) => hour.slice(0, 10);

type DayCount = { issue_id: number; day: string; count: number };
/** Issue, then day: two batches updating the same rows lock them in one order. */
const byIssueAndDay = (a: DayCount, b: DayCount) => a.issue_id - b.issue_id || (a.day < b.day ? -1 : a.day > b.day ? 1 : 0);

type Chunker = <T>(items: T[]) => T[][];

/** Adds per-issue hourly increments (already summed per hour) to the daily counters. */
export async function countIssueDays(trx: Transaction<Database>, hourly: IssueCountIncrement[], chunks: Chunker): Promise<void> {
  const byDay = new Map<string, DayCount>();
  for (const r of hourly) {
    const key = `${r.issueId}\u0000${dayOf(r.hour)}`;
    const seen = byDay.get(key);
    if (seen) seen.count += r.count;
    else byDay.set(key, { issue_id: r.issueId, day: dayOf(r.hour), count: r.count });
  }
  for (const part of chunks([...byDay.values()].sort(byIssueAndDay))) {
    await trx
      .insertInto("issue_counts_daily")
      .values(part)
      .onConflict((oc) => oc.columns(["issue_id", "day"]).doUpdateSet((eb) => ({ count: eb("issue_counts_daily.count", "+", eb.ref("excluded.count")) })))
      .execute();
  }
}

/**
 * Records users per issue (rows merged per issue and user) and raises issues.user_count by those new to the issue.
 * New users are the rows an insert that skips conflicts returns: on PostgreSQL a concurrent transaction that inserted
 * the same user first makes this one skip it, so no user is counted twice. Known users then widen their last_seen.
 */
export async function sightIssueUsers(
  trx: Transaction<Database>,
  merged: { issueId: number; userKey: string; first: string; last: string }[],
  greatest: (a: RawBuilder<unknown>, b: RawBuilder<unknown>) => RawBuilder<unknown>,
  chunks: Chunker,
  dialect: Dialect,
): Promise<void> {
  const added = new Map<number, number>();
  for (const part of chunks(merged)) {
    const inserted = await trx
      .insertInto("issue_users")
      .values(part.map((r) => ({ issue_id: r.issueId, user_key: r.userKey, first_seen: r.first, last_seen: r.last })))
      .onConflict((oc) => oc.columns(["issue_id", "user_key"]).doNothing())
      .returning(["issue_id", "user_key"])
      .execute();
    const fresh = new Set(inserted.map((r) => `${r.issue_id}\u0000${r.user_key}`));
    for (const r of inserted) added.set(r.issue_id, (added.get(r.issue_id) ?? 0) + 1);
    // Known users: the same rows again, each now a conflict that widens last_seen.
    const known = part.filter((r) => !fresh.has(`${r.issueId}\u0000${r.userKey}`));
    if (known.length === 0) continue;
    await trx
      .insertInto("issue_users")
      .values(known.map((r) => ({ issue_id: r.issueId, user_key: r.userKey, first_seen: r.first, last_seen: r.last })))
      .onConflict((oc) =>
        oc
          .columns(["issue_id", "user_key"])
          .doUpdateSet({ last_seen: greatest(sql.ref("issue_users.last_seen"), sql.ref("excluded.last_seen")) as RawBuilder<string> }),
      )
      .execute();
  }
  if (dialect === "postgres") {
    const rows = [...added].map(([id, users]) => ({ id, events: 0, lastSeen: null, users }));
    await lockIssues(
      trx,
      rows.map((r) => r.id),
    );
    await addToIssues(trx, rows);
    return;
  }
  for (const [issueId, n] of [...added].sort(([a], [b]) => a - b)) {
    await trx
      .updateTable("issues")
      .set((eb) => ({ user_count: eb("user_count", "+", n) }))
      .where("id", "=", issueId)
      .execute();
  }
}

/**
 * PostgreSQL: locks the issues' rows in id order (two batches meet in one order, never in a cycle) until commit, in
 * the mode an UPDATE takes (FOR NO KEY UPDATE): FOR UPDATE would also wait for the key-share locks that another
 * batch's event inserts hold on the same issues (their foreign key checks), and the two would deadlock.
 */
export async function lockIssues(trx: Transaction<Database>, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`select id from issues where id = any(${[...new Set(ids)].sort((a, b) => a - b)}::int[]) order by id for no key update`.execute(trx);
}

/** What addToIssues adds to an issue; a description (title, culprit, level, metadata) replaces the issue's when given. */
export type IssueAddition = {
  id: number;
  events: number;
  lastSeen: string | null;
  users: number;
  title?: string;
  culprit?: string;
  level?: string;
  metadata?: string;
};

/**
 * PostgreSQL: adds events, users, a later last_seen and the newest event's description to many issues in one
 * statement, rather than one UPDATE per issue: one round trip for a batch instead of two per issue it touched, which
 * were half of a batch's time (ten 1,000-event batches over many issues spent 39 of their 79 s on them, measured).
 * One addition per issue; the caller has locked the rows (lockIssues).
 */
export async function addToIssues(trx: Transaction<Database>, rows: IssueAddition[]): Promise<void> {
  if (rows.length === 0) return;
  const v = [...rows].sort((a, b) => a.id - b.id);
  const text = (pick: (r: IssueAddition) => string | null | undefined) => v.map((r) => pick(r) ?? null);
  // greatest() ignores a null: an issue given no last_seen keeps its own; coalesce keeps what is not given.
  await sql`update issues as i set times_seen = i.times_seen + v.n, user_count = i.user_count + v.u, last_seen = greatest(i.last_seen, v.last),
      title = coalesce(v.title, i.title), culprit = coalesce(v.culprit, i.culprit), level = coalesce(v.level, i.level), metadata = coalesce(v.metadata, i.metadata)
    from unnest(${v.map((r) => r.id)}::int[], ${v.map((r) => r.events)}::bigint[], ${text((r) => r.lastSeen)}::text[], ${v.map((r) => r.users)}::bigint[],
      ${text((r) => r.title)}::text[], ${text((r) => r.culprit)}::text[], ${text((r) => r.level)}::text[], ${text((r) => r.metadata)}::text[]) as v(id, n, last, u, title, culprit, level, metadata)
    where i.id = v.id`.execute(trx);
}
