// POST /api/0/organizations/{org}/artifactbundle/assemble/ – assemble uploaded chunks into an artifact bundle:
// {state, missingChunks, detail}, 200 for every state, as Sentry answers.
import { assembleArtifactBundle } from "@/core/artifact-assemble";
import { getServices } from "@/runtime/services";
import { apiRoute, readJson } from "@/web/api/handler";

export const dynamic = "force-dynamic";
type P = { org: string };

export const POST = apiRoute<P>("project:releases", async (ctx) =>
  Response.json(await assembleArtifactBundle(ctx.core, ctx.params.org, await readJson(ctx.req), getServices().config.chunkUploadAccept)),
);
