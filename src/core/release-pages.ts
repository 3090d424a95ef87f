// The dashboard's release screens: a page of releases with their events and crash-free rates, one release with its
// new issues and sessions over time, and the environments to filter by. Every figure honours one environment (none =
// all); permissions are those of the release API (project:read). A release also lists its uploaded source files.
import { DASHBOARD_LIMITS, UPLOAD_LIMITS } from "../config/limits";
import type { ReleaseIssue } from "../storage/dashboard-ports";
import type { Project } from "../storage/ports";
import type { ArtifactListing } from "../storage/upload-ports";
import { requireOrg, requireText } from "./access";
import type { CoreContext } from "./context";
import { isAppError, notFound } from "./errors";
import { hourOf } from "./hours";
import { pageRequest } from "./pagination";
import { getRelease, listReleases, type ReleaseView } from "./releases";

const DAY_MS = 86_400_000;

/** Crash-free rates in percent (null without sessions), as Sentry computes them: 100 − crashed / total × 100. */
export type HealthSummary = {
  sessions: number;
  sessionsCrashed: number;
  users: number;
  usersCrashed: number;
  crashFreeSessions: number | null;
  crashFreeUsers: number | null;
};
export type ReleaseRow = { view: ReleaseView; projects: Project[]; events: number; health: HealthSummary };
export type ReleaseFilter = { project?: string | null; environment?: string | null };

const percent = (part: number, whole: number) => (whole > 0 ? 100 - (part * 100) / whole : null);
const envs = (environment: string | null | undefined) => (environment ? [requireText(environment, "Environment")] : []);

/** The release's projects as the page shows them: the one of a `?project=` filter, else all of them. */
function projectsOf(view: ReleaseView): Project[] {
  const ids = view.release.projects.map((p) => p.projectId).filter((id) => !view.forProject || id === view.forProject.id);
  return ids.map((id) => view.projects.get(id)).filter((p): p is Project => p !== undefined);
}

/** Session totals summed over the projects (a user of two projects counts in each, as Sentry's per-project health). */
function summarize(view: ReleaseView, projects: Project[]): HealthSummary {
  const sum = { sessions: 0, sessionsCrashed: 0, users: 0, usersCrashed: 0 };
  for (const p of projects) {
    const h = view.health.get(`${p.id}:${view.release.version}`);
    if (!h) continue;
    sum.sessions += h.sessions;
    sum.sessionsCrashed += h.sessionsCrashed;
    sum.users += h.users;
    sum.usersCrashed += h.usersCrashed;
  }
  return { ...sum, crashFreeSessions: percent(sum.sessionsCrashed, sum.sessions), crashFreeUsers: percent(sum.usersCrashed, sum.users) };
}

async function row(ctx: CoreContext, view: ReleaseView, environments: string[]): Promise<ReleaseRow> {
  const projects = projectsOf(view);
  const events = await ctx.store.releaseEventCount(
    projects.map((p) => p.id),
    view.release.version,
    environments.length > 0 ? environments : null,
  );
  return { view, projects, events, health: summarize(view, projects) };
}

/** A page of the organization's releases (or one project's), newest first; an unreadable cursor is not found. */
export async function releasesPage(
  ctx: CoreContext,
  orgSlug: string,
  filter: ReleaseFilter & { cursor?: string | null },
): Promise<{ items: ReleaseRow[]; nextCursor: string | null }> {
  const environments = envs(filter.environment);
  let page;
  try {
    page = pageRequest("time|id", { cursor: filter.cursor, limit: DASHBOARD_LIMITS.releasesPageSize });
  } catch (err) {
    if (isAppError(err)) throw notFound("Page");
    throw err;
  }
  const list = await listReleases(ctx, orgSlug, filter.project || null, { query: null, projectIds: [], health: true, environments, page });
  return { items: await Promise.all(list.items.map((v) => row(ctx, v, environments))), nextCursor: list.nextCursor };
}

export type ReleaseDetail = ReleaseRow & {
  newIssues: ReleaseIssue[];
  /** Sessions and crashed sessions per UTC day, oldest first, zero where none were counted. */
  daily: { days: number[]; sessions: number[]; crashed: number[] };
  /** The source files uploaded for the release (artifact bundles and legacy release files), by URL. */
  artifacts: ArtifactListing[];
};

export async function releaseDetail(ctx: CoreContext, orgSlug: string, version: string, filter: ReleaseFilter): Promise<ReleaseDetail> {
  const environments = envs(filter.environment);
  const view = await getRelease(ctx, orgSlug, filter.project || null, version, { health: true, environments });
  const base = await row(ctx, view, environments);
  const ids = base.projects.map((p) => p.id);
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const first = today - (DASHBOARD_LIMITS.releaseChartDays - 1) * DAY_MS;
  const buckets = await ctx.store.releaseSessionSeries(ids, view.release.version, {
    environments: environments.length > 0 ? environments : null,
    sinceHour: hourOf(first),
  });
  const days = Array.from({ length: DASHBOARD_LIMITS.releaseChartDays }, (_, i) => (first + i * DAY_MS) / 1000);
  const sessions = days.map(() => 0);
  const crashed = days.map(() => 0);
  for (const b of buckets) {
    const i = Math.floor((Date.parse(b.hour) - first) / DAY_MS);
    if (i < 0 || i >= days.length) continue;
    sessions[i]! += b.sessions;
    crashed[i]! += b.crashed;
  }
  const newIssues = await ctx.store.releaseNewIssues(ids, view.release.version, DASHBOARD_LIMITS.releaseNewIssues);
  const artifacts = await ctx.store.listReleaseFiles(ids, view.release.version, UPLOAD_LIMITS.listedFiles);
  return { ...base, newIssues, daily: { days, sessions, crashed }, artifacts };
}

/** The environment names of the organization, or of one of its projects, for the environment filter. */
export async function listEnvironments(ctx: CoreContext, orgSlug: string, projectSlug: string | null): Promise<string[]> {
  const { org } = await requireOrg(ctx, orgSlug, "event:read");
  if (!projectSlug) return ctx.store.listEnvironments(org.id, null);
  const project = await ctx.store.getProjectBySlug(org.id, requireText(projectSlug, "Project"));
  if (!project) throw notFound("Project");
  return ctx.store.listEnvironments(org.id, [project.id]);
}
