// POST /api/0/organizations/{org}/releases/{version}/assemble/ – sentry-cli 2.x's release-bound bundle on servers
// without artifact bundles: the same answer as artifactbundle/assemble, for the release's projects.
import { assembleReleaseBundle } from "@/core/artifact-assemble";
import { getServices } from "@/runtime/services";
import { apiRoute, readJson } from "@/web/api/handler";
import { versionOf } from "@/web/api/release-params";

export const dynamic = "force-dynamic";
type P = { org: string; version: string };

export const POST = apiRoute<P>("project:releases", async (ctx) =>
  Response.json(await assembleReleaseBundle(ctx.core, ctx.params.org, versionOf(ctx.url, 1), await readJson(ctx.req), getServices().config.chunkUploadAccept)),
);
