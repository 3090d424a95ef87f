// Faultline's own browser source maps (self-monitoring): the minified chunks and maps of the running build, stored
// as one artifact bundle of the internal project, the model sentry-cli's uploads produce (core/artifact-assemble.ts),
// so the digest maps the internal project's browser frames by debug id (digest/symbolicate/locate.ts). The build
// never serves the maps (scripts/own-sourcemaps-plugin.mjs moves them out of the static folder); `faultline start`
// reads them (server/own-sourcemaps.ts) and calls this. The bundle is known by a SHA-1 over its files, so a restart
// of the same build stores nothing and only marks the bundle used (retention keeps bundles 90 days after last use),
// and a new build adds its own bundle.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { deflateRaw } from "node:zlib";
import { UPLOAD_LIMITS } from "../config/limits";
import type { Store } from "../storage/ports";
import type { ArtifactLink, NewArtifactFile } from "../storage/upload-ports";
import { findInternalProject } from "./internal-project";
import { sha1Hex } from "./uploads";

const deflateRawAsync = promisify(deflateRaw);

/** One file of the build, as a bundle manifest would list it. */
export type OwnBuildFile = {
  /** The file's path in the bundle ("_next/static/chunks/app.js"). */
  path: string;
  /** Sentry's "~/path" form of its served URL, the base path included. */
  url: string;
  type: "minified_source" | "source_map";
  debugId: string;
  headers: Record<string, string>;
  bytes: Uint8Array;
};

export type OwnMapsOutcome = { state: "stored" | "known"; bundleRowId: number; files: number } | { state: "skipped"; reason: string };

/** Why these files cannot be one bundle under the upload limits, or null. */
function overLimits(files: OwnBuildFile[]): string | null {
  if (files.length > UPLOAD_LIMITS.maxBundleFiles) return `more than ${UPLOAD_LIMITS.maxBundleFiles} files`;
  const large = files.find((f) => f.bytes.byteLength > UPLOAD_LIMITS.maxFileSize);
  if (large) return `${large.path} is larger than ${UPLOAD_LIMITS.maxFileSize} bytes`;
  const total = files.reduce((n, f) => n + f.bytes.byteLength, 0);
  return total > UPLOAD_LIMITS.maxBundleUnzippedSize ? `the files are larger than ${UPLOAD_LIMITS.maxBundleUnzippedSize} bytes together` : null;
}

/** The bundle's identity: a SHA-1 over every file's path, type, debug id and content, in path order. */
function bundleChecksum(files: { path: string; type: string; debugId: string; sha1: string }[]): string {
  const hash = createHash("sha1");
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) hash.update(`${f.path}\0${f.type}\0${f.debugId}\0${f.sha1}\n`);
  return hash.digest("hex");
}

/**
 * Stores the build's files as one bundle of the internal project, or links the bundle already stored for the same
 * files. Skips (saying why) without an internal project, without files, or beyond the upload limits.
 */
export async function storeOwnSourceMaps(store: Store, files: OwnBuildFile[], now: Date = new Date()): Promise<OwnMapsOutcome> {
  if (files.length === 0) return { state: "skipped", reason: "the build has no browser source maps" };
  const internal = await findInternalProject(store);
  if (!internal) return { state: "skipped", reason: "there is no internal project" };
  const over = overLimits(files);
  if (over) return { state: "skipped", reason: over };

  const organizationId = internal.organization.id;
  const links: ArtifactLink[] = [{ projectId: internal.project.id, release: "", dist: "" }];
  const hashed = files.map((f) => ({ ...f, sha1: sha1Hex(f.bytes) }));
  const checksum = bundleChecksum(hashed);
  const at = now.toISOString();
  const existing = await store.bundleByChecksum(organizationId, checksum);
  if (existing !== null) {
    await store.linkBundle(existing, links, at);
    return { state: "known", bundleRowId: existing, files: files.length };
  }
  // Deflated in zlib's thread pool: the server is already answering requests.
  const stored: NewArtifactFile[] = [];
  for (const f of hashed) {
    stored.push({
      path: f.path,
      url: f.url,
      type: f.type,
      debugId: f.debugId,
      headers: f.headers,
      size: f.bytes.byteLength,
      sha1: f.sha1,
      data: await deflateRawAsync(f.bytes),
    });
  }
  const size = stored.reduce((n, f) => n + f.data.byteLength, 0);
  if (size > UPLOAD_LIMITS.maxBundleSize) return { state: "skipped", reason: `the bundle is larger than ${UPLOAD_LIMITS.maxBundleSize} bytes` };
  const bundleRowId = await store.createBundle({ organizationId, checksum, bundleId: null, size, files: stored, links, now: at });
  return { state: "stored", bundleRowId, files: files.length };
}
