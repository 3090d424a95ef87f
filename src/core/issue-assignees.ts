// Assigning issues, as Sentry's PUT takes `assignedTo`: "user:<id>", "team:<id>", an e-mail or a user id, or
// null / "" to unassign. Only members of the issue's organization and the project's team may be assignees. Also
// resolves the assignee terms of the issue search (core/issue-query.ts) into what the store filters on.
import type { AssigneeCondition, Issue } from "../storage/issue-ports";
import type { Project } from "../storage/ports";
import type { ActivityNotice } from "../storage/triage-ports";
import type { OrgAccess } from "./access";
import { actingUser, type CoreContext } from "./context";
import { AppError } from "./errors";
import type { AssigneeTerm } from "./issue-query";
import { linkBase } from "./links";
import { parseId } from "./schemas";

export type Assignee = { userId: string; teamId: null } | { userId: null; teamId: number };

const badAssignee = (message: string) => new AppError("bad_request", message, { assignedTo: [message] });

/** The user an e-mail address or a user id names, if that user is a member of the organization. */
async function memberUser(ctx: CoreContext, access: OrgAccess, name: string): Promise<string | null> {
  const user = name.includes("@") ? await ctx.store.getUserByEmail(name) : await ctx.store.getUserById(name);
  if (!user) return null;
  return (await ctx.store.getMembership(access.org.id, user.id)) ? user.id : null;
}

/** `assignedTo` of a PUT body: null to unassign, else the assignee; 400 for anyone who may not be assigned. */
export async function parseAssignedTo(ctx: CoreContext, access: OrgAccess, project: Project, raw: unknown): Promise<Assignee | null> {
  if (raw === null || raw === "") return null;
  if (typeof raw !== "string" || raw.length > 300) throw badAssignee('assignedTo must be "user:<id>", "team:<id>", an e-mail address, or null');
  if (raw.startsWith("team:")) {
    const id = parseId(raw.slice(5));
    const team = id !== null ? await ctx.store.getTeamById(access.org.id, id) : null;
    if (!team) throw badAssignee(`Unknown team "${raw}"`);
    if (project.teamId !== team.id) throw badAssignee(`Team "${team.slug}" does not have access to project "${project.slug}"`);
    return { userId: null, teamId: team.id };
  }
  const userId = await memberUser(ctx, access, raw.startsWith("user:") ? raw.slice(5) : raw);
  if (!userId) throw badAssignee(`Cannot assign to "${raw}": not a member of the organization`);
  return { userId, teamId: null };
}

/** Assigns (or unassigns) an issue with an `assigned` or `unassigned` activity entry; nothing when it is unchanged. */
export async function assignIssue(ctx: CoreContext, issue: Issue, assignee: Assignee | null): Promise<void> {
  if (issue.assigneeId === (assignee?.userId ?? null) && issue.assigneeTeamId === (assignee?.teamId ?? null)) return;
  const createdAt = new Date().toISOString();
  let data: Record<string, unknown> = {};
  if (assignee?.userId) {
    const user = await ctx.store.getUserById(assignee.userId);
    data = { assignee: assignee.userId, assigneeEmail: user?.email ?? null, assigneeType: "user" };
  } else if (assignee) {
    data = { assignee: String(assignee.teamId), assigneeEmail: null, assigneeType: "team" };
  }
  const actor = actingUser(ctx).id;
  // The assignee (a team: its members) hears of it, unless they assigned themselves; a person assigned takes part.
  const notice: ActivityNotice | undefined = assignee
    ? {
        trigger: "assigned",
        actorUserId: actor,
        to: "assignee",
        participant: assignee.userId ? { userId: assignee.userId, reason: "assigned" } : null,
        linkBase: linkBase(),
      }
    : undefined;
  await ctx.store.setIssueAssignee(
    issue.id,
    { userId: assignee?.userId ?? null, teamId: assignee?.teamId ?? null },
    { type: assignee ? "assigned" : "unassigned", userId: actor, data: JSON.stringify(data), createdAt },
    notice,
  );
}

/** The search's assignee terms as store conditions; a person or team that does not exist matches no issue. */
export async function resolveAssigneeTerms(ctx: CoreContext, access: OrgAccess, groups: AssigneeTerm[][]): Promise<AssigneeCondition[]> {
  const out: AssigneeCondition[] = [];
  for (const terms of groups) {
    const c: AssigneeCondition = { userIds: [], teamIds: [], none: false, any: false };
    for (const term of terms) {
      if (term.kind === "me") c.userIds.push(actingUser(ctx).id);
      else if (term.kind === "none") c.none = true;
      else if (term.kind === "any") c.any = true;
      else if (term.kind === "my_teams") c.teamIds.push(...(access.memberId === null ? [] : await ctx.store.listTeamIdsOfMember(access.memberId)));
      else if (term.kind === "team") {
        const team = await ctx.store.getTeamBySlug(access.org.id, term.slug);
        if (team) c.teamIds.push(team.id);
      } else if (term.kind === "user") {
        const userId = await memberUser(ctx, access, term.name);
        if (userId) c.userIds.push(userId);
      }
    }
    out.push(c);
  }
  return out;
}
