// GET|POST /api/0/organizations/{org}/alert-rules/ – the organization's metric alerts, and a new one (Sentry's shape).
import { createMetricAlert, listMetricAlerts } from "@/core/metric-alerts";
import { apiRoute, paged, readJson } from "@/web/api/handler";
import { serializeMetricAlert } from "@/web/api/metric-alert-serializers";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string }>(["alerts:read", "org:read"], async (ctx) =>
  paged((await listMetricAlerts(ctx.core, ctx.params.org)).map(serializeMetricAlert), null, ctx),
);

export const POST = apiRoute<{ org: string }>(["alerts:write", "org:write"], async (ctx) =>
  Response.json(serializeMetricAlert(await createMetricAlert(ctx.core, ctx.params.org, await readJson(ctx.req))), { status: 201 }),
);
