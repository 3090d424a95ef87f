// GET|POST /api/0/projects/{org}/{project}/releases/ – the project's releases (?query=, ?health=1), and creating one
// for this project (idempotent: 201 when new or new to the project, 208 otherwise), as sentry-cli 2 does.
import { createRelease, listReleases } from "@/core/releases";
import { apiRoute, paged, readJson } from "@/web/api/handler";
import { releaseListQuery } from "@/web/api/release-params";
import { serializeRelease } from "@/web/api/release-serializers";

export const dynamic = "force-dynamic";
type P = { org: string; project: string };

export const GET = apiRoute<P>(["project:releases", "project:read"], async (ctx) => {
  const page = await listReleases(ctx.core, ctx.params.org, ctx.params.project, releaseListQuery(ctx.url));
  return paged(page.items.map(serializeRelease), page.nextCursor, ctx);
});

export const POST = apiRoute<P>("project:releases", async (ctx) => {
  const { view, created } = await createRelease(ctx.core, ctx.params.org, ctx.params.project, await readJson(ctx.req));
  return Response.json(serializeRelease(view), { status: created ? 201 : 208 });
});
