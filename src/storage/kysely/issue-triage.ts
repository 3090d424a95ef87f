// Triage of issues (storage/triage-ports.ts) on SQLite and PostgreSQL: assignment, comments as activity entries,
// one tag's values (pages by offset: counts change as events arrive, so no key of a value row is stable), and
// the events next to one event of an issue (by arrival, as the issue's event list).
import type { IssueTriageStore } from "../triage-ports";
import { toStoredEvent } from "./events";
import { toActivity, toTagValue } from "./issues";
import { type Ctx, decodeCursor, toPage } from "./shared";
import { workflowTx } from "./workflow-notices";

export function issueTriageStore({ db, dialect }: Ctx): IssueTriageStore {
  return {
    async setIssueAssignee(issueId, assignee, a, notice) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable("issues").set({ assignee_id: assignee.userId, assignee_team_id: assignee.teamId }).where("id", "=", issueId).execute();
        const row = await trx
          .insertInto("issue_activity")
          .values({ issue_id: issueId, type: a.type, user_id: a.userId, data: a.data, created_at: a.createdAt })
          .returning("id")
          .executeTakeFirstOrThrow();
        if (notice) await workflowTx(trx, dialect).enqueueWorkflowNotices([{ ...notice, issueId, key: String(row.id), createdAt: a.createdAt }]);
      });
    },
    async addIssueActivity(issueId, a, notice) {
      const row = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto("issue_activity")
          .values({ issue_id: issueId, type: a.type, user_id: a.userId, data: a.data, created_at: a.createdAt })
          .returningAll()
          .executeTakeFirstOrThrow();
        if (notice) await workflowTx(trx, dialect).enqueueWorkflowNotices([{ ...notice, issueId, key: String(inserted.id), createdAt: a.createdAt }]);
        return inserted;
      });
      return toActivity(row);
    },
    async getIssueActivity(issueId, activityId) {
      const r = await db.selectFrom("issue_activity").selectAll().where("issue_id", "=", issueId).where("id", "=", activityId).executeTakeFirst();
      return r ? toActivity(r) : null;
    },
    async listIssueActivity(issueId, type, page) {
      const after = decodeCursor(page.cursor);
      let q = db
        .selectFrom("issue_activity")
        .selectAll()
        .where("issue_id", "=", issueId)
        .where("type", "=", type)
        .orderBy("id", "desc")
        .limit(page.limit + 1);
      if (after !== null) q = q.where("id", "<", Number(after));
      return toPage((await q.execute()).map(toActivity), page, (a) => String(a.id));
    },
    async updateIssueActivityData(issueId, activityId, data) {
      await db.updateTable("issue_activity").set({ data }).where("issue_id", "=", issueId).where("id", "=", activityId).execute();
    },
    async deleteIssueActivity(issueId, activityId) {
      await db.deleteFrom("issue_activity").where("issue_id", "=", issueId).where("id", "=", activityId).execute();
    },
    async issueTagValues(issueId, key, page) {
      const cursor = decodeCursor(page.cursor);
      const offset = cursor !== null ? Number(cursor) : 0;
      const rows = await db
        .selectFrom("issue_tags")
        .select(["value", "times_seen", "first_seen", "last_seen"])
        .where("issue_id", "=", issueId)
        .where("key", "=", key)
        .orderBy("times_seen", "desc")
        .orderBy("value")
        .offset(offset)
        .limit(page.limit + 1)
        .execute();
      return toPage(rows.map(toTagValue), page, () => String(offset + page.limit));
    },
    async issueEventById(issueId, eventId) {
      const r = await db.selectFrom("events").selectAll().where("issue_id", "=", issueId).where("event_id", "=", eventId).executeTakeFirst();
      return r ? toStoredEvent(r) : null;
    },
    async issueEventNeighbours(issueId, eventRowId, environments = []) {
      const events = () =>
        db
          .selectFrom("events")
          .select("event_id")
          .where("issue_id", "=", issueId)
          .$if(environments.length > 0, (q) => q.where("environment", "in", environments));
      const [next, previous] = await Promise.all([
        events().where("id", ">", eventRowId).orderBy("id", "asc").limit(1).executeTakeFirst(),
        events().where("id", "<", eventRowId).orderBy("id", "desc").limit(1).executeTakeFirst(),
      ]);
      return { next: next?.event_id ?? null, previous: previous?.event_id ?? null };
    },
  };
}
