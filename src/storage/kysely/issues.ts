// Reading issues (storage/issue-ports.ts) on SQLite and PostgreSQL. Pages of issues are keyset pages on
// (last_seen, id), newest first.
import type { IssueStatus } from "../digest-ports";
import type { Issue, IssueStore } from "../issue-ports";
import type { IssuesTable } from "../schema";
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
  firstSeen: r.first_seen,
  lastSeen: r.last_seen,
  timesSeen: Number(r.times_seen),
  userCount: Number(r.user_count ?? 0),
  firstRelease: r.first_release,
  assigneeId: r.assignee_id,
});

/** A page cursor: the last issue's last_seen and id. */
const CURSOR = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)\|(\d{1,15})$/;

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
    async listIssues(projectId, { status, page }) {
      let q = withUserCount().where("issues.project_id", "=", projectId).orderBy("issues.last_seen", "desc").orderBy("issues.id", "desc").limit(page.limit + 1);
      if (status) q = q.where("issues.status", "=", status);
      const m = CURSOR.exec(decodeCursor(page.cursor) ?? "");
      if (m) {
        const [, lastSeen, id] = m as unknown as [string, string, string];
        q = q.where((eb) => eb.or([eb("issues.last_seen", "<", lastSeen), eb.and([eb("issues.last_seen", "=", lastSeen), eb("issues.id", "<", Number(id))])]));
      }
      return toPage((await q.execute()).map(toIssue), page, (i) => `${i.lastSeen}|${i.id}`);
    },
    async issueCounts(issueId, sinceHour) {
      const rows = await db.selectFrom("issue_counts").select(["hour", "count"]).where("issue_id", "=", issueId).where("hour", ">=", sinceHour).orderBy("hour").execute();
      return rows.map((r) => ({ hour: r.hour, count: Number(r.count) }));
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
