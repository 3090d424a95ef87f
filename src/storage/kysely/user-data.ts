// A person's data (storage/user-data-ports.ts) for SQLite and PostgreSQL: event_users written in the digest's
// transaction, one row per event (migration 0039), searched by value (each part has an index of its own), and erasures that delete a project's matching
// events with what they were counted in, in one transaction.
import type { ExpressionBuilder, Kysely, SelectQueryBuilder, Selectable, Transaction } from "kysely";
import type { UserFeedbackTable } from "../feedback-schema";
import { decodeEventDataOr } from "../event-codec";
import type { Dialect } from "../db";
import type { Database } from "../schema";
import {
  type ErasureCounts,
  type EventUserRow,
  type PersonFeedback,
  USER_FIELDS,
  type UserDataStore,
  type UserDataTx,
  type UserField,
  derivedUserKey,
} from "../user-data-ports";
import { chunks } from "./batch-rows";
import type { Ctx } from "./shared";
import { type RowShape, insertRows } from "./row-inserts";
import type { AttachmentBlobs } from "../attachment-ports";
import { deleteAttachmentsOfEvents } from "./attachments";
import { forgetEventRows } from "./retention-projects";

/** The event_users column of each user field (migration 0039). */
const COLUMN = { id: "user_id", email: "email", username: "username", ip: "ip" } as const satisfies Record<UserField, string>;

// user_key is kept only when the parts do not give it (derivedUserKey). On PostgreSQL the rows are partitioned with
// their events, by the event's arrival (migration 0029).
const EVENT_USER_ROWS: RowShape<EventUserRow> = {
  table: "event_users",
  columns: ["event_row_id", "project_id", "issue_id", "user_id", "email", "username", "ip", "user_key", "received_at"],
  values: (r, dialect) => {
    const values = [
      r.eventRowId,
      r.projectId,
      r.issueId,
      r.parts.id ?? null,
      r.parts.email ?? null,
      r.parts.username ?? null,
      r.parts.ip ?? null,
      r.userKey === derivedUserKey(r.parts) ? null : r.userKey,
    ];
    return dialect === "postgres" ? [...values, r.receivedAt] : values;
  },
  suffix: { sqlite: "on conflict (event_row_id) do nothing", postgres: "on conflict (event_row_id, received_at) do nothing" },
};
const EVENT_USER_ROWS_SQLITE: RowShape<EventUserRow> = { ...EVENT_USER_ROWS, columns: EVENT_USER_ROWS.columns.slice(0, -1) };

export function userDataTx(trx: Transaction<Database>, dialect: Dialect): UserDataTx {
  return {
    async insertEventUsers(rows) {
      await insertRows(trx, dialect, dialect === "postgres" ? EVENT_USER_ROWS : EVENT_USER_ROWS_SQLITE, rows);
    },
  };
}

/** The condition "the user has `value` in one of `fields`", each field read through its own index. */
const hasValue = (fields: readonly UserField[], value: string) => (eb: ExpressionBuilder<Database, "event_users">) =>
  eb.or(fields.map((f) => eb(`event_users.${COLUMN[f]}`, "=", value)));

/** The fields of a row that hold `value`. */
const fieldsHolding = (row: Record<(typeof COLUMN)[UserField], string | null>, fields: readonly UserField[], value: string): UserField[] =>
  fields.filter((f) => row[COLUMN[f]] === value);

type FeedbackQuery = SelectQueryBuilder<Database, "user_feedback", Selectable<UserFeedbackTable>>;

/** Event ids of the project whose user has the value in one of the fields, at most `limit`. */
async function matchingIds(db: Kysely<Database>, projectId: number, fields: readonly UserField[], value: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("event_users")
    .innerJoin("events as e", "e.id", "event_users.event_row_id")
    .select("e.event_id")
    .where("event_users.project_id", "=", projectId)
    .where(hasValue(fields, value))
    .limit(limit)
    .execute();
  return rows.map((r) => r.event_id);
}

/**
 * Whether another stored event of the issue counted the user `userKey`: its user_key is that key, or it kept none and
 * its first part present gives it ("email:…" is the key of a user with an e-mail address and no id).
 */
