// GET /api/0/projects/{org}/{project}/stats/?stat=received|rejected|blacklisted&since&until&resolution=1h|1d
import { projectStatSeries } from "@/core/stats";
import { apiRoute } from "@/web/api/handler";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string; project: string }>("project:read", async (ctx) => {
  const q = Object.fromEntries(
    ["stat", "since", "until", "resolution"].flatMap((k) => (ctx.url.searchParams.has(k) ? [[k, ctx.url.searchParams.get(k)]] : [])),
  );
  return Response.json(await projectStatSeries(ctx.core, ctx.params.org, ctx.params.project, q));
});
