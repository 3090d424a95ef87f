// GET /api/0/projects/{org}/{project}/logs/ – the project's log lines, newest first (Faultline's; the same search as
// the logs page: query, level, statsPeriod, start, end, trace; paged with the Link header's cursor). event:read.
import { apiLogQuery, listProjectLogs } from "@/core/logs";
import { apiRoute, paged } from "@/web/api/handler";
import { serializeLog } from "@/web/api/log-serializers";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string; project: string }>("event:read", async (ctx) => {
  const { input, pageSize } = apiLogQuery(ctx.url.searchParams);
  const page = await listProjectLogs(ctx.core, ctx.params.org, ctx.params.project, input, pageSize);
  return paged(
    page.items.map((l) => serializeLog(l, page.project.slug)),
    page.nextBefore,
    ctx,
  );
});
