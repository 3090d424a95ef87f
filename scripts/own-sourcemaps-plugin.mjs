// The browser build's source maps, for Faultline's own errors and never for the public (next.config.mjs adds this to
// the client compilation of every production build, with or without a base path). Once webpack has written the
// chunks and their maps (productionBrowserSourceMaps), the real `sentry-cli sourcemaps inject` gives each chunk and
// its map the same debug id (the snippet that fills globalThis._sentryDebugIds, which the browser SDK sends as
// debug_meta.images); then every map moves out of the served static folder into <distDir>/faultline-sourcemaps/, and
// the chunks lose their `sourceMappingURL` comment, as webpack's hidden-source-map leaves them. `/_next/static/…map`
// thus answers 404; `faultline start` stores the maps for the internal project (src/server/own-sourcemaps.ts).
import { spawn } from "node:child_process";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

/** The private folder inside the dist dir; src/server/own-sourcemaps.ts reads the same name. */
export const OWN_SOURCEMAPS_DIR = "faultline-sourcemaps";

const require = createRequire(import.meta.url);

/** Runs sentry-cli 2.x's `sourcemaps inject` on a folder, offline: no update check, no .env, no configuration file. */
function inject(dir) {
  const bin = path.join(path.dirname(require.resolve("@sentry/cli/package.json")), "bin", "sentry-cli");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "sourcemaps", "inject", dir], {
      env: { PATH: process.env.PATH, HOME: os.tmpdir(), SENTRY_LOAD_DOTENV: "0", SENTRY_DISABLE_UPDATE_CHECK: "true" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`sentry-cli sourcemaps inject ${dir} exited ${code}: ${stderr.trim()}`))));
  });
}

// Drops a chunk's `//# sourceMappingURL=` line, or a stylesheet's `/*# sourceMappingURL=… */` one (the debug id
// comment stays).
async function dropMapReference(file) {
  const text = await readFile(file, "utf8").catch((err) => (err.code === "ENOENT" ? null : Promise.reject(err)));
  if (text === null) return;
  const stripped = text.replace(/\n(?:\/\/# sourceMappingURL=[^\n]*|\/\*# sourceMappingURL=[^\n]*?\*\/)(?=\n|$)/g, "");
  if (stripped !== text) await writeFile(file, stripped);
}

/**
 * Injects debug ids into the chunks under <outDir>/static/chunks and moves the maps (paths under outDir, "static/…")
 * into <outDir>/faultline-sourcemaps/, dropping each chunk's reference to its map.
 */
export async function injectAndHideSourceMaps(outDir, maps) {
  if (maps.length === 0) return;
  await inject(path.join(outDir, "static", "chunks"));
  const privateDir = path.join(outDir, OWN_SOURCEMAPS_DIR);
  await rm(privateDir, { recursive: true, force: true });
  for (const name of maps) {
    const to = path.join(privateDir, name.slice("static/".length));
    await mkdir(path.dirname(to), { recursive: true });
    await rename(path.join(outDir, name), to);
    await dropMapReference(path.join(outDir, name.slice(0, -".map".length)));
  }
}

/** For the client compilation of a production build: runs once its chunks and maps are written. */
export class OwnSourceMapsPlugin {
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise("FaultlineOwnSourceMaps", (compilation) =>
      injectAndHideSourceMaps(
        compiler.outputPath,
        Object.keys(compilation.assets).filter((name) => name.startsWith("static/") && name.endsWith(".map")),
      ),
    );
  }
}
