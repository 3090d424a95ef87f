// Reading issues: a project's issue list with Sentry's search and sorts, one issue (by id, checked against the
// actor's organizations), and its events.
import type { Issue, IssueSort } from "../storage/issue-ports";
import { parseStatusUpdate, statusChange } from "./issue-status";
import type { Page, PageRequest, Project, StoredEvent } from "../storage/ports";
import { type OrgAccess, assertCan, getOrgAccess, requireId } from "./access";
import { API_LIMITS } from "../config/limits";
import { actingUser, type CoreContext } from "./context";
import { AppError, isTwoFactorRequired, notFound } from "./errors";
import { assignIssue, parseAssignedTo, resolveAssigneeTerms } from "./issue-assignees";
import { parseIssueQuery } from "./issue-query";
import { getProject } from "./projects";

export type IssueView = { issue: Issue; project: Project; orgSlug: string };

/** A Map, so that a sort named like an Object property ("constructor", "__proto__") is unknown, not found. */
const SORTS = new Map<string, IssueSort>([
  ["date", "date"],
  ["new", "new"],
  ["freq", "freq"],
  ["user", "user"],
]);

/**
 * `environments` are Sentry's separate `environment=` parameters: issues with an event in any of them. An empty
 * sort means the default, as Sentry's list treats `sort=`.
 */
export async function listProjectIssues(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  q: { query: string | null; sort: string | null; page: PageRequest; environments?: string[] },
): Promise<{ project: Project; page: Page<Issue> }> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "event:read");
  const sort = SORTS.get(q.sort || "date");
  if (!sort) throw new AppError("bad_request", `Unsupported sort "${q.sort}": use date, new, freq or user`);
  const { assigned, ...filter } = parseIssueQuery(q.query);
  const assignee = await resolveAssigneeTerms(ctx, access, assigned);
  const environments = (q.environments ?? []).filter((e) => e !== "");
  const page = await ctx.store.listIssues(project.id, { filter: { ...filter, assignee, environments }, sort, page: q.page });
  return { project, page };
}

/** An issue by id, with its project, if the actor may read that project's organization; not found otherwise. */
export async function getIssue(ctx: CoreContext, issueId: unknown): Promise<IssueView> {
  const issue = await ctx.store.getIssue(requireId(issueId, "Issue"));
  if (!issue) throw notFound("Issue");
  const project = await ctx.store.getProjectById(issue.projectId);
  const org = project ? await ctx.store.getOrganizationById(project.organizationId) : null;
  if (!project || !org) throw notFound("Issue");
  let access: OrgAccess;
  try {
    access = await getOrgAccess(ctx, org.slug);
  } catch (err) {
    // A member refused for want of two-factor learns why; another organization's issue is indistinguishable from a missing one.
    if (isTwoFactorRequired(err)) throw err;
    throw notFound("Issue");
  }
  assertCan(access, "event:read");
  return { issue, project, orgSlug: org.slug };
}

/** Applies a PUT body's status change to one issue. */
async function applyStatus(ctx: CoreContext, view: IssueView, body: Record<string, unknown>): Promise<void> {
  const update = parseStatusUpdate(body);
  if (!update) return;
  const change = statusChange(update, view.issue, await ctx.store.latestRelease(view.project.id), new Date());
  await ctx.store.setIssueStatus(view.issue.id, {
    status: change.status,
    substatus: change.substatus,
    resolution: change.resolution ? JSON.stringify(change.resolution) : null,
    snooze: change.snooze ? JSON.stringify(change.snooze) : null,
    activity: { type: change.activity.type, userId: actingUser(ctx).id, data: JSON.stringify(change.activity.data), createdAt: new Date().toISOString() },
  });
}

/** A PUT body: a status change (resolved, resolvedInNextRelease, unresolved, ignored, with statusDetails), `assignedTo`, or both. */
function updateBody(body: unknown): Record<string, unknown> {
  const b = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  if (!("status" in b) && !("assignedTo" in b)) throw new AppError("bad_request", "Nothing to update: give a status or assignedTo");
  return b;
}

/** The assignee a PUT body names for an issue of this project: undefined when it names none. */
const assigneeOf = async (ctx: CoreContext, access: OrgAccess, view: IssueView, body: Record<string, unknown>) =>
  "assignedTo" in body ? await parseAssignedTo(ctx, access, view.project, body.assignedTo) : undefined;

