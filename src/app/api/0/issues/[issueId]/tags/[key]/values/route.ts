// GET /api/0/issues/{id}/tags/{key}/values/?cursor= – every value of one tag key on the issue, most frequent first.
import { listIssueTagValues } from "@/core/issue-details";
import { pageRequest } from "@/core/pagination";
import { apiRoute, paged } from "@/web/api/handler";
import { serializeTagValue } from "@/web/api/triage-serializers";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ issueId: string; key: string }>("event:read", async (ctx) => {
  const params = ctx.url.searchParams;
  const page = pageRequest("offset", { cursor: params.get("cursor"), limit: params.get("limit") ?? params.get("per_page") ?? undefined });
  const { key, page: values } = await listIssueTagValues(ctx.core, ctx.params.issueId, ctx.params.key, page);
  return paged(
    values.items.map((v) => serializeTagValue(key, v)),
    values.nextCursor,
    ctx,
  );
});
