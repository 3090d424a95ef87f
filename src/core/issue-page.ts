// What the dashboard's issue page reads in one call: the issue in the organization the URL names, one of its events
// (latest, oldest or by id) with its neighbours (within the page's environment, if one is chosen), the release of
// its latest event, its tags and frequency (of its events in that environment, if one is chosen), its activity, whom
// it may be assigned to, and what the actor may do.
import { TRIAGE_LIMITS } from "../config/limits";
import type { IssueTagSummary } from "../storage/issue-ports";
import type { Member, Team } from "../storage/ports";
import { allowed, getOrgAccess } from "./access";
import type { CoreContext } from "./context";
import { isAppError, notFound } from "./errors";
import { type ActivityWithUser, issueActivityLog } from "./issue-activity";
import { type EventWithNeighbours, getIssueEvent, getIssueEventAt } from "./issue-details";
import { issueFrequencyIn, issueTagsIn } from "./issue-environment";
import { type IssueFrequency, issueFrequency } from "./issue-stats";
import type { IssueView } from "./issues";

export type IssuePage = IssueView &
  EventWithNeighbours & {
    /** An environment was chosen, but the issue has no event there: the event and its neighbours are of all. */
    outsideEnvironment: boolean;
    /** The release of the issue's newest event ("last seen in"). */
    lastRelease: string | null;
    tags: IssueTagSummary[];
    frequency: IssueFrequency;
    /** Under an environment filter: tags and frequency count the issue's stored events there; `taggedEvents` were read for the tags. */
    inEnvironment: { environment: string; taggedEvents: number } | null;
    activity: ActivityWithUser[];
    /** Who may be assigned: the organization's members and the project's team. */
    assignable: { members: Member[]; team: Team | null };
    may: { update: boolean; delete: boolean; comment: boolean; moderate: boolean };
  };

/** The event `eventRef` names, its neighbours among the environment's events; the issue's own end when it has none there. */
async function eventOf(
  ctx: CoreContext,
  issueId: unknown,
  eventRef: string,
  environment: string | null,
): Promise<IssueView & EventWithNeighbours & { outsideEnvironment: boolean }> {
  const environments = environment ? [environment] : [];
  if (eventRef !== "latest" && eventRef !== "oldest") return { ...(await getIssueEvent(ctx, issueId, eventRef, environments)), outsideEnvironment: false };
  try {
    return { ...(await getIssueEventAt(ctx, issueId, eventRef, environments)), outsideEnvironment: false };
  } catch (err) {
    if (environments.length === 0 || !isAppError(err) || err.code !== "not_found") throw err;
  }
  return { ...(await getIssueEventAt(ctx, issueId, eventRef)), outsideEnvironment: true };
}

/**
 * `eventRef`: "latest", "oldest" or an event id; `environment`: the page's environment filter (null for all).
 * Another organization's issue, or a missing one, is not found.
 */
export async function getIssuePage(
  ctx: CoreContext,
  orgSlug: string,
  issueId: unknown,
  eventRef: string,
  environment: string | null = null,
): Promise<IssuePage> {
  const found = await eventOf(ctx, issueId, eventRef, environment);
  if (found.orgSlug !== orgSlug) throw notFound("Issue");
  const access = await getOrgAccess(ctx, orgSlug);
  const id = found.issue.id;
  const latest = found.next === null && !environment ? found.event : await ctx.store.issueEventAt(id, "latest");
  const scoped = environment !== null && !found.outsideEnvironment ? environment : null;
  const [tagged, frequency, activity, members, team] = await Promise.all([
    scoped ? issueTagsIn(ctx.store, id, scoped) : ctx.store.issueTags(id, TRIAGE_LIMITS.tagTopValues).then((tags) => ({ tags, events: 0 })),
    scoped ? issueFrequencyIn(ctx.store, id, scoped) : issueFrequency(ctx.store, found),
    issueActivityLog(ctx, found),
    ctx.store.listMembers(access.org.id),
    found.project.teamId === null ? null : ctx.store.getTeamById(access.org.id, found.project.teamId),
  ]);
  return {
    ...found,
    lastRelease: latest?.release ?? null,
    tags: tagged.tags,
    frequency,
    inEnvironment: scoped ? { environment: scoped, taggedEvents: tagged.events } : null,
    activity,
    assignable: { members, team },
    may: {
      update: allowed(access, "issue:update"),
      delete: allowed(access, "issue:delete"),
      comment: allowed(access, "issue:comment"),
      moderate: allowed(access, "comment:moderate"),
    },
  };
}