/** Applies a PUT body to one issue, its assignee already checked; returns the issue as it is now. */
async function applyChecked(
  ctx: CoreContext,
  view: IssueView,
  body: Record<string, unknown>,
  assignee: Awaited<ReturnType<typeof assigneeOf>>,
): Promise<Issue> {
  await applyStatus(ctx, view, body);
  if (assignee !== undefined) await assignIssue(ctx, view.issue, assignee);
  return (await ctx.store.getIssue(view.issue.id))!;
}

/** Applies a PUT body to one issue (the assignee is checked first, so a bad one changes nothing); returns the issue as it is now. */
async function applyUpdate(ctx: CoreContext, access: OrgAccess, view: IssueView, body: Record<string, unknown>): Promise<Issue> {
  return applyChecked(ctx, view, body, await assigneeOf(ctx, access, view, body));
}

async function accessOf(ctx: CoreContext, view: IssueView): Promise<OrgAccess> {
  return getOrgAccess(ctx, view.orgSlug);
}

/** PUT /issues/{id}/: a status change, an assignment, or both. */
export async function updateIssue(ctx: CoreContext, issueId: unknown, body: unknown): Promise<IssueView> {
  const view = await getIssue(ctx, issueId);
  const access = await accessOf(ctx, view);
  assertCan(access, "issue:update");
  return { ...view, issue: await applyUpdate(ctx, access, view, updateBody(body)) };
}

/** The bulk form: the same change to several issues of one project (`?id=1&id=2`). */
export async function updateProjectIssues(ctx: CoreContext, orgSlug: string, projectSlug: string, ids: string[], body: unknown): Promise<IssueView[]> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "issue:update");
  if (ids.length === 0) throw new AppError("bad_request", "Name the issues to update with id=");
  const update = updateBody(body);
  const views = await Promise.all(ids.map((id) => getIssue(ctx, id)));
  if (views.some((v) => v.project.id !== project.id)) throw notFound("Issue");
  const out: IssueView[] = [];
  for (const view of views) out.push({ ...view, issue: await applyUpdate(ctx, access, view, update) });
  return out;
}

/**
 * The dashboard's bulk form: the same change to issues of any projects of one organization. Every issue and the
 * assignee for each are checked before anything changes, so one bad id or assignee changes nothing.
 */
export async function updateOrgIssues(ctx: CoreContext, orgSlug: string, ids: string[], body: unknown): Promise<IssueView[]> {
  const access = await getOrgAccess(ctx, orgSlug);
  assertCan(access, "issue:update");
  if (ids.length === 0) throw new AppError("bad_request", "Select the issues to update");
  if (ids.length > API_LIMITS.maxPageSize) throw new AppError("bad_request", `Update at most ${API_LIMITS.maxPageSize} issues at once`);
  const update = updateBody(body);
  const views = await Promise.all([...new Set(ids)].map((id) => getIssue(ctx, id)));
  if (views.some((v) => v.orgSlug !== access.org.slug)) throw notFound("Issue");
  if (update.status !== undefined) parseStatusUpdate(update);
  const assignees = await Promise.all(views.map((v) => assigneeOf(ctx, access, v, update)));
  const out: IssueView[] = [];
  for (const [i, view] of views.entries()) out.push({ ...view, issue: await applyChecked(ctx, view, update, assignees[i]) });
  return out;
}

export async function deleteIssue(ctx: CoreContext, issueId: unknown): Promise<void> {
  const view = await getIssue(ctx, issueId);
  assertCan(await accessOf(ctx, view), "issue:delete");
  await ctx.store.deleteIssue(view.issue.id);
}

export async function deleteProjectIssues(ctx: CoreContext, orgSlug: string, projectSlug: string, ids: string[]): Promise<void> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "issue:delete");
  if (ids.length === 0) throw new AppError("bad_request", "Name the issues to delete with id=");
  const views = await Promise.all(ids.map((id) => getIssue(ctx, id)));
  if (views.some((v) => v.project.id !== project.id)) throw notFound("Issue");
  for (const v of views) await ctx.store.deleteIssue(v.issue.id);
}

export async function listIssueEvents(ctx: CoreContext, issueId: unknown, page: PageRequest): Promise<IssueView & { page: Page<StoredEvent> }> {
  const view = await getIssue(ctx, issueId);
  return { ...view, page: await ctx.store.listIssueEvents(view.issue.id, page) };
}

/** The issue's newest or oldest event, of `environments` when it names any. */
export async function issueEventAt(
  ctx: CoreContext,
  issueId: unknown,
  end: "latest" | "oldest",
  environments: string[] = [],
): Promise<IssueView & { event: StoredEvent }> {
  const view = await getIssue(ctx, issueId);
  const event = await ctx.store.issueEventAt(view.issue.id, end, environments);
  if (!event) throw notFound("Event");
  return { ...view, event };
}
