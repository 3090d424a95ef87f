// Assembling uploaded chunks into an artifact bundle (sentry-protocol.md §6; Sentry's
// organization_artifactbundle_assemble.py and tasks/assemble.py, Bugsink's files/views.py): POST
// …/artifactbundle/assemble/ (sentry-cli 2.15+ and 3.x) and the release-bound …/releases/{version}/assemble/ (2.x on
// servers without artifact bundles). The answer always carries `state` and `missingChunks`, which sentry-cli
// requires: "not_found" with the chunks it must still send, then "ok" once the bundle is stored, or "error" with a
// detail. Assembly happens within the request that finds every chunk present, so no state is kept between calls; a
// bundle the organization already holds (same SHA-1) is linked again, not stored twice, and needs no chunks. Each
// endpoint exists only while FAULTLINE_CHUNK_UPLOAD_ACCEPT offers its kind, as on servers with or without bundles.
import { deflateRawSync } from "node:zlib";
import { z } from "zod";
import type { ChunkUploadKind } from "../config/env";
import { RELEASE_LIMITS, UPLOAD_LIMITS } from "../config/limits";
import { type ArtifactBundle, BundleError, readArtifactBundle } from "../protocol/artifact-bundle";
import type { ArtifactLink, NewArtifactFile } from "../storage/upload-ports";
import { type OrgAccess, requireOrg } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import { namedProjects } from "./releases";
import { parseInput } from "./schemas";
import { type SerialGate, serialGate } from "./serial-gate";
import { SHA1_HEX, sha1Hex } from "./uploads";

export type AssembleState = "not_found" | "created" | "assembling" | "ok" | "error";
export type AssembleAnswer = { state: AssembleState; missingChunks: string[]; detail: string | null };

const sha1 = z.string().trim().toLowerCase().regex(SHA1_HEX, "must be a SHA-1 in hex");
const chunks = z.array(sha1).max(UPLOAD_LIMITS.maxAssembleChunks, `At most ${UPLOAD_LIMITS.maxAssembleChunks} chunks`);
const bundleSchema = z.object({
  checksum: sha1,
  chunks,
  projects: z
    .array(z.union([z.string().min(1).max(200), z.number().int().positive()]))
    .min(1, "Name at least one project")
    .max(1000),
  version: z.string().max(RELEASE_LIMITS.versionLength).nullish(),
  dist: z.string().max(64).nullish(),
});
const releaseBundleSchema = z.object({ checksum: sha1, chunks });

const answer = (state: AssembleState, missingChunks: string[] = [], detail: string | null = null): AssembleAnswer => ({ state, missingChunks, detail });

/** The stored form of a bundle's files: deflated, with their SHA-1 and size. */
function storedFiles(bundle: ArtifactBundle): NewArtifactFile[] {
  return bundle.files.map((f) => ({
    path: f.path,
    url: f.url,
    type: f.type,
    debugId: f.debugId,
    headers: f.headers,
    size: f.bytes.byteLength,
    sha1: sha1Hex(f.bytes),
    data: deflateRawSync(f.bytes),
  }));
}

type Target = { access: OrgAccess; checksum: string; chunks: string[]; links: (bundle: ArtifactBundle | null) => ArtifactLink[] };

/**
 * Bundles are assembled one at a time (UPLOAD_LIMITS.maxWaitingAssemblies): each may inflate hundreds of MiB. The
 * gate is kept on globalThis, as the live streams' registry is (web/live-streams.ts): the two assemble routes may each
 * load their own copy of this module in Next's bundle, and the gate must be one for the whole process.
 */
const GATE = Symbol.for("faultline.assemblyGate");
const holder = globalThis as typeof globalThis & { [GATE]?: SerialGate };
const oneAtATime = (holder[GATE] ??= serialGate(
  UPLOAD_LIMITS.maxWaitingAssemblies,
  () => new AppError("rate_limited", "Other bundles are being assembled; try again shortly"),
));

/** A bundle the organization already holds is linked again, and the chunks named for it are no longer needed. */
async function linkExisting(ctx: CoreContext, t: Target, now: string): Promise<boolean> {
  const existing = await ctx.store.bundleByChecksum(t.access.org.id, t.checksum);
  if (existing === null) return false;
  await ctx.store.linkBundle(existing, t.links(null), now);
  await ctx.store.deleteChunks(t.access.org.id, t.chunks);
  return true;
}