async function stillCounted(trx: Transaction<Database>, issueId: number, userKey: string): Promise<boolean> {
  const colon = userKey.indexOf(":");
  const field = USER_FIELDS.find((f) => f === userKey.slice(0, colon));
  const value = userKey.slice(colon + 1);
  const found = await trx
    .selectFrom("event_users")
    .select("event_row_id")
    .where("issue_id", "=", issueId)
    .where((eb) => {
      const kept = eb("user_key", "=", userKey);
      if (!field) return kept;
      const before = USER_FIELDS.slice(0, USER_FIELDS.indexOf(field));
      return eb.or([kept, eb.and([eb(COLUMN[field], "=", value), eb("user_key", "is", null), ...before.map((f) => eb(COLUMN[f], "is", null))])]);
    })
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/** `blobKeys` gathers the blobs of the attachments deleted, removed once the transaction has committed. */
async function erase(
  trx: Transaction<Database>,
  dialect: Dialect,
  projectId: number,
  eventIds: string[],
  facts: Parameters<UserDataStore["eraseUserEvents"]>[3],
  blobKeys: string[],
): Promise<ErasureCounts> {
  const counts: ErasureCounts = { events: 0, attachments: 0, tagValues: 0, users: 0, feedback: 0 };
  const tags = new Map<string, { issueId: number; key: string; value: string; n: number }>();
  const users = new Map<string, { issueId: number; userKey: string }>();
  for (const part of chunks(eventIds)) {
    const rows = await trx.selectFrom("events").select(["id", "issue_id", "data"]).where("project_id", "=", projectId).where("event_id", "in", part).execute();
    for (const r of rows) {
      if (r.issue_id === null) continue;
      // Damaged data holds no facts to take back, and the row is erased all the same.
      const f = facts(decodeEventDataOr(r.data, "{}").json);
      for (const [key, value] of f.tags) {
        const k = `${r.issue_id}\u0000${key}\u0000${value}`;
        const seen = tags.get(k);
        if (seen) seen.n += 1;
        else tags.set(k, { issueId: r.issue_id, key, value, n: 1 });
      }
      if (f.userKey) users.set(`${r.issue_id}\u0000${f.userKey}`, { issueId: r.issue_id, userKey: f.userKey });
    }
    if (rows.length > 0)
      counts.events += Number(
        (
          await trx
            .deleteFrom("events")
            .where(
              "id",
              "in",
              rows.map((r) => r.id),
            )
            .executeTakeFirst()
        ).numDeletedRows,
      );
    // Attachments (issue 19, event_attachments) and, from before 0030, attachment items kept in raw_items.
    const attachments = await trx.deleteFrom("raw_items").where("project_id", "=", projectId).where("event_id", "in", part).executeTakeFirst();
    counts.attachments += Number(attachments.numDeletedRows);
    const keys = await deleteAttachmentsOfEvents(trx, projectId, part);
    counts.attachments += keys.length;
    blobKeys.push(...keys);
    await forgetEventRows(
      trx,
      dialect,
      rows.map((r) => r.id),
    );
    // Feedback the person sent (their feedback events) or about their events (issue 19).
    const feedback = await trx
      .deleteFrom("user_feedback")
      .where("project_id", "=", projectId)
      .where((eb) => eb.or([eb("feedback_event_id", "in", part), eb("associated_event_id", "in", part)]))
      .executeTakeFirst();
    counts.feedback += Number(feedback.numDeletedRows);
  }
  for (const t of tags.values()) {
    const where = { issue_id: t.issueId, key: t.key, value: t.value };
    await trx
      .updateTable("issue_tags")
      .set((eb) => ({ times_seen: eb("times_seen", "-", t.n) }))
      .where("issue_id", "=", where.issue_id)
      .where("key", "=", where.key)
      .where("value", "=", where.value)
      .execute();
    const gone = await trx
      .deleteFrom("issue_tags")
      .where("issue_id", "=", where.issue_id)
      .where("key", "=", where.key)
      .where("value", "=", where.value)
      .where("times_seen", "<=", 0)
      .executeTakeFirst();
    counts.tagValues += Number(gone.numDeletedRows);
  }
  for (const u of users.values()) {
    // Another stored event of the issue that counted the same user keeps the user counted.
    if (await stillCounted(trx, u.issueId, u.userKey)) continue;
    const gone = await trx.deleteFrom("issue_users").where("issue_id", "=", u.issueId).where("user_key", "=", u.userKey).executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) continue;
    counts.users += 1;
    await trx
      .updateTable("issues")
      .set((eb) => ({ user_count: eb("user_count", "-", 1) }))
      .where("id", "=", u.issueId)
      .where("user_count", ">", 0)
      .execute();
  }
  return counts;
}

