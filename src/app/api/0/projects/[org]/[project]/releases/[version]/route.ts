// GET|PUT /api/0/projects/{org}/{project}/releases/{version}/ – one release as the project sees it (?health=1), and
// its update (sentry-cli 2 finalizes here when one project is configured).
import { getRelease, updateRelease } from "@/core/releases";
import { apiRoute, readJson } from "@/web/api/handler";
import { healthOptions, versionOf } from "@/web/api/release-params";
import { serializeRelease } from "@/web/api/release-serializers";

export const dynamic = "force-dynamic";
type P = { org: string; project: string; version: string };

export const GET = apiRoute<P>(["project:releases", "project:read"], async (ctx) =>
  Response.json(serializeRelease(await getRelease(ctx.core, ctx.params.org, ctx.params.project, versionOf(ctx.url), healthOptions(ctx.url)))),
);

export const PUT = apiRoute<P>("project:releases", async (ctx) =>
  Response.json(serializeRelease(await updateRelease(ctx.core, ctx.params.org, ctx.params.project, versionOf(ctx.url), await readJson(ctx.req)))),
);
