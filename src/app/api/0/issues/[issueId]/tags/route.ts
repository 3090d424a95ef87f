// GET /api/0/issues/{id}/tags/ – the issue's tag keys with their most frequent values.
import { listIssueTags } from "@/core/issue-details";
import { apiRoute } from "@/web/api/handler";
import { serializeTag } from "@/web/api/triage-serializers";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ issueId: string }>("event:read", async (ctx) =>
  Response.json((await listIssueTags(ctx.core, ctx.params.issueId)).map(serializeTag)),
);
