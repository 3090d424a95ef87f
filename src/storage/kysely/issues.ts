// Reading issues (storage/issue-ports.ts) on SQLite and PostgreSQL. Pages of issues are keyset pages on the sort
// column and id, most first; each sort has an index (project_id, [status,] column, id), migration 0007.
import { type Kysely, sql } from "kysely";
import type { IssueStatus } from "../digest-ports";
import type { Issue, IssueActivityEntry, IssuePage, IssueSort, IssueStore } from "../issue-ports";
import type { Database, IssuesTable } from "../schema";
import { toStoredEvent } from "./events";
import { applyIssueFilter, inProjects } from "./issue-filters";
import { type Ctx, decodeCursor, toPage } from "./shared";

type IssueRow = Omit<IssuesTable, "id" | "user_count"> & { id: number; user_count: number | string; num_comments: number | string | bigint | null };

/** One of a key's top values, with the key's totals (issueTags). */
type TagRankRow = {
  key: string;
  value: string;
  times_seen: number | string;
  first_seen: string;
  last_seen: string;
  unique_values: number | string;
  total_values: number | string;
};

/** A row of issue_tags as one value of the tag. */
export const toTagValue = (r: { value: string; times_seen: number | string; first_seen: string; last_seen: string }) => ({
  value: r.value,
  count: Number(r.times_seen),
  firstSeen: r.first_seen,
  lastSeen: r.last_seen,
});

export const parseJson = (text: string | null): Record<string, unknown> => {
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
  userCount: Number(r.user_count),
  firstRelease: r.first_release,
  assigneeId: r.assignee_id,
  assigneeTeamId: r.assignee_team_id,
  numComments: Number(r.num_comments ?? 0),
});

export const toActivity = (r: { id: number; type: string; user_id: string | null; data: string; created_at: string }): IssueActivityEntry => ({
  id: r.id,
  type: r.type,
  userId: r.user_id,
  data: parseJson(r.data),
  createdAt: r.created_at,
});

/** Each sort's column, and the shape of its value in a page cursor ("value|id"). */
const SORTS = {
  date: { column: "issues.last_seen", key: (i: Issue) => i.lastSeen, value: /^\d{4}-\d\d-\d\dT[\d:.]+Z$/ },
  new: { column: "issues.first_seen", key: (i: Issue) => i.firstSeen, value: /^\d{4}-\d\d-\d\dT[\d:.]+Z$/ },
  freq: { column: "issues.times_seen", key: (i: Issue) => String(i.timesSeen), value: /^\d{1,15}$/ },
  user: { column: "issues.user_count", key: (i: Issue) => String(i.userCount), value: /^\d{1,15}$/ },
} as const satisfies Record<IssueSort, unknown>;

/**
 * A page cursor: the last issue's sort value and id (the core checked its shape and id: core/pagination.ts). A
 * cursor of another sort's list starts at the first page.
 */
function cursorOf(cursor: string | null | undefined, sort: IssueSort): [string | number, number] | null {
  const text = decodeCursor(cursor) ?? "";
  const bar = text.lastIndexOf("|");
  const [value, id] = [text.slice(0, bar), text.slice(bar + 1)];
  if (bar < 0 || !SORTS[sort].value.test(value)) return null;
  return [sort === "freq" || sort === "user" ? Number(value) : value, Number(id)];
}

/** The project's newest release (by creation), as Sentry's "latest release" means; null without one. */
export async function latestReleaseOf(db: Kysely<Database>, projectId: number): Promise<string | null> {
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
}