async function assemble(ctx: CoreContext, t: Target): Promise<AssembleAnswer> {
  const org = t.access.org.id;
  const now = new Date().toISOString();
  if (await linkExisting(ctx, t, now)) return answer("ok");
  if (t.chunks.length === 0) return answer("error", [], "No chunks were named for a bundle this server does not hold");
  const present = await ctx.store.presentChunks(org, t.chunks);
  const missing = [...new Set(t.chunks.filter((c) => !present.has(c)))];
  if (missing.length > 0) return answer("not_found", missing);
  // Another call may have assembled the same bundle while this one waited.
  return oneAtATime(async () => ((await linkExisting(ctx, t, now)) ? answer("ok") : build(ctx, t, now)));
}

/** Reads the chunks, checks and unzips the bundle, and stores its files. */
async function build(ctx: CoreContext, t: Target, now: string): Promise<AssembleAnswer> {
  const org = t.access.org.id;
  const stored = await ctx.store.readChunks(org, t.chunks);
  const size = t.chunks.reduce((n, c) => n + (stored.get(c)?.byteLength ?? 0), 0);
  if (size > UPLOAD_LIMITS.maxBundleSize) return answer("error", [], `The bundle is larger than ${UPLOAD_LIMITS.maxBundleSize} bytes`);
  const data = Buffer.concat(t.chunks.map((c) => stored.get(c) ?? new Uint8Array()));
  if (sha1Hex(data) !== t.checksum) {
    await ctx.store.deleteChunks(org, t.chunks);
    return answer("error", [], "The chunks do not assemble into a file with the given checksum");
  }
  let bundle: ArtifactBundle;
  try {
    bundle = readArtifactBundle(data, {
      maxFileSize: UPLOAD_LIMITS.maxFileSize,
      maxUnzippedSize: UPLOAD_LIMITS.maxBundleUnzippedSize,
      maxFiles: UPLOAD_LIMITS.maxBundleFiles,
    });
  } catch (err) {
    if (!(err instanceof BundleError)) throw err;
    await ctx.store.deleteChunks(org, t.chunks);
    return answer("error", [], `Invalid artifact bundle: ${err.message}`);
  }
  await ctx.store.createBundle({
    organizationId: org,
    checksum: t.checksum,
    bundleId: bundle.bundleId,
    size: data.byteLength,
    files: storedFiles(bundle),
    links: t.links(bundle),
    now,
  });
  await ctx.store.deleteChunks(org, t.chunks);
  return answer("ok");
}

/** The kinds of upload this server offers (FAULTLINE_CHUNK_UPLOAD_ACCEPT): an assembly it does not offer is not found. */
function offered(accept: readonly ChunkUploadKind[], kinds: ChunkUploadKind[], what: string): void {
  if (!accept.some((k) => kinds.includes(k))) throw notFound(what);
}

/** POST /organizations/{org}/artifactbundle/assemble/: a bundle for projects, bound to a release and dist if named. */
export async function assembleArtifactBundle(ctx: CoreContext, orgSlug: string, body: unknown, accept: readonly ChunkUploadKind[]): Promise<AssembleAnswer> {
  const access = await requireOrg(ctx, orgSlug, "release:write");
  offered(accept, ["artifact_bundles", "artifact_bundles_v2"], "Artifact bundle assembly");
  const input = parseInput(bundleSchema, body);
  const projects = await namedProjects(ctx, access.org, input.projects);
  return assemble(ctx, {
    access,
    checksum: input.checksum,
    chunks: input.chunks,
    links: (bundle) => {
      const release = input.version || bundle?.release || "";
      const dist = release ? input.dist || bundle?.dist || "" : "";
      return projects.map((p) => ({ projectId: p.id, release, dist }));
    },
  });
}

/** POST /organizations/{org}/releases/{version}/assemble/ (2.x without artifact bundles): for the release's projects. */
export async function assembleReleaseBundle(
  ctx: CoreContext,
  orgSlug: string,
  version: string,
  body: unknown,
  accept: readonly ChunkUploadKind[],
): Promise<AssembleAnswer> {
  const access = await requireOrg(ctx, orgSlug, "release:write");
  offered(accept, ["release_files"], "Release bundle assembly");
  const input = parseInput(releaseBundleSchema, body);
  const release = version.length <= RELEASE_LIMITS.versionLength ? await ctx.store.getRelease(access.org.id, version) : null;
  if (!release) throw notFound("Release");
  if (release.projects.length === 0) throw new AppError("bad_request", "The release has no projects");
  return assemble(ctx, {
    access,
    checksum: input.checksum,
    chunks: input.chunks,
    links: (bundle) => release.projects.map((p) => ({ projectId: p.projectId, release: release.version, dist: bundle?.dist ?? "" })),
  });
}
