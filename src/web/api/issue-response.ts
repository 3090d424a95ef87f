// What the issue routes share: the permalink an issue is served with, issues with their counts and assignees, and
// one issue with its activity (Sentry's issue details).
import type { CoreContext } from "../../core/context";
import { usersById } from "../../core/issue-activity";
import type { IssueView } from "../../core/issues";
import { dailyBuckets, dailyStatsSince, dayBuckets, issueFrequency, statsSince } from "../../core/issue-stats";
import type { Issue, IssueActivityEntry } from "../../storage/issue-ports";
import type { Project } from "../../storage/ports";
import type { ApiContext } from "./handler";
import { type IssueStats, serializeIssue } from "./issue-serializers";
import { type Assignee, serializeActivity, teamAssignee, userAssignee } from "./triage-serializers";

type Urls = Pick<ApiContext<unknown>, "publicUrl" | "basePath">;

/** The issue's page in the dashboard. */
export const issuePermalink = (ctx: Urls, orgSlug: string, issueId: number) => `${ctx.publicUrl}${ctx.basePath}/en/orgs/${orgSlug}/issues/${issueId}`;

async function assigneesOf(core: CoreContext, project: Project, issues: Issue[]): Promise<Map<number, Assignee>> {
  const users = await usersById(
    core,
    issues.map((i) => i.assigneeId),
  );
  const teamIds = [...new Set(issues.map((i) => i.assigneeTeamId).filter((id): id is number => id !== null))];
  const teams = new Map(
    (await Promise.all(teamIds.map((id) => core.store.getTeamById(project.organizationId, id)))).flatMap((t) => (t ? [[t.id, t] as const] : [])),
  );
  const out = new Map<number, Assignee>();
  for (const i of issues) {
    const user = i.assigneeId ? users.get(i.assigneeId) : undefined;
    const team = i.assigneeTeamId !== null ? teams.get(i.assigneeTeamId) : undefined;
    if (user) out.set(i.id, userAssignee(user));
    else if (team) out.set(i.id, teamAssignee(team));
  }
  return out;
}

/** Sentry's `statsPeriod` of the issue list: "24h" (the default) hourly, "14d" daily, "" none. */
const LIST_PERIODS: Record<string, { days: number } | { hours: 24 } | null> = { "24h": { hours: 24 }, "14d": { days: 14 }, "": null };

/** Own keys only, so that "constructor" is not a period. */
export const isListStatsPeriod = (p: string) => Object.hasOwn(LIST_PERIODS, p);

/** A page of a project's issues in the list shape, with the stats of `statsPeriod`. */
export async function issueListResponse(core: CoreContext, project: Project, orgSlug: string, issues: Issue[], statsPeriod: string, ctx: Urls) {
  const ids = issues.map((i) => i.id);
  const period = isListStatsPeriod(statsPeriod) ? LIST_PERIODS[statsPeriod]! : null;
  const stats = new Map<number, IssueStats>(ids.map((id) => [id, {}]));
  if (period && "hours" in period) {
    const counts = await core.store.issueCountsOf(ids, statsSince());
    for (const id of ids) stats.set(id, { [statsPeriod]: dayBuckets(counts.get(id) ?? []) });
  } else if (period) {
    const counts = await core.store.issueDailyCountsOf(ids, dailyStatsSince(period.days));
    for (const id of ids) stats.set(id, { [statsPeriod]: dailyBuckets(counts.get(id) ?? [], period.days) });
  }
  const assignees = await assigneesOf(core, project, issues);
  return issues.map((i) => serializeIssue(i, project, stats.get(i.id) ?? {}, issuePermalink(ctx, orgSlug, i.id), assignees.get(i.id) ?? null));
}

export async function serializeActivities(core: CoreContext, entries: IssueActivityEntry[]) {
  const users = await usersById(
    core,
    entries.map((a) => a.userId),
  );
  return entries.map((a) => serializeActivity(a, users));
}

/** One issue as Sentry's issue details: the last 24 hours and 30 days of events, and its activity, newest first. */
export async function issueResponse(core: CoreContext, view: IssueView, ctx: Urls) {
  const [stats, activity] = await Promise.all([issueFrequency(core.store, view), core.store.issueActivity(view.issue.id)]);
  const assignee = (await assigneesOf(core, view.project, [view.issue])).get(view.issue.id) ?? null;
  const permalink = issuePermalink(ctx, view.orgSlug, view.issue.id);
  return { ...serializeIssue(view.issue, view.project, stats, permalink, assignee), activity: await serializeActivities(core, activity.reverse()) };
}
