// Reading issues (storage/issue-ports.ts) on SQLite and PostgreSQL. Pages of issues are keyset pages on
// (last_seen, id), newest first.
import type { IssueStatus } from "../digest-ports";
import type { Issue, IssueStore } from "../issue-ports";
import type { IssuesTable } from "../schema";
import { sql } from "kysely";
import { toStoredEvent } from "./events";
import { type Ctx, decodeCursor, toPage } from "./shared";

type IssueRow = Omit<IssuesTable, "id"> & { id: number; user_count?: number | string | bigint | null };

const parseJson = (text: string | null): Record<string, unknown> => {
  try {
    const v = text ? (JSON.parse(text) as unknown) : {};
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const toIssue = (r: IssueRow): Issue => ({
  id: r.id,
  projectId: r.project_id,
  shortId: r.short_id,
  type: r.type,
  title: r.title,
  culprit: r.culprit,
  level: r.level,
  platform: r.platform,
  metadata: parseJson(r.metadata),
  status: r.status as IssueStatus,
  substatus: r.substatus,
  resolution: r.resolution,
  snooze: r.snooze,
  firstSeen: r.first_seen,
  lastSeen: r.last_seen,
  timesSeen: Number(r.times_seen),
  userCount: Number(r.user_count ?? 0),
  firstRelease: r.first_release,
  assigneeId: r.assignee_id,
});

/** A page cursor: the last issue's sort time (last_seen or first_seen) and id. */
const CURSOR = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)\|(\d{1,15})$/;

/** LIKE patterns take the text literally: % and _ are escaped. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function issueStore({ db }: Ctx): IssueStore {
  const withUserCount = () =>
    db
      .selectFrom("issues")
      .selectAll("issues")
      .select((eb) => eb.selectFrom("issue_users").select((e) => e.fn.countAll().as("n")).whereRef("issue_users.issue_id", "=", "issues.id").as("user_count"));
  return {
    async getIssue(issueId) {
      const r = await withUserCount().where("issues.id", "=", issueId).executeTakeFirst();
      return r ? toIssue(r) : null;
    },
    async setIssueStatus(issueId, change) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable("issues").set({ status: change.status, substatus: change.substatus, resolution: change.resolution, snooze: change.snooze }).where("id", "=", issueId).execute();
        const a = change.activity;
        await trx.insertInto("issue_activity").values({ issue_id: issueId, type: a.type, user_id: a.userId, data: a.data, created_at: a.createdAt }).execute();
      });
    },
    async deleteIssue(issueId) {
      // Events, hashes, counters and activity go with it (foreign keys cascade).
      await db.deleteFrom("issues").where("id", "=", issueId).execute();
    },
    async latestRelease(projectId) {
      const r = await db
        .selectFrom("release_projects")
        .innerJoin("releases", "releases.id", "release_projects.release_id")
        .select("releases.version")
        .where("release_projects.project_id", "=", projectId)
        .orderBy("releases.created_at", "desc")
        .orderBy("releases.id", "desc")
        .limit(1)
        .executeTakeFirst();
      return r?.version ?? null;
    },
    async listIssues(projectId, { filter, sort = "date", page }) {
      const column = sort === "new" ? "issues.first_seen" : "issues.last_seen";
      let q = withUserCount().where("issues.project_id", "=", projectId).orderBy(column, "desc").orderBy("issues.id", "desc").limit(page.limit + 1);
      if (filter?.status) q = q.where("issues.status", "=", filter.status);
      if (filter?.level) q = q.where("issues.level", "=", filter.level);
      for (const [key, value] of filter?.tags ?? []) {
        q = q.where((eb) =>
          eb.exists(eb.selectFrom("issue_tags").select("issue_tags.issue_id").whereRef("issue_tags.issue_id", "=", "issues.id").where("issue_tags.key", "=", key).where("issue_tags.value", "=", value)),
        );
      }
      for (const text of filter?.text ?? []) {
        const pattern = likeText(text.toLowerCase());
        q = q.where((eb) => eb.or([eb(eb.fn("lower", ["issues.title"]), "like", sql<string>`${pattern} escape '\\'`), eb(eb.fn("lower", ["issues.culprit"]), "like", sql<string>`${pattern} escape '\\'`)]));
      }
      const m = CURSOR.exec(decodeCursor(page.cursor) ?? "");
      if (m) {
        const [, at, id] = m as unknown as [string, string, string];
        q = q.where((eb) => eb.or([eb(column, "<", at), eb.and([eb(column, "=", at), eb("issues.id", "<", Number(id))])]));
      }
      return toPage((await q.execute()).map(toIssue), page, (i) => `${sort === "new" ? i.firstSeen : i.lastSeen}|${i.id}`);
    },
    async listIssueEvents(issueId, page) {
      const after = decodeCursor(page.cursor);
      let q = db.selectFrom("events").selectAll().where("issue_id", "=", issueId).orderBy("id", "desc").limit(page.limit + 1);
      if (after !== null && /^\d{1,15}$/.test(after)) q = q.where("id", "<", Number(after));
      return toPage((await q.execute()).map(toStoredEvent), page, (e) => String(e.id));
    },
    async issueEventAt(issueId, end) {
      const r = await db.selectFrom("events").selectAll().where("issue_id", "=", issueId).orderBy("id", end === "latest" ? "desc" : "asc").limit(1).executeTakeFirst();
      return r ? toStoredEvent(r) : null;
    },
    async issueCounts(issueId, sinceHour) {
      const rows = await db.selectFrom("issue_counts").select(["hour", "count"]).where("issue_id", "=", issueId).where("hour", ">=", sinceHour).orderBy("hour").execute();
      return rows.map((r) => ({ hour: r.hour, count: Number(r.count) }));
    },
    async issueCountsOf(issueIds, sinceHour) {
      const out = new Map<number, { hour: string; count: number }[]>(issueIds.map((id) => [id, []]));
      if (issueIds.length === 0) return out;
      const rows = await db.selectFrom("issue_counts").select(["issue_id", "hour", "count"]).where("issue_id", "in", issueIds).where("hour", ">=", sinceHour).orderBy("hour").execute();
      for (const r of rows) out.get(r.issue_id)?.push({ hour: r.hour, count: Number(r.count) });
      return out;
    },
    async issueTags(issueId, topValues) {
      const rows = await db.selectFrom("issue_tags").selectAll().where("issue_id", "=", issueId).orderBy("key").orderBy("times_seen", "desc").orderBy("value").execute();
      const byKey = new Map<string, typeof rows>();
      for (const r of rows) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
      return [...byKey].map(([key, values]) => ({
        key,
        totalValues: values.reduce((n, v) => n + Number(v.times_seen), 0),
        uniqueValues: values.length,
        topValues: values.slice(0, topValues).map((v) => ({ value: v.value, count: Number(v.times_seen), firstSeen: v.first_seen, lastSeen: v.last_seen })),
      }));
    },
    async issueActivity(issueId) {
      const rows = await db.selectFrom("issue_activity").selectAll().where("issue_id", "=", issueId).orderBy("id").execute();
      return rows.map((r) => ({ id: r.id, type: r.type, userId: r.user_id, data: parseJson(r.data), createdAt: r.created_at }));
    },
  };
}
