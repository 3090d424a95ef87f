// The digest's operations inside one transaction (storage/digest-ports.ts DigestTx), for SQLite and PostgreSQL.
// Counters are upserts that add; first/last-seen columns widen with the dialect's two-argument min and max.
import { type RawBuilder, type Transaction, sql } from "kysely";
import { DIGEST_LIMITS, RETENTION_LIMITS } from "../../config/limits";
import { hourOf } from "../../core/hours";
import type { Dialect } from "../db";
import type { DigestTx, IssueState, IssueUpdate, NewGroupedEvent } from "../digest-ports";
import { encodeEventData } from "../event-codec";
import type { Database } from "../schema";
import { alertTx } from "./alert-tx";
import { addToIssues, countIssueDays, lockIssues, sightIssueUsers } from "./issue-counters-tx";
import { deadLetterTx } from "./dead-letters";
import { notificationOutbox } from "./notification-outbox";
import { workflowTx } from "./workflow-notices";
import { sessionTx } from "./digest-sessions";
import { spanTx } from "./span-tx";
import { userDataTx } from "./user-data";
import { issueClaimTx } from "./issue-claims-tx";
import { monitorTx } from "./monitor-tx";
import { feedbackTx } from "./feedback";
import { attachmentTx } from "./attachments";
import { logTx } from "./logs";
import { sightingTx } from "./digest-sightings-tx";
import { addCount, chunks, scalarMinMax, seenRange, sumBy, widenSeen } from "./batch-rows";
import { ISSUE_COLUMNS, toIssue } from "./issue-rows";
import { nowIso } from "./shared";
import { type RowShape, insertRows } from "./row-inserts";

const EVENT_ROWS: RowShape<NewGroupedEvent> = {
  table: "events",
  columns: [
    "project_id",
    "event_id",
    "type",
    "received_at",
    "timestamp",
    "platform",
    "level",
    "title",
    "message",
    "culprit",
    "release",
    "environment",
    "size",
    "data",
    "issue_id",
  ],
  values: (e) => [
    e.projectId,
    e.eventId,
    e.type,
    e.receivedAt,
    e.timestamp,
    e.platform,
    e.level,
    e.title,
    e.message,
    e.culprit,
    e.release,
    e.environment,
    e.size,
    e.encoded ?? encodeEventData(e.data),
    e.issueId,
  ],
  // On PostgreSQL the day of arrival is part of the key (migration 0029): a batch written again has the same.
  suffix: {
    sqlite: "on conflict (project_id, event_id) do nothing returning id, project_id, event_id",
    postgres: "on conflict (project_id, event_id, received_at) do nothing returning id, project_id, event_id",
  },
};

/** The first key of the event-id advisory locks on PostgreSQL (the second is a hash of project and event id): "FLEV". */
const EVENT_ID_LOCK = 0x464c4556;

// The batch's summing keys, at module level (batch-rows.ts sumBy says why).
const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
const issueHourKey = (r: { issueId: number; hour: string }) => `${r.issueId}\u0000${r.hour}`;
const issueUserKey = (r: { issueId: number; userKey: string }) => `${r.issueId}\u0000${r.userKey}`;

