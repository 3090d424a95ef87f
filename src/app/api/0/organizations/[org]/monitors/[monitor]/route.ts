// GET|PUT|DELETE /api/0/organizations/{org}/monitors/{monitor_slug}/ – one cron monitor; PUT edits it (and mutes it
// with {"isMuted": true}).
import { deleteMonitor, getMonitor, updateMonitor } from "@/core/monitors";
import { apiRoute, readJson } from "@/web/api/handler";
import { serializeMonitor } from "@/web/api/monitor-serializers";

export const dynamic = "force-dynamic";

type Params = { org: string; monitor: string };

export const GET = apiRoute<Params>(["project:read", "org:read"], async (ctx) =>
  Response.json(serializeMonitor(await getMonitor(ctx.core, ctx.params.org, ctx.params.monitor))),
);

export const PUT = apiRoute<Params>("project:write", async (ctx) =>
  Response.json(serializeMonitor(await updateMonitor(ctx.core, ctx.params.org, ctx.params.monitor, await readJson(ctx.req)))),
);

export const DELETE = apiRoute<Params>("project:write", async (ctx) => {
  await deleteMonitor(ctx.core, ctx.params.org, ctx.params.monitor);
  return new Response(null, { status: 202 });
});
