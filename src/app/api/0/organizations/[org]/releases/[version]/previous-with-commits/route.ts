// GET /api/0/organizations/{org}/releases/{version}/previous-with-commits/ – the newest older release with commits, or
// {} when there is none: where sentry-cli's set-commits --local starts reading the local git history.
import { previousReleaseWithCommits } from "@/core/releases";
import { apiRoute } from "@/web/api/handler";
import { versionOf } from "@/web/api/release-params";
import { serializeRelease } from "@/web/api/release-serializers";

export const dynamic = "force-dynamic";
type P = { org: string; version: string };

export const GET = apiRoute<P>(["project:releases", "project:read"], async (ctx) => {
  const versionUrl = new URL(ctx.url.pathname.replace(/\/previous-with-commits\/?$/, "/"), ctx.url);
  const previous = await previousReleaseWithCommits(ctx.core, ctx.params.org, versionOf(versionUrl));
  return Response.json(previous ? serializeRelease(previous) : {});
});
