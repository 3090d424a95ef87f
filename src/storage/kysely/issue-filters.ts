// The issue list's filter as SQL (status, level, tags, environments, text, assignee), shared by the list and the
// stream's polling; and the assignee condition: one of these users or teams, nobody, or anybody.
import { type ExpressionBuilder, type SelectQueryBuilder, sql } from "kysely";
import type { AssigneeCondition, IssueFilter } from "../issue-ports";
import type { Database } from "../schema";

export function assigneeWhere(eb: ExpressionBuilder<Database, "issues">, c: AssigneeCondition) {
  const any = [];
  if (c.userIds.length > 0) any.push(eb("issues.assignee_id", "in", c.userIds));
  if (c.teamIds.length > 0) any.push(eb("issues.assignee_team_id", "in", c.teamIds));
  if (c.none) any.push(eb.and([eb("issues.assignee_id", "is", null), eb("issues.assignee_team_id", "is", null)]));
  if (c.any) any.push(eb.or([eb("issues.assignee_id", "is not", null), eb("issues.assignee_team_id", "is not", null)]));
  // A condition that names nobody who exists matches no issue.
  return any.length > 0 ? eb.or(any) : eb.lit(false);
}

/** LIKE patterns take the text literally: % and _ are escaped. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Issues of these projects (one project reads its index with `=`). */
export function inProjects<O>(q: SelectQueryBuilder<Database, "issues", O>, projectIds: number | number[]): SelectQueryBuilder<Database, "issues", O> {
  const ids = Array.isArray(projectIds) ? projectIds : [projectIds];
  if (ids.length === 1) return q.where("issues.project_id", "=", ids[0]!);
  return ids.length === 0 ? q.where((eb) => eb.lit(false)) : q.where("issues.project_id", "in", ids);
}

/** Narrows a query over `issues` to the filter. */
export function applyIssueFilter<O>(
  query: SelectQueryBuilder<Database, "issues", O>,
  filter: IssueFilter | undefined,
): SelectQueryBuilder<Database, "issues", O> {
  let q = query;
  if (filter?.status) q = q.where("issues.status", "=", filter.status);
  if (filter?.level) q = q.where("issues.level", "=", filter.level);
  const tags = [
    ...(filter?.tags ?? []).map(([key, value]) => [key, [value]] as const),
    ...(filter?.environments?.length ? [["environment", filter.environments] as const] : []),
  ];
  for (const [key, values] of tags) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom("issue_tags")
          .select("issue_tags.issue_id")
          .whereRef("issue_tags.issue_id", "=", "issues.id")
          .where("issue_tags.key", "=", key)
          .where("issue_tags.value", "in", values),
      ),
    );
  }
  for (const text of filter?.text ?? []) {
    const pattern = likeText(text.toLowerCase());
    q = q.where((eb) =>
      eb.or([
        eb(eb.fn("lower", ["issues.title"]), "like", sql<string>`${pattern} escape '\\'`),
        eb(eb.fn("lower", ["issues.culprit"]), "like", sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  for (const condition of filter?.assignee ?? []) q = q.where((eb) => assigneeWhere(eb, condition));
  return q;
}