export function userDataStore({ db, dialect }: Ctx, blobs: AttachmentBlobs): UserDataStore {
  return {
    async findUserEvents(projectIds, fields, value, limit) {
      if ((projectIds !== "all" && projectIds.length === 0) || fields.length === 0) return [];
      let q = db
        .selectFrom("event_users")
        .innerJoin("events as e", "e.id", "event_users.event_row_id")
        .select(["e.project_id", "e.event_id", "e.issue_id", "e.type", "e.received_at", "e.timestamp", "e.title"])
        .select(["event_users.user_id", "event_users.email", "event_users.username", "event_users.ip"])
        .where(hasValue(fields, value))
        .orderBy("e.received_at", "desc")
        .orderBy("e.id", "desc")
        .limit(limit);
      if (projectIds !== "all") q = q.where("event_users.project_id", "in", projectIds);
      const rows = await q.execute();
      return rows.map((r) => ({
        projectId: r.project_id,
        eventId: r.event_id,
        issueId: r.issue_id,
        type: r.type,
        receivedAt: r.received_at,
        timestamp: r.timestamp,
        title: r.title,
        fields: fieldsHolding(r, fields, value),
      }));
    },

    async eventDataOf(projectId, eventIds) {
      const out = new Map<string, string>();
      for (const part of chunks(eventIds)) {
        const rows = await db.selectFrom("events").select(["event_id", "data"]).where("project_id", "=", projectId).where("event_id", "in", part).execute();
        // Damaged data exports as null: the match is listed, its payload is not there to give.
        for (const r of rows) out.set(r.event_id, decodeEventDataOr(r.data, "null").json);
      }
      return out;
    },

    async feedbackOf(projectId, eventIds, email, limit) {
      const byId = new Map<number, PersonFeedback>();
      const take = async (where: (q: FeedbackQuery) => FeedbackQuery) => {
        const rows = await where(db.selectFrom("user_feedback").selectAll().where("project_id", "=", projectId))
          .orderBy("id")
          .limit(limit)
          .execute();
        for (const r of rows) {
          byId.set(r.id, {
            id: r.id,
            source: r.source,
            feedbackEventId: r.feedback_event_id,
            associatedEventId: r.associated_event_id,
            message: r.message,
            name: r.name,
            email: r.email,
            url: r.url,
            details: r.details,
            status: r.status,
            receivedAt: r.received_at,
          });
        }
      };
      for (const part of chunks(eventIds))
        await take((q) => q.where((eb) => eb.or([eb("feedback_event_id", "in", part), eb("associated_event_id", "in", part)])));
      if (email !== null) await take((q) => q.where("email", "=", email));
      return [...byId.values()].sort((x, y) => x.id - y.id).slice(0, limit);
    },

    async eraseUserEvents(projectId, fields, value, facts, limit) {
      const blobKeys: string[] = [];
      const counts = await db.transaction().execute(async (trx) => {
        const ids = await matchingIds(trx, projectId, fields, value, limit);
        const counts =
          ids.length === 0 ? { events: 0, attachments: 0, tagValues: 0, users: 0, feedback: 0 } : await erase(trx, dialect, projectId, ids, facts, blobKeys);
        // User reports name no user object: the contact address they were sent with is what finds them.
        if (fields.includes("email"))
          counts.feedback += Number(
            (await trx.deleteFrom("user_feedback").where("project_id", "=", projectId).where("email", "=", value).executeTakeFirst()).numDeletedRows,
          );
        return counts;
      });
      await blobs.remove(blobKeys);
      return counts;
    },
  };
}
