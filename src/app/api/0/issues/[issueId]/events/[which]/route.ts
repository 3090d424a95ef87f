// GET /api/0/issues/{id}/events/{eventId}/, …/latest/ and …/oldest/ – one event of the issue, with the ids of the
// issue's next (newer) and previous (older) events; with `environment=` (may repeat), among that environment's events.
import { getIssueEvent, getIssueEventAt } from "@/core/issue-details";
import { serializeEventDetail } from "@/web/api/event-serializers";
import { apiRoute } from "@/web/api/handler";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ issueId: string; which: string }>("event:read", async (ctx) => {
  const which = ctx.params.which;
  const environments = ctx.url.searchParams.getAll("environment").filter((e) => e !== "");
  const found =
    which === "latest" || which === "oldest"
      ? await getIssueEventAt(ctx.core, ctx.params.issueId, which, environments)
      : await getIssueEvent(ctx.core, ctx.params.issueId, which, environments);
  return Response.json(serializeEventDetail(found));
});
