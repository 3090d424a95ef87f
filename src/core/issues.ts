// Reading issues: a project's issue list with Sentry's search and sorts, one issue (by id, checked against the
// actor's organizations), and its events.
import type { Issue, IssueSort } from "../storage/issue-ports";
import type { Page, PageRequest, Project, StoredEvent } from "../storage/ports";
import { type OrgAccess, assertCan, getOrgAccess, requireId } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import { parseIssueQuery } from "./issue-query";
import { getProject } from "./projects";

export type IssueView = { issue: Issue; project: Project; orgSlug: string };

const SORTS: Record<string, IssueSort> = { date: "date", new: "new" };

export async function listProjectIssues(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  q: { query: string | null; sort: string | null; page: PageRequest },
): Promise<{ project: Project; page: Page<Issue> }> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "project:read");
  const sort = SORTS[q.sort ?? "date"];
  if (!sort) throw new AppError("bad_request", `Unsupported sort "${q.sort}": use date or new`);
  const page = await ctx.store.listIssues(project.id, { filter: parseIssueQuery(q.query), sort, page: q.page });
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
  } catch {
    throw notFound("Issue"); // another organization's issue is indistinguishable from a missing one
  }
  assertCan(access, "project:read");
  return { issue, project, orgSlug: org.slug };
}

export async function listIssueEvents(ctx: CoreContext, issueId: unknown, page: PageRequest): Promise<IssueView & { page: Page<StoredEvent> }> {
  const view = await getIssue(ctx, issueId);
  return { ...view, page: await ctx.store.listIssueEvents(view.issue.id, page) };
}

export async function issueEventAt(ctx: CoreContext, issueId: unknown, end: "latest" | "oldest"): Promise<IssueView & { event: StoredEvent }> {
  const view = await getIssue(ctx, issueId);
  const event = await ctx.store.issueEventAt(view.issue.id, end);
  if (!event) throw notFound("Event");
  return { ...view, event };
}
