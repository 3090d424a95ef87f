// An issue's activity log with the people who acted (null for Faultline itself: first seen, regressions), for the
// issue API and the issue page.
import type { IssueActivityEntry } from "../storage/issue-ports";
import type { User } from "../storage/ports";
import type { CoreContext } from "./context";
import type { IssueView } from "./issues";

/** Users by id, each read once. */
export async function usersById(ctx: CoreContext, ids: (string | null)[]): Promise<Map<string, User>> {
  const unique = [...new Set(ids.filter((id): id is string => id !== null))];
  const users = await Promise.all(unique.map((id) => ctx.store.getUserById(id)));
  return new Map(users.filter((u): u is User => u !== null).map((u) => [u.id, u]));
}

export type ActivityWithUser = IssueActivityEntry & { user: User | null };

/** The activity of an issue the actor may read (core/issues.ts getIssue), newest first. */
export async function issueActivityLog(ctx: CoreContext, view: IssueView): Promise<ActivityWithUser[]> {
  const entries = (await ctx.store.issueActivity(view.issue.id)).reverse();
  const users = await usersById(
    ctx,
    entries.map((a) => a.userId),
  );
  return entries.map((a) => ({ ...a, user: a.userId ? (users.get(a.userId) ?? null) : null }));
}
