// GET|PUT|DELETE /api/0/organizations/{org}/alert-rules/{id}/ – one metric alert, its change (fields given replace
// the rule's) and its deletion.
import { deleteMetricAlert, getMetricAlert, updateMetricAlert } from "@/core/metric-alerts";
import { apiRoute, readJson } from "@/web/api/handler";
import { serializeMetricAlert } from "@/web/api/metric-alert-serializers";

export const dynamic = "force-dynamic";
type P = { org: string; ruleId: string };

export const GET = apiRoute<P>(["alerts:read", "org:read"], async (ctx) =>
  Response.json(serializeMetricAlert(await getMetricAlert(ctx.core, ctx.params.org, ctx.params.ruleId))),
);

export const PUT = apiRoute<P>(["alerts:write", "org:write"], async (ctx) =>
  Response.json(serializeMetricAlert(await updateMetricAlert(ctx.core, ctx.params.org, ctx.params.ruleId, await readJson(ctx.req)))),
);

export const DELETE = apiRoute<P>(["alerts:write", "org:write"], async (ctx) => {
  await deleteMetricAlert(ctx.core, ctx.params.org, ctx.params.ruleId);
  return new Response(null, { status: 204 });
});
