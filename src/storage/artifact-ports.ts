// Source files uploaded by sentry-cli (artifact bundles through chunk upload, and legacy release files), as the digest
// reads them to symbolicate JavaScript frames. Written by the upload API (core/artifacts*.ts); read by
// digest/symbolicate. Header names are lower-cased, as Sentry reads them ("sourcemap", "debug-id").

/** Sentry's artifact file types (a bundle manifest's `type`); a legacy release file carries no type. */
export type ArtifactFileType = "minified_source" | "source_map" | "source" | "indexed_ram_bundle";

export type ArtifactFile = {
  /** The file's URL as uploaded, in Sentry's "~/path" form or absolute. */
  url: string;
  type: ArtifactFileType | null;
  headers: Record<string, string>;
  /** The file's bytes, uncompressed. */
  bytes: Uint8Array;
};

export interface ArtifactReads {
  /** The file of this project's artifact bundles that carries this debug id and type (the newest bundle's), or null. */
  fileByDebugId(projectId: number, debugId: string, type: "minified_source" | "source_map"): Promise<ArtifactFile | null>;
  /**
   * A file bound to a release (a legacy release file, or a file of a bundle uploaded with that release and dist) whose
   * URL is `url` ("~/static/app.js"), or null. `dist` null matches files uploaded without a dist.
   */
  fileByUrl(projectId: number, release: string, dist: string | null, url: string): Promise<ArtifactFile | null>;
  /** Whether any file is bound to this release and dist of the project (most releases have none: one query answers every URL). */
  releaseHasFiles(projectId: number, release: string, dist: string | null): Promise<boolean>;
}
