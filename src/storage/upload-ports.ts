// The upload side of source files (sentry-cli's chunk upload, artifact bundle assembly and legacy release files),
// written by core/uploads*.ts; the digest reads the same files through artifact-ports.ts.
import type { ArtifactFileType } from "./artifact-ports";

/** Where a bundle's files apply: a project, and a release and dist ("" for none, as the links store them). */
export type ArtifactLink = { projectId: number; release: string; dist: string };

/** A file about to be stored: `data` is already deflated (raw), `size` the uncompressed size. */
export type NewArtifactFile = {
  path: string;
  url: string;
  type: ArtifactFileType | null;
  debugId: string | null;
  headers: Record<string, string>;
  size: number;
  sha1: string;
  data: Uint8Array;
};

export type NewArtifactBundle = {
  organizationId: number;
  checksum: string | null;
  bundleId: string | null;
  size: number;
  files: NewArtifactFile[];
  links: ArtifactLink[];
  now: string;
};

/** A stored file as listed (release page, legacy release files list), without its bytes. */
export type ArtifactListing = {
  fileId: number;
  bundleRowId: number;
  /** The bundle's SHA-1, null for a legacy release file. */
  checksum: string | null;
  /** The bundle's own debug id (its manifest's), if any. */
  bundleId: string | null;
  path: string;
  url: string;
  type: ArtifactFileType | null;
  debugId: string | null;
  headers: Record<string, string>;
  size: number;
  sha1: string;
  dist: string | null;
  createdAt: string;
};

export interface UploadStore {
  /** Stores chunks by SHA-1 for the organization; chunks it already holds are left as they are. */
  putChunks(organizationId: number, chunks: { checksum: string; data: Uint8Array }[], now: string): Promise<void>;
  /** Which of these checksums the organization holds as chunks. */
  presentChunks(organizationId: number, checksums: string[]): Promise<Set<string>>;
  /** The bytes of the organization's chunks waiting for assembly. */
  pendingChunkBytes(organizationId: number): Promise<number>;
  /** The chunks' bytes by checksum (absent ones are missing from the map). */
  readChunks(organizationId: number, checksums: string[]): Promise<Map<string, Uint8Array>>;
  deleteChunks(organizationId: number, checksums: string[]): Promise<void>;
  /** The row id of the organization's bundle with this SHA-1, or null. */
  bundleByChecksum(organizationId: number, checksum: string): Promise<number | null>;
  /**
   * Stores a bundle with its files and links in one transaction; returns its row id. A bundle whose checksum the
   * organization already holds (a concurrent assembly) is not stored twice: the existing one is linked instead.
   */
  createBundle(bundle: NewArtifactBundle): Promise<number>;
  /** Adds links to a stored bundle (existing ones stay) and marks it used now. */
  linkBundle(bundleRowId: number, links: ArtifactLink[], now: string): Promise<void>;
  /** Whether a file with this URL is bound to the project's release and dist. */
  releaseFileExists(link: ArtifactLink, url: string): Promise<boolean>;
  /** The files bound to a release in these projects (any dist), by URL then id, at most `limit`. */
  listReleaseFiles(projectIds: number[], release: string, limit: number): Promise<ArtifactListing[]>;
  /** Deletes a legacy release file (a bundle of one) bound to the release in these projects; false if none. */
  deleteReleaseFile(projectIds: number[], release: string, fileId: number): Promise<boolean>;
}
