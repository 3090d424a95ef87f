// Legacy release files (sentry-protocol.md §6 "Legacy release files"; removed in sentry-cli 3.0): one file per
// multipart POST to …/releases/{version}/files/ with its URL as `name`, an optional `dist` and `header` fields
// "Key:Value"; listed and deleted there too. Each is stored as an artifact bundle of one file, bound to the release's
// projects (or the route's project), so the digest finds it as it finds bundle files by URL.
import { deflateRawSync } from "node:zlib";
import { UPLOAD_LIMITS } from "../config/limits";
import { normalizeDebugId } from "../protocol/artifact-bundle";
import type { Project } from "../storage/ports";
import type { Release } from "../storage/release-ports";
import type { ArtifactListing } from "../storage/upload-ports";
import { requireId, requireOrg, requireText } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import type { Permission } from "./permissions";
import { hasControlCharacters } from "./schemas";
import { sha1Hex } from "./uploads";

export type ReleaseFileUpload = { file: { filename: string; data: Uint8Array } | null; name: string | null; dist: string | null; headers: string[] };

type Scope = { orgId: number; release: Release; projectIds: number[] };

async function scope(ctx: CoreContext, orgSlug: string, projectSlug: string | null, version: string, permission: Permission): Promise<Scope> {
  const access = await requireOrg(ctx, orgSlug, "project:read");
  if (permission !== "project:read") await requireOrg(ctx, orgSlug, permission);
  let project: Project | null = null;
  if (projectSlug !== null) {
    project = await ctx.store.getProjectBySlug(access.org.id, requireText(projectSlug, "Project"));
    if (!project) throw notFound("Project");
  }
  const release = await ctx.store.getRelease(access.org.id, requireText(version, "Release"));
  if (!release || (project && !release.projects.some((p) => p.projectId === project.id))) throw notFound("Release");
  return { orgId: access.org.id, release, projectIds: project ? [project.id] : release.projects.map((p) => p.projectId) };
}

/** Sentry's header field: "Key:Value", the name lower-cased as the digest reads it. */
function parseHeaders(fields: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const at = field.indexOf(":");
    if (at <= 0) throw new AppError("bad_request", "header must be in the form 'Key:Value'");
    if (hasControlCharacters(field)) throw new AppError("bad_request", "header must not contain control characters");
    out[field.slice(0, at).trim().toLowerCase()] = field.slice(at + 1).trim();
  }
  return out;
}

/**
 * POST …/files/: 201 with the file; 409 when the release already has a file with this name (and dist). The body is
 * read (`read`) only once the actor may write to an existing release.
 */
export async function uploadReleaseFile(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string | null,
  version: string,
  read: () => Promise<ReleaseFileUpload>,
): Promise<ArtifactListing> {
  const s = await scope(ctx, orgSlug, projectSlug, version, "release:write");
  const upload = await read();
  if (!upload.file) throw new AppError("bad_request", "Missing uploaded file");
  const name = (upload.name ?? upload.file.filename).trim();
  if (name === "" || name.length > 2000) throw new AppError("bad_request", "File name is missing or too long");
  if (hasControlCharacters(name)) throw new AppError("bad_request", "File name must not contain control characters");
  const dist = (upload.dist ?? "").trim();
  if (dist.length > 64) throw new AppError("bad_request", "dist is longer than 64 characters");
  if (hasControlCharacters(dist)) throw new AppError("bad_request", "dist must not contain control characters");
  const bytes = upload.file.data;
  if (bytes.byteLength > UPLOAD_LIMITS.maxFileSize) throw new AppError("payload_too_large", `The file is larger than ${UPLOAD_LIMITS.maxFileSize} bytes`);
  const headers = parseHeaders(upload.headers);
  if (s.projectIds.length === 0) throw new AppError("bad_request", "The release has no projects");
  const links = s.projectIds.map((projectId) => ({ projectId, release: s.release.version, dist }));
  for (const l of links) {
    if (await ctx.store.releaseFileExists(l, name)) throw new AppError("conflict", "A file matching this name already exists for the given release");
  }
  const sha1 = sha1Hex(bytes);
  const file = {
    path: name,
    url: name,
    type: null,
    debugId: normalizeDebugId(headers["debug-id"]),
    headers,
    size: bytes.byteLength,
    sha1,
    data: deflateRawSync(bytes),
  };
  await ctx.store.createBundle({
    organizationId: s.orgId,
    checksum: null,
    bundleId: null,
    size: bytes.byteLength,
    files: [file],
    links,
    now: new Date().toISOString(),
  });
  const listed = await ctx.store.listReleaseFiles(s.projectIds, s.release.version, UPLOAD_LIMITS.listedFiles);
  const stored = listed.find((f) => f.checksum === null && f.url === name && (f.dist ?? "") === dist);
  if (!stored) throw new Error("a stored release file was not found again");
  return stored;
}

/** GET …/files/: the release's files (bundle files and legacy release files), by URL. */
export async function listReleaseFiles(ctx: CoreContext, orgSlug: string, projectSlug: string | null, version: string): Promise<ArtifactListing[]> {
  const s = await scope(ctx, orgSlug, projectSlug, version, "project:read");
  return ctx.store.listReleaseFiles(s.projectIds, s.release.version, UPLOAD_LIMITS.listedFiles);
}

/** DELETE …/files/{id}/: a legacy release file (files of bundles go with their bundle's retention). */
export async function deleteReleaseFile(ctx: CoreContext, orgSlug: string, projectSlug: string | null, version: string, fileId: string): Promise<void> {
  const s = await scope(ctx, orgSlug, projectSlug, version, "release:write");
  if (!(await ctx.store.deleteReleaseFile(s.projectIds, s.release.version, requireId(fileId, "File")))) throw notFound("File");
}