export function issueStore({ db, dialect }: Ctx): IssueStore {
  const selectIssues = () =>
    db
      .selectFrom("issues")
      .selectAll("issues")
      .select((eb) =>
        eb
          .selectFrom("issue_activity")
          .select((e) => e.fn.countAll().as("n"))
          .whereRef("issue_activity.issue_id", "=", "issues.id")
          .where("issue_activity.type", "=", "note")
          .as("num_comments"),
      );
  return {
    async getIssue(issueId) {
      const r = await selectIssues().where("issues.id", "=", issueId).executeTakeFirst();
      return r ? toIssue(r) : null;
    },
    async setIssueStatus(issueId, change) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("issues")
          .set({ status: change.status, substatus: change.substatus, resolution: change.resolution, snooze: change.snooze })
          .where("id", "=", issueId)
          .execute();
        const a = change.activity;
        await trx.insertInto("issue_activity").values({ issue_id: issueId, type: a.type, user_id: a.userId, data: a.data, created_at: a.createdAt }).execute();
      });
    },
    async deleteIssue(issueId) {
      // Events, hashes, counters and activity go with it (foreign keys cascade), and so do the events' user rows and
      // trace links: by foreign key on SQLite; on PostgreSQL, whose partitioned events no key can reference, the
      // trace links are deleted first (the user rows have the issue's key).
      await db.transaction().execute(async (trx) => {
        if (dialect === "postgres")
          await trx
            .deleteFrom("trace_events")
            .where("event_row_id", "in", (eb) => eb.selectFrom("events").select("id").where("issue_id", "=", issueId))
            .execute();
        await trx.deleteFrom("issues").where("id", "=", issueId).execute();
      });
    },
    latestRelease: (projectId) => latestReleaseOf(db, projectId),
    async listIssues(projectIds, { filter, sort = "date", page }) {
      const { column } = SORTS[sort];
      const base = () => applyIssueFilter(inProjects(selectIssues(), projectIds), filter);
      let q = base()
        .orderBy(column, "desc")
        .orderBy("issues.id", "desc")
        .limit(page.limit + 1);
      const after = cursorOf(page.cursor, sort);
      if (after) {
        const [at, id] = after;
        q = q.where((eb) => eb.or([eb(column, "<", at), eb.and([eb(column, "=", at), eb("issues.id", "<", id)])]));
      }
      const out: IssuePage = { ...toPage((await q.execute()).map(toIssue), page, (i) => `${SORTS[sort].key(i)}|${i.id}`), previous: null };
      if (after) {
        // The previous page ends at the cursor's issue: read it and the issues before it, nearest first. One more
        // than a page means an older page still precedes it, whose last issue is the previous page's cursor.
        const [at, id] = after;
        const before = await base()
          .where((eb) => eb.or([eb(column, ">", at), eb.and([eb(column, "=", at), eb("issues.id", ">=", id)])]))
          .orderBy(column, "asc")
          .orderBy("issues.id", "asc")
          .limit(page.limit + 1)
          .execute();
        const older = before.length > page.limit ? toIssue(before[page.limit]!) : null;
        out.previous =
          before.length === 0 ? null : { cursor: older ? Buffer.from(`${SORTS[sort].key(older)}|${older.id}`, "utf8").toString("base64url") : null };
      }
      return out;
    },
    async listIssueEvents(issueId, page) {
      const after = decodeCursor(page.cursor);
      let q = db
        .selectFrom("events")
        .selectAll()
        .where("issue_id", "=", issueId)
        .orderBy("id", "desc")
        .limit(page.limit + 1);
      if (after !== null) q = q.where("id", "<", Number(after));
      return toPage((await q.execute()).map(toStoredEvent), page, (e) => String(e.id));
    },
    async issueEventAt(issueId, end, environments = []) {
      const r = await db
        .selectFrom("events")
        .selectAll()
        .where("issue_id", "=", issueId)
        .$if(environments.length > 0, (q) => q.where("environment", "in", environments))
        .orderBy("id", end === "latest" ? "desc" : "asc")
        .limit(1)
        .executeTakeFirst();
      return r ? toStoredEvent(r) : null;
    },
    async issueEventTimesIn(issueId, environment, since) {
      const rows = await db
        .selectFrom("events")
        .select("timestamp")
        .where("issue_id", "=", issueId)
        .where("environment", "=", environment)
        .where("timestamp", ">=", since)
        .execute();
      return rows.map((r) => r.timestamp);
    },
    async latestIssueEventsIn(issueId, environment, limit) {
      const rows = await db
        .selectFrom("events")
        .selectAll()
        .where("issue_id", "=", issueId)
        .where("environment", "=", environment)
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return rows.map(toStoredEvent);
    },
    async issueCounts(issueId, sinceHour) {
      const rows = await db
        .selectFrom("issue_counts")
        .select(["hour", "count"])
        .where("issue_id", "=", issueId)
        .where("hour", ">=", sinceHour)
        .orderBy("hour")
        .execute();
      return rows.map((r) => ({ hour: r.hour, count: Number(r.count) }));
    },
    async issueDailyCountsOf(issueIds, sinceDay) {
      const out = new Map<number, { day: string; count: number }[]>(issueIds.map((id) => [id, []]));
      if (issueIds.length === 0) return out;
      const rows = await db
        .selectFrom("issue_counts_daily")
        .select(["issue_id", "day", "count"])
        .where("issue_id", "in", issueIds)
        .where("day", ">=", sinceDay)
        .orderBy("day")
        .execute();
      for (const r of rows) out.get(r.issue_id)?.push({ day: r.day, count: Number(r.count) });
      return out;
    },
    async issueCountsOf(issueIds, sinceHour) {
      const out = new Map<number, { hour: string; count: number }[]>(issueIds.map((id) => [id, []]));
      if (issueIds.length === 0) return out;
      const rows = await db
        .selectFrom("issue_counts")
        .select(["issue_id", "hour", "count"])
        .where("issue_id", "in", issueIds)
        .where("hour", ">=", sinceHour)
        .orderBy("hour")
        .execute();
      for (const r of rows) out.get(r.issue_id)?.push({ hour: r.hour, count: Number(r.count) });
      return out;
    },
    async issueTags(issueId, topValues) {
      // Each key's totals and top values, ranked by the database within the issue's rows of the primary key (issue_id,
      // key, value): a tag with many values (user ids, URLs) gives an issue thousands of rows, of which the page shows
      // a handful per key. Reading them all cost the issue page tens of milliseconds at 1M events.
      const { rows } = await sql<TagRankRow>`select key, value, times_seen, first_seen, last_seen, unique_values, total_values from (
          select key, value, times_seen, first_seen, last_seen,
            row_number() over (partition by key order by times_seen desc, value) as rank,
            count(*) over (partition by key) as unique_values,
            sum(times_seen) over (partition by key) as total_values
          from issue_tags where issue_id = ${issueId}
        ) ranked where rank <= ${topValues} order by key, rank`.execute(db);
      const byKey = new Map<string, TagRankRow[]>();
      for (const r of rows) {
        const values = byKey.get(r.key);
        if (values) values.push(r);
        else byKey.set(r.key, [r]);
      }
      return [...byKey].map(([key, values]) => ({
        key,
        totalValues: Number(values[0]!.total_values),
        uniqueValues: Number(values[0]!.unique_values),
        topValues: values.map(toTagValue),
      }));
    },
    async issueTag(issueId, key, topValues) {
      // Both reads stay within the key's rows of the primary key (issue_id, key, value).
      const ofKey = db.selectFrom("issue_tags").where("issue_id", "=", issueId).where("key", "=", key);
      const totals = await ofKey
        .select((eb) => [eb.fn.countAll<number | string>().as("unique_values"), eb.fn.sum<number | string | null>("times_seen").as("total_values")])
        .executeTakeFirst();
      if (!totals || Number(totals.unique_values) === 0) return null;
      const top = await ofKey
        .select(["value", "times_seen", "first_seen", "last_seen"])
        .orderBy("times_seen", "desc")
        .orderBy("value")
        .limit(topValues)
        .execute();
      return { key, totalValues: Number(totals.total_values), uniqueValues: Number(totals.unique_values), topValues: top.map(toTagValue) };
    },
    async issueActivity(issueId) {
      const rows = await db.selectFrom("issue_activity").selectAll().where("issue_id", "=", issueId).orderBy("id").execute();
      return rows.map(toActivity);
    },
  };
}