export function digestTx(trx: Transaction<Database>, dialect: Dialect): DigestTx {
  const { greatest } = scalarMinMax(dialect);
  const col = (table: string, name: string) => sql.ref(`${table}.${name}`);

  return {
    ...sessionTx(trx, dialect),
    ...spanTx(trx, dialect),
    ...deadLetterTx(trx),
    ...notificationOutbox(trx),
    ...workflowTx(trx, dialect),
    ...alertTx(trx, dialect),
    ...userDataTx(trx, dialect),
    ...issueClaimTx(trx, dialect),
    ...monitorTx(trx, dialect),
    ...feedbackTx(trx),
    ...attachmentTx({ db: trx, dialect }),
    ...logTx(trx, dialect),
    ...sightingTx(trx, dialect),

    async existingEventIds(projectId, events) {
      const found = new Set<string>();
      if (events.length === 0) return found;
      const eventIds = [...new Set(events.map((e) => e.eventId))];
      let window: [string, string] | null = null;
      if (dialect === "postgres") {
        // Events are partitioned by day of arrival and no constraint can hold an event id unique across days
        // (migration 0029): a copy that another node's digest is storing now is waited for (the lock), then found.
        const keys = eventIds.map((id) => `${projectId}:${id}`);
        await sql`select pg_advisory_xact_lock(${EVENT_ID_LOCK}, k) from (select distinct hashtext(x) as k from unnest(${keys}::text[]) as x order by k) as ordered`.execute(
          trx,
        );
        const arrivals = events.map((e) => Date.parse(e.receivedAt)).filter((t) => !Number.isNaN(t));
        const margin = DIGEST_LIMITS.duplicateWindowHours * 3_600_000;
        if (arrivals.length === events.length)
          window = [new Date(Math.min(...arrivals) - margin).toISOString(), new Date(Math.max(...arrivals) + margin).toISOString()];
      }
      for (const part of chunks(eventIds)) {
        let q = trx.selectFrom("events").select("event_id").where("project_id", "=", projectId).where("event_id", "in", part);
        if (window) q = q.where("received_at", ">=", window[0]).where("received_at", "<=", window[1]);
        for (const r of await q.execute()) found.add(r.event_id);
      }
      return found;
    },

    async issuesByHash(projectId, hashes) {
      const out = new Map<string, IssueState>();
      for (const part of chunks([...new Set(hashes)])) {
        const rows = await trx
          .selectFrom("issue_hashes")
          .innerJoin("issues", "issues.id", "issue_hashes.issue_id")
          .select(["issue_hashes.hash", ...ISSUE_COLUMNS.map((c) => `issues.${c}` as const)])
          .where("issue_hashes.project_id", "=", projectId)
          .where("issue_hashes.hash", "in", part)
          .execute();
        for (const r of rows) out.set(r.hash, toIssue(r));
      }
      return out;
    },

    async createIssue(issue) {
      const counter = await trx
        .updateTable("projects")
        .set((eb) => ({ issue_counter: eb("issue_counter", "+", 1) }))
        .where("id", "=", issue.projectId)
        .returning("issue_counter")
        .executeTakeFirstOrThrow();
      const row = await trx
        .insertInto("issues")
        .values({
          project_id: issue.projectId,
          short_id: counter.issue_counter,
          type: issue.type,
          title: issue.title,
          culprit: issue.culprit,
          level: issue.level,
          platform: issue.platform,
          metadata: issue.metadata,
          status: "unresolved",
          substatus: "new",
          resolution: null,
          snooze: null,
          first_seen: issue.firstSeen,
          last_seen: issue.firstSeen,
          times_seen: 0,
          first_release: issue.firstRelease,
          assignee_id: null,
        })
        .returning(ISSUE_COLUMNS)
        .executeTakeFirstOrThrow();
      return toIssue(row);
    },

    async addHashes(projectId, issueId, hashes, groupingConfig) {
      const rows = [...new Set(hashes)].map((hash) => ({ project_id: projectId, hash, issue_id: issueId, grouping_config: groupingConfig }));
      for (const part of chunks(rows))
        await trx
          .insertInto("issue_hashes")
          .values(part)
          .onConflict((oc) => oc.columns(["project_id", "hash"]).doNothing())
          .execute();
    },

    async insertEvents(events) {
      const stored = await insertRows<NewGroupedEvent, { id: number | string; project_id: number; event_id: string }>(trx, dialect, EVENT_ROWS, events);
      const ids = new Map<string, number>();
      for (const r of stored) ids.set(`${r.project_id}:${r.event_id}`, Number(r.id));
      return ids;
    },

    async insertRawItems(items) {
      for (const part of chunks(items)) {
        await trx
          .insertInto("raw_items")
          .values(
            part.map((i) => ({
              project_id: i.projectId,
              type: i.type,
              event_id: i.eventId,
              received_at: i.receivedAt,
              headers: i.headers,
              payload: i.payload,
            })),
          )
          .execute();
      }
    },

    async updateIssues(updates) {
      let rest = updates;
      if (dialect === "postgres") {
        // Every row locked first, in id order; the usual update (counts, last seen, the newest event's description)
        // of all of them in one statement, changes of status one by one.
        await lockIssues(
          trx,
          updates.map((u) => u.id),
        );
        const counted = (u: IssueUpdate) => u.status === undefined && u.substatus === undefined && u.resolution === undefined && u.snooze === undefined;
        await addToIssues(
          trx,
          updates.filter(counted).map((u) => ({
            id: u.id,
            events: u.newEvents,
            lastSeen: u.lastSeen,
            users: 0,
            title: u.title,
            culprit: u.culprit,
            level: u.level,
            metadata: u.metadata,
          })),
        );
        rest = updates.filter((u) => !counted(u));
      }
      // In id order: two batches updating the same issues lock them in one order.
      for (const u of [...rest].sort(byId)) {
        await trx
          .updateTable("issues")
          .set((eb) => ({
            times_seen: eb("times_seen", "+", u.newEvents),
            last_seen: greatest(col("issues", "last_seen"), sql.val(u.lastSeen)) as RawBuilder<string>,
            ...(u.title !== undefined ? { title: u.title } : {}),
            ...(u.culprit !== undefined ? { culprit: u.culprit } : {}),
            ...(u.level !== undefined ? { level: u.level } : {}),
            ...(u.metadata !== undefined ? { metadata: u.metadata } : {}),
            ...(u.status !== undefined ? { status: u.status } : {}),
            ...(u.substatus !== undefined ? { substatus: u.substatus } : {}),
            ...(u.resolution !== undefined ? { resolution: u.resolution } : {}),
            ...(u.snooze !== undefined ? { snooze: u.snooze } : {}),
          }))
          .where("id", "=", u.id)
          .execute();
      }
    },

    async addActivity(rows) {
      for (const part of chunks(rows)) {
        await trx
          .insertInto("issue_activity")
          .values(part.map((a) => ({ issue_id: a.issueId, type: a.type, user_id: a.userId, data: a.data, created_at: a.createdAt })))
          .execute();
      }
    },

    async countIssueEvents(rows) {
      const summed = sumBy(rows, issueHourKey, addCount);
      for (const part of chunks(summed)) {
        await trx
          .insertInto("issue_counts")
          .values(part.map((r) => ({ issue_id: r.issueId, hour: r.hour, count: r.count })))
          .onConflict((oc) => oc.columns(["issue_id", "hour"]).doUpdateSet((eb) => ({ count: eb("issue_counts.count", "+", eb.ref("excluded.count")) })))
          .execute();
      }
      await countIssueDays(trx, summed, chunks);
    },

    async sightUsers(rows) {
      const merged = sumBy(rows.map(seenRange), issueUserKey, widenSeen);
      await sightIssueUsers(trx, merged, greatest, chunks, dialect);
    },

    async hasEventsSince(issueId, n, since) {
      if (n <= RETENTION_LIMITS.eventsPerIssue) {
        // The issue's newest n events (by arrival), all kept: enough of them when the oldest of those is recent enough.
        const rows = await trx.selectFrom("events").select("timestamp").where("issue_id", "=", issueId).orderBy("id", "desc").limit(n).execute();
        return rows.length >= n && rows.every((r) => r.timestamp >= since);
      }
      // More than an issue keeps: the hourly counts, from the hour `since` falls in (as Sentry sums its time series
      // by bucket, the window may take in up to an hour more).
      const row = await trx
        .selectFrom("issue_counts")
        .select((eb) => eb.fn.sum<number | string | null>("count").as("n"))
        .where("issue_id", "=", issueId)
        .where("hour", ">=", hourOf(since))
        .executeTakeFirst();
      return Number(row?.n ?? 0) >= n;
    },

    async userCount(issueId, since) {
      let q = trx
        .selectFrom("issue_users")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("issue_id", "=", issueId);
      if (since) q = q.where("last_seen", ">=", since);
      return Number((await q.executeTakeFirst())?.n ?? 0);
    },

    async setSpoolPosition(spoolId, position) {
      await trx
        .insertInto("spool_cursors")
        .values({ spool_id: spoolId, position, updated_at: nowIso() })
        .onConflict((oc) => oc.column("spool_id").doUpdateSet({ position, updated_at: nowIso() }))
        .execute();
    },
  };
}
