// GET|POST /api/0/projects/{org}/{project}/rules/ – the project's issue alert rules, in Sentry's shape.
import { createAlertRule, listAlertRules, ruleCreators } from "@/core/alert-rules";
import { apiRoute, readJson } from "@/web/api/handler";
import { serializeRule } from "@/web/api/rule-serializers";

export const dynamic = "force-dynamic";
type P = { org: string; project: string };

export const GET = apiRoute<P>(["alerts:read", "project:read"], async ({ core, params }) => {
  const { project, rules } = await listAlertRules(core, params.org, params.project);
  const creators = await ruleCreators(core, rules);
  return Response.json(rules.map((r) => serializeRule(r, project.slug, creators)));
});

export const POST = apiRoute<P>(["alerts:write", "project:write"], async ({ core, params, req }) => {
  const rule = await createAlertRule(core, params.org, params.project, await readJson(req));
  return Response.json(serializeRule(rule, params.project, await ruleCreators(core, [rule])));
});
