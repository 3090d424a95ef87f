// GET /api/0/issues/{id}/tags/{key}/ – one tag key of the issue with its most frequent values.
import { getIssueTag } from "@/core/issue-details";
import { apiRoute } from "@/web/api/handler";
import { serializeTag } from "@/web/api/triage-serializers";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ issueId: string; key: string }>("event:read", async (ctx) =>
  Response.json(serializeTag(await getIssueTag(ctx.core, ctx.params.issueId, ctx.params.key))),
);
