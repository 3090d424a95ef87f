// The dashboard's issue stream: an organization's issues across its projects (or one project's), searched, sorted
// and paged, with each row's sparkline counts; the live poll behind its updates; and what its search suggests.
import { STREAM_LIMITS } from "../config/limits";
import type { IssueFilter, IssuePage, IssueSort } from "../storage/issue-ports";
import type { PageRequest, Project } from "../storage/ports";
import type { IssueFigures } from "../storage/stream-ports";
import { type OrgAccess, requireOrg, requireText } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import { resolveAssigneeTerms } from "./issue-assignees";
import { parseIssueQuery } from "./issue-query";

export type StreamPeriod = "24h" | "14d";
export type StreamQuery = { project: string | null; query: string | null; sort: string | null; environment: string | null };
export type IssueStream = {
  access: OrgAccess;
  /** Every project of the organization (the picker), and the one the stream is narrowed to, if any. */
  projects: Project[];
  selected: Project | null;
  page: IssuePage;
  /** Events per bucket for each listed issue, oldest first: 24 hours or 14 days. */
  series: Map<number, number[]>;
  /** The highest issue id when the page was read: the live stream announces issues above it. */
  newestId: number;
  /** No issue at all in the stream's projects (not merely none matching the search). */
  empty: boolean;
};

const SORTS: Record<string, IssueSort> = { date: "date", new: "new", freq: "freq", user: "user" };

/** The organization's projects, then the ones a `project` slug narrows the stream to; not found for an unknown slug. */
async function streamProjects(ctx: CoreContext, orgSlug: string, projectSlug: string | null) {
  const access = await requireOrg(ctx, orgSlug, "event:read");
  const projects = (await ctx.store.listProjects({ scope: { organizationIds: [access.org.id] }, page: { limit: STREAM_LIMITS.maxProjects } })).items;
  const selected = projectSlug ? (projects.find((p) => p.slug === requireText(projectSlug, "Project")) ?? null) : null;
  if (projectSlug && !selected) throw notFound("Project");
  return { access, projects, selected, ids: selected ? [selected.id] : projects.map((p) => p.id) };
}

async function streamFilter(ctx: CoreContext, access: OrgAccess, q: { query: string | null; environment: string | null }): Promise<IssueFilter> {
  const { assigned, ...filter } = parseIssueQuery(q.query);
  return { ...filter, assignee: await resolveAssigneeTerms(ctx, access, assigned), environments: q.environment ? [q.environment] : [] };
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Buckets of the last 24 hours or 14 days (this one included), oldest first, for the listed issues: one read. */
export async function issueSeries(ctx: CoreContext, issueIds: number[], period: StreamPeriod, now: Date): Promise<Map<number, number[]>> {
  const hourly = period === "24h";
  const size = hourly ? HOUR_MS : DAY_MS;
  const buckets = hourly ? 24 : 14;
  const end = Math.floor(now.getTime() / size) * size;
  const first = end - (buckets - 1) * size;
  const slot = (iso: string) => Math.round((Date.parse(hourly ? iso : `${iso}T00:00:00Z`) - first) / size);
  const rows: Map<number, { at: string; count: number }[]> = hourly
    ? new Map(
        [...(await ctx.store.issueCountsOf(issueIds, new Date(first).toISOString().replace(".000Z", "Z")))].map(([id, r]) => [
          id,
          r.map((x) => ({ at: x.hour, count: x.count })),
        ]),
      )
    : new Map(
        [...(await ctx.store.issueDailyCountsOf(issueIds, new Date(first).toISOString().slice(0, 10)))].map(([id, r]) => [
          id,
          r.map((x) => ({ at: x.day, count: x.count })),
        ]),
      );
  const out = new Map<number, number[]>();
  for (const id of issueIds) {
    const values = new Array<number>(buckets).fill(0);
    for (const r of rows.get(id) ?? []) {
      const i = slot(r.at);
      if (i >= 0 && i < buckets) values[i]! += r.count;
    }
    out.set(id, values);
  }
  return out;
}

/** The stream's page: the organization's issues (or one project's) matching the search, in the sort's order. */
export async function listOrgIssues(
  ctx: CoreContext,
  orgSlug: string,
  q: StreamQuery & { period: StreamPeriod; page: PageRequest },
  now = new Date(),
): Promise<IssueStream> {
  const { access, projects, selected, ids } = await streamProjects(ctx, orgSlug, q.project);
  const sort = SORTS[q.sort || "date"];
  if (!sort) throw new AppError("bad_request", `Unsupported sort "${q.sort}": use date, new, freq or user`);
  const filter = await streamFilter(ctx, access, q);
  const [page, newestId] = await Promise.all([ctx.store.listIssues(ids, { filter, sort, page: q.page }), ctx.store.newestIssueId(ids)]);
  const series = await issueSeries(
    ctx,
    page.items.map((i) => i.id),
    q.period,
    now,
  );
  return { access, projects, selected, page, series, newestId, empty: newestId === 0 };
}

export type StreamTick = { newIssues: number; newestId: number; watched: IssueFigures[] };

/**
 * One poll of the live stream, for a member of the organization: issues matching the search above `afterId`, and
 * the figures of the watched issues (only those in the stream's projects).
 */
export async function pollIssueStream(ctx: CoreContext, orgSlug: string, q: StreamQuery & { afterId: number; watchIds: number[] }): Promise<StreamTick> {
  const { access, ids } = await streamProjects(ctx, orgSlug, q.project);
  const filter = await streamFilter(ctx, access, q);
  return ctx.store.issueStreamTick(ids, {
    filter,
    afterId: q.afterId,
    watchIds: q.watchIds.slice(0, STREAM_LIMITS.maxWatchedIssues),
    cap: STREAM_LIMITS.newIssuesCap,
  });
}

export type SearchSuggestions = {
  releases: string[];
  environments: string[];
  users: { id: string; email: string; name: string }[];
  teams: { id: number; slug: string }[];
};

/**
 * Values the search bar offers (the organization's releases and environments, its members by e-mail and its teams),
 * which are also whom issues may be assigned to.
 */
export async function issueSearchSuggestions(ctx: CoreContext, orgSlug: string, projectSlug: string | null): Promise<SearchSuggestions> {
  const { access, ids } = await streamProjects(ctx, orgSlug, projectSlug);
  const [values, members, teams] = await Promise.all([
    ctx.store.issueSearchValues(access.org.id, ids, STREAM_LIMITS.suggestionValues),
    ctx.store.listMembers(access.org.id),
    ctx.store.listTeams(access.org.id, { limit: STREAM_LIMITS.suggestionValues }),
  ]);
  return {
    ...values,
    users: members.map((m) => ({ id: m.userId, email: m.email, name: m.name })),
    teams: teams.items.map((t) => ({ id: t.id, slug: t.slug })),
  };
}
