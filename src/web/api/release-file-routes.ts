// The legacy release files routes (organization and project variants share them): list, upload (multipart: file,
// name, dist, repeated header "Key:Value") and delete, in Sentry's Artifact shape.
import "server-only";
import { deleteReleaseFile, listReleaseFiles, uploadReleaseFile } from "../../core/release-files";
import type { ArtifactListing } from "../../storage/upload-ports";
import { apiRoute } from "./handler";
import { readReleaseFile } from "./upload-bodies";
import { versionOf } from "./release-params";

type P = { org: string; project?: string; version: string; fileId?: string };

/** Sentry's Artifact: id as a string, the URL as name. */
export const serializeArtifact = (f: ArtifactListing) => ({
  id: String(f.fileId),
  name: f.url,
  dist: f.dist,
  headers: f.headers,
  size: f.size,
  sha1: f.sha1,
  dateCreated: f.createdAt,
});

export const releaseFilesRoutes = {
  GET: apiRoute<P>(["project:releases", "project:read"], async (ctx) =>
    Response.json((await listReleaseFiles(ctx.core, ctx.params.org, ctx.params.project ?? null, versionOf(ctx.url, 1))).map(serializeArtifact)),
  ),
  POST: apiRoute<P>("project:releases", async (ctx) => {
    const stored = await uploadReleaseFile(ctx.core, ctx.params.org, ctx.params.project ?? null, versionOf(ctx.url, 1), () => readReleaseFile(ctx.req));
    return Response.json(serializeArtifact(stored), { status: 201 });
  }),
};

export const releaseFileRoutes = {
  DELETE: apiRoute<P>("project:releases", async (ctx) => {
    await deleteReleaseFile(ctx.core, ctx.params.org, ctx.params.project ?? null, versionOf(ctx.url, 2), ctx.params.fileId ?? "");
    return new Response(null, { status: 204 });
  }),
};
