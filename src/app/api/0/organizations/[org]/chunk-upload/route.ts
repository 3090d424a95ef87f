// GET|POST /api/0/organizations/{org}/chunk-upload/ – sentry-cli's chunk upload: the options (an absolute URL, as
// Sentry answers current CLIs), then multipart chunks named by their SHA-1, as `file` or gzip'd `file_gzip` parts,
// read one at a time (web/api/upload-bodies.ts) and stored one at a time (core/uploads.ts).
import { chunkUploadOptions, uploadChunks } from "@/core/uploads";
import { getServices } from "@/runtime/services";
import { apiRoute } from "@/web/api/handler";
import { readChunkParts } from "@/web/api/upload-bodies";

export const dynamic = "force-dynamic";
type P = { org: string };

export const GET = apiRoute<P>("project:releases", async (ctx) => {
  const url = `${ctx.publicUrl}${ctx.basePath}/api/0/organizations/${encodeURIComponent(ctx.params.org)}/chunk-upload/`;
  return Response.json(await chunkUploadOptions(ctx.core, ctx.params.org, url, getServices().config.chunkUploadAccept));
});

export const POST = apiRoute<P>("project:releases", async (ctx) => {
  await uploadChunks(ctx.core, ctx.params.org, readChunkParts(ctx.req));
  return Response.json([]);
});
