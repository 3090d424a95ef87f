// The issue list's assignee condition as SQL: assigned to one of these users or teams, to nobody, or to anybody.
import type { ExpressionBuilder } from "kysely";
import type { AssigneeCondition } from "../issue-ports";
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
