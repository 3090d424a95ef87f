// GET|POST /api/0/organizations/{org}/monitors/ – the organization's cron monitors (`?project=` narrows), and a new one.
import { createMonitor, listMonitors } from "@/core/monitors";
import { apiRoute, paged, readJson } from "@/web/api/handler";
import { serializeMonitor } from "@/web/api/monitor-serializers";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string }>(["project:read", "org:read"], async (ctx) =>
  paged((await listMonitors(ctx.core, ctx.params.org, ctx.url.searchParams.getAll("project"))).map(serializeMonitor), null, ctx),
);

export const POST = apiRoute<{ org: string }>("project:write", async (ctx) =>
  Response.json(serializeMonitor(await createMonitor(ctx.core, ctx.params.org, await readJson(ctx.req))), { status: 201 }),
);
