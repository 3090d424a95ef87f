// GET|PUT|DELETE /api/0/organizations/{org}/releases/{version}/ – one release (?health=1), its update (finalize with
// dateReleased, set-commits with refs or commits, more projects) and its deletion.
import { deleteRelease, getRelease, updateRelease } from "@/core/releases";
import { apiRoute, readJson } from "@/web/api/handler";
import { healthOptions, versionOf } from "@/web/api/release-params";
import { serializeRelease } from "@/web/api/release-serializers";

export const dynamic = "force-dynamic";
type P = { org: string; version: string };

export const GET = apiRoute<P>(["project:releases", "project:read"], async (ctx) =>
  Response.json(serializeRelease(await getRelease(ctx.core, ctx.params.org, null, versionOf(ctx.url), healthOptions(ctx.url)))),
);

export const PUT = apiRoute<P>("project:releases", async (ctx) =>
  Response.json(serializeRelease(await updateRelease(ctx.core, ctx.params.org, null, versionOf(ctx.url), await readJson(ctx.req)))),
);

export const DELETE = apiRoute<P>("project:releases", async (ctx) => {
  await deleteRelease(ctx.core, ctx.params.org, versionOf(ctx.url));
  return new Response(null, { status: 204 });
});
