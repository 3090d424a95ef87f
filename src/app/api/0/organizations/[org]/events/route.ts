// GET /api/0/organizations/{org}/events/?dataset=logs – Sentry's events API for its logs explorer: one project
// (`project`, its numeric id), `field` (repeated; attributes by their key), `query`, `statsPeriod` or `start`/`end`,
// `sort=-timestamp` (the only order), `per_page`, `cursor`. Answers {data, meta: {fields}} with the Link header.
// Other datasets are not served here (400). event:read.
import { AppError } from "@/core/errors";
import { apiLogQuery, listProjectLogs, projectSlugById } from "@/core/logs";
import { apiRoute, linkHeader } from "@/web/api/handler";
import { DEFAULT_LOG_FIELDS, logFieldTypes, logFields } from "@/web/api/log-serializers";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string }>("event:read", async (ctx) => {
  const p = ctx.url.searchParams;
  const dataset = p.get("dataset");
  if (dataset !== "logs" && dataset !== "ourlogs") throw new AppError("bad_request", "Only dataset=logs is served by this endpoint");
  const projects = p.getAll("project");
  if (projects.length !== 1) throw new AppError("bad_request", "Name one project by its id (project=…)");
  const sort = p.get("sort");
  if (sort !== null && sort !== "-timestamp") throw new AppError("bad_request", "Logs are sorted by -timestamp");
  const fields = p
    .getAll("field")
    .filter((f) => f.length > 0 && f.length <= 256)
    .slice(0, 50);
  const wanted = fields.length > 0 ? fields : DEFAULT_LOG_FIELDS;
  const slug = await projectSlugById(ctx.core, ctx.params.org, projects[0]);
  const { input, pageSize } = apiLogQuery(p);
  const page = await listProjectLogs(ctx.core, ctx.params.org, slug, input, pageSize);
  return Response.json(
    { data: page.items.map((l) => logFields(l, slug, wanted)), meta: { fields: logFieldTypes(wanted), dataset: "logs" } },
    { headers: { Link: linkHeader(ctx.url, page.nextBefore, ctx.publicUrl, ctx.basePath) } },
  );
});
