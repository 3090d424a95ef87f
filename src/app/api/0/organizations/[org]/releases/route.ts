// GET|POST /api/0/organizations/{org}/releases/ – the organization's releases (?project=, ?query=, ?health=1), and
// creating one for some of its projects (idempotent: 201 when new or given new projects, 208 otherwise).
import { createRelease, listReleases } from "@/core/releases";
import { apiRoute, paged, readJson } from "@/web/api/handler";
import { releaseListQuery } from "@/web/api/release-params";
import { serializeRelease } from "@/web/api/release-serializers";

export const dynamic = "force-dynamic";
type P = { org: string };

export const GET = apiRoute<P>(["project:releases", "project:read"], async (ctx) => {
  const page = await listReleases(ctx.core, ctx.params.org, null, releaseListQuery(ctx.url));
  return paged(page.items.map(serializeRelease), page.nextCursor, ctx);
});

export const POST = apiRoute<P>("project:releases", async (ctx) => {
  const { view, created } = await createRelease(ctx.core, ctx.params.org, null, await readJson(ctx.req));
  return Response.json(serializeRelease(view), { status: created ? 201 : 208 });
});
