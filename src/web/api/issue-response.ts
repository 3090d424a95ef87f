// What the issue routes share: the permalink an issue is served with, and an issue with its last day of counts.
import type { CoreContext } from "../../core/context";
import { statsSince, serializeIssue } from "./issue-serializers";
import type { IssueView } from "../../core/issues";
import type { ApiContext } from "./handler";

/** Until the dashboard has an issue page, an issue links to its project's page. */
export const issuePermalink = (ctx: Pick<ApiContext<unknown>, "publicUrl" | "basePath">, orgSlug: string, projectSlug: string) =>
  `${ctx.publicUrl}${ctx.basePath}/en/orgs/${orgSlug}/projects/${projectSlug}`;

export async function issueResponse(core: CoreContext, view: IssueView, ctx: Pick<ApiContext<unknown>, "publicUrl" | "basePath">) {
  const counts = await core.store.issueCounts(view.issue.id, statsSince());
  return serializeIssue(view.issue, view.project, counts, issuePermalink(ctx, view.orgSlug, view.project.slug));
}
