// GET|PUT|DELETE /api/0/projects/{org}/{project}/rules/{rule_id}/ – one issue alert rule, in Sentry's shape.
import { deleteAlertRule, getAlertRule, ruleCreators, updateAlertRule } from "@/core/alert-rules";
import { apiRoute, readJson } from "@/web/api/handler";
import { serializeRule } from "@/web/api/rule-serializers";

export const dynamic = "force-dynamic";
type P = { org: string; project: string; ruleId: string };

export const GET = apiRoute<P>(["alerts:read", "project:read"], async ({ core, params }) => {
  const { project, rule } = await getAlertRule(core, params.org, params.project, params.ruleId);
  return Response.json(serializeRule(rule, project.slug, await ruleCreators(core, [rule])));
});

export const PUT = apiRoute<P>(["alerts:write", "project:write"], async ({ core, params, req }) => {
  const rule = await updateAlertRule(core, params.org, params.project, params.ruleId, await readJson(req));
  return Response.json(serializeRule(rule, params.project, await ruleCreators(core, [rule])));
});

/** Sentry answers 202: the rule is scheduled for deletion. */
export const DELETE = apiRoute<P>(["alerts:write", "project:write"], async ({ core, params }) => {
  await deleteAlertRule(core, params.org, params.project, params.ruleId);
  return new Response(null, { status: 202 });
});
