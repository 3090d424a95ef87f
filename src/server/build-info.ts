// What the production build fixes for the server: its base path (FAULTLINE_BASE_PATH at build time).
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The Next.js configuration the build in `distDir` was made with, as the build wrote it out (with every default filled
 * in): what `next start` would compute again from next.config.mjs; throws when there is no build there.
 */
export function builtNextConfig(distDir: string): { basePath?: string } & Record<string, unknown> {
  const file = path.join(distDir, "required-server-files.json");
  let config: unknown;
  try {
    config = (JSON.parse(readFileSync(file, "utf8")) as { config?: unknown }).config;
  } catch {
    config = null;
  }
  if (typeof config !== "object" || config === null) throw new Error(`No production build found in ${distDir}: run \`npm run build\` first.`);
  return config as { basePath?: string } & Record<string, unknown>;
}

/** The base path the build in `distDir` serves under; throws when there is no build there. */
export const builtBasePath = (distDir: string): string => builtNextConfig(distDir).basePath ?? "";

/** The build's folder under the package root (FAULTLINE_DIST_DIR, relative to it, or .next). */
export const distDirOf = (rootDir: string): string => path.join(rootDir, process.env.FAULTLINE_DIST_DIR || ".next");

/**
 * The ids of the build's server actions (its server-reference-manifest.json), which a form posted without JavaScript
 * must name (server/form-action.ts); null when the build has no such file, and then any well-formed id passes.
 */
export function builtActionIds(distDir: string): ReadonlySet<string> | null {
  try {
    const file = path.join(distDir, "server", "server-reference-manifest.json");
    const manifest = JSON.parse(readFileSync(file, "utf8")) as { node?: Record<string, unknown>; edge?: Record<string, unknown> };
    return manifest.node ? new Set([...Object.keys(manifest.node), ...Object.keys(manifest.edge ?? {})]) : null;
  } catch {
    return null;
  }
}
