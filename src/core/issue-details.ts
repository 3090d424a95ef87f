// What an issue's page reads beyond the issue: its tags with their most frequent values, one tag's values, and one
// event by id with the issue's events next to it (Sentry's nextEventID and previousEventID).
import { TRIAGE_LIMITS } from "../config/limits";
import type { IssueTagSummary } from "../storage/issue-ports";
import type { Page, PageRequest, StoredEvent } from "../storage/ports";
import type { IssueTagValue } from "../storage/triage-ports";
import { assertCan } from "./access";
import type { CoreContext } from "./context";
import { notFound } from "./errors";
import { getIssue, issueEventAt, type IssueView } from "./issues";
import { getProject } from "./projects";

export type EventWithNeighbours = { event: StoredEvent; next: string | null; previous: string | null };

export async function listIssueTags(ctx: CoreContext, issueId: unknown): Promise<IssueTagSummary[]> {
  const view = await getIssue(ctx, issueId);
  return ctx.store.issueTags(view.issue.id, TRIAGE_LIMITS.tagTopValues);
}

export async function getIssueTag(ctx: CoreContext, issueId: unknown, key: string): Promise<IssueTagSummary> {
  const view = await getIssue(ctx, issueId);
  const tag = await ctx.store.issueTag(view.issue.id, key, TRIAGE_LIMITS.tagTopValues);
  if (!tag) throw notFound("Tag");
  return tag;
}

export async function listIssueTagValues(
  ctx: CoreContext,
  issueId: unknown,
  key: string,
  page: PageRequest,
): Promise<{ key: string; page: Page<IssueTagValue> }> {
  const view = await getIssue(ctx, issueId);
  const values = await ctx.store.issueTagValues(view.issue.id, key, page);
  if (values.items.length === 0 && !page.cursor) throw notFound("Tag");
  return { key, page: values };
}

/** An event id as SDKs and Sentry's UI write it: 32 hex digits, or a UUID with dashes. */
function eventIdOf(value: string): string {
  const id = value.replace(/-/g, "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(id)) throw notFound("Event");
  return id;
}

/** `environments`: the neighbours among the events of these environments only (Sentry's `environment=`), if any. */
async function withNeighbours(ctx: CoreContext, event: StoredEvent, environments: string[] = []): Promise<EventWithNeighbours> {
  if (event.issueId === null) return { event, next: null, previous: null };
  return { event, ...(await ctx.store.issueEventNeighbours(event.issueId, event.id, environments)) };
}

export async function getIssueEvent(
  ctx: CoreContext,
  issueId: unknown,
  eventId: string,
  environments: string[] = [],
): Promise<IssueView & EventWithNeighbours> {
  const view = await getIssue(ctx, issueId);
  const event = await ctx.store.issueEventById(view.issue.id, eventIdOf(eventId));
  if (!event) throw notFound("Event");
  return { ...view, ...(await withNeighbours(ctx, event, environments)) };
}

/** The issue's newest or oldest event (of `environments`, if any), with its neighbours. */
export async function getIssueEventAt(
  ctx: CoreContext,
  issueId: unknown,
  end: "latest" | "oldest",
  environments: string[] = [],
): Promise<IssueView & EventWithNeighbours> {
  const found = await issueEventAt(ctx, issueId, end, environments);
  return { ...found, ...(await withNeighbours(ctx, found.event, environments)) };
}

/** GET /projects/{org}/{project}/events/{eventId}/: any stored event of the project, with its issue's neighbours. */
export async function getProjectEvent(ctx: CoreContext, orgSlug: string, projectSlug: string, eventId: string): Promise<EventWithNeighbours> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "event:read");
  const event = await ctx.store.getEvent(project.id, eventIdOf(eventId));
  if (!event) throw notFound("Event");
  return withNeighbours(ctx, event);
}
