// At `faultline start`: the build's browser chunks and their maps (kept out of the served folder by
// scripts/own-sourcemaps-plugin.mjs) become one artifact bundle of the internal project (core/own-sourcemaps.ts), so
// Faultline's own browser errors read in original source. Runs after the server listens, never fails the start.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { type OwnBuildFile, type OwnMapsOutcome, storeOwnSourceMaps } from "../core/own-sourcemaps";
import { normalizeDebugId } from "../protocol/artifact-bundle";
import type { Store } from "../storage/ports";

/** The private folder inside the dist dir (OWN_SOURCEMAPS_DIR in scripts/own-sourcemaps-plugin.mjs). */
export const OWN_SOURCEMAPS_DIR = "faultline-sourcemaps";

const DEBUG_ID_COMMENT = /\/\/# debugId=([0-9a-fA-F-]{32,36})\s*$/;

async function mapFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) =>
    err.code === "ENOENT" ? [] : Promise.reject(err),
  );
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".js.map"))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
}

const missing = (err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? null : Promise.reject(err));

/**
 * The build's chunks that carry a debug id, each with its map: `rel` is a map's path under the private folder
 * ("chunks/app.js.map"), its chunk the same path under `static/`, served at `{basePath}/_next/static/{rel}`.
 */
export async function readOwnBuildFiles(distDir: string, basePath: string): Promise<OwnBuildFile[]> {
  const privateDir = path.join(distDir, OWN_SOURCEMAPS_DIR);
  const files: OwnBuildFile[] = [];
  for (const rel of await mapFiles(privateDir)) {
    const chunkRel = rel.slice(0, -".map".length);
    const chunk = await readFile(path.join(distDir, "static", chunkRel)).catch(missing);
    if (!chunk) continue;
    const debugId = normalizeDebugId(DEBUG_ID_COMMENT.exec(chunk.subarray(Math.max(0, chunk.byteLength - 200)).toString("utf8"))?.[1]);
    if (!debugId) continue;
    const map = await readFile(path.join(privateDir, rel));
    const served = `_next/static/${chunkRel}`;
    files.push(
      { path: served, url: `~${basePath}/${served}`, type: "minified_source", debugId, headers: { "debug-id": debugId }, bytes: chunk },
      { path: `${served}.map`, url: `~${basePath}/${served}.map`, type: "source_map", debugId, headers: { "debug-id": debugId }, bytes: map },
    );
  }
  return files;
}

/** Reads the build's maps and stores them for the internal project; the outcome, or the error as one line. */
export async function uploadOwnSourceMaps(store: Store, distDir: string, basePath: string): Promise<OwnMapsOutcome> {
  return storeOwnSourceMaps(store, await readOwnBuildFiles(distDir, basePath));
}

/** One log line for the outcome, never with a secret (no DSN, no key). */
export function describeOwnMaps(outcome: OwnMapsOutcome): string {
  switch (outcome.state) {
    case "stored":
      return `faultline: stored this build's ${outcome.files / 2} browser source maps for the internal project`;
    case "known":
      return "faultline: this build's browser source maps are already stored for the internal project";
    case "skipped":
      return `faultline: browser source maps not stored: ${outcome.reason}`;
  }
}
