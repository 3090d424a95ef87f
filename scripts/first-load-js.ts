// The first-load JavaScript of every route of a Next.js production build, gzipped, from the build's manifests and
// chunk files: what a browser downloads before the route is interactive. `npm run build` prints it as a table and
// tests/build/bundle-budget.test.ts holds every route to its budget (BUILD_LIMITS: the app router's, or the pages router's fallback pages').
//
// App Router: the page's entry plus every layout, template, error, loading and not-found entry of the segments above
// it (app-build-manifest.json lists each entry's chunks separately; the browser needs all of them). Pages Router (the
// docs): the page's entry plus /_app (build-manifest.json). A chunk several of these entries share counts once per
// route. Polyfills are left out: they load only in browsers without ES modules.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { firstLoadBudget } from "../src/config/limits";

export type RouteSize = { route: string; router: "app" | "pages"; files: string[]; gzipBytes: number };

type Manifest = { pages: Record<string, string[]> };

const SEGMENT_FILES = ["layout", "template", "error", "loading", "not-found"];
const PAGES_INTERNAL = new Set(["/_app", "/_error", "/_document"]);

function readManifest(distDir: string, name: string): Manifest {
  const file = path.join(distDir, name);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return JSON.parse(readFileSync(file, "utf8")) as Manifest;
}

/** The app-build-manifest entries a page needs: its own and those of the special files of every segment above it. */
function appEntries(pageKey: string, pages: Manifest["pages"]): string[] {
  const segments = pageKey.slice(0, -"/page".length).split("/").filter(Boolean);
  const entries = [pageKey];
  for (let depth = 0; depth <= segments.length; depth++) {
    const dir = segments
      .slice(0, depth)
      .map((s) => `/${s}`)
      .join("");
    for (const special of SEGMENT_FILES) if (pages[`${dir}/${special}`]) entries.push(`${dir}/${special}`);
  }
  return entries;
}

/** Every route's first-load JS files and their gzipped size (gzip level 9, as Next's own build output). */
export function firstLoadSizes(distDir = ".next"): RouteSize[] {
  const gzipped = new Map<string, number>();
  const size = (file: string) => {
    let n = gzipped.get(file);
    if (n === undefined) gzipped.set(file, (n = gzipSync(readFileSync(path.join(distDir, file)), { level: 9 }).length));
    return n;
  };
  const measure = (route: string, router: RouteSize["router"], entries: string[], pages: Manifest["pages"]): RouteSize => {
    const files = [...new Set(entries.flatMap((e) => pages[e] ?? []))].filter((f) => f.endsWith(".js"));
    return { route, router, files, gzipBytes: files.reduce((sum, f) => sum + size(f), 0) };
  };
  const app = readManifest(distDir, "app-build-manifest.json").pages;
  const pages = readManifest(distDir, "build-manifest.json").pages;
  const routes: RouteSize[] = [];
  for (const key of Object.keys(app).filter((k) => k.endsWith("/page")))
    routes.push(measure(key.slice(0, -"/page".length) || "/", "app", appEntries(key, app), app));
  for (const key of Object.keys(pages).filter((k) => !PAGES_INTERNAL.has(k))) routes.push(measure(key, "pages", [key, "/_app"], pages));
  return routes.sort((a, b) => a.route.localeCompare(b.route));
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The table `npm run build` prints: one row per route, marked when it is over the budget. */
export function firstLoadTable(routes: RouteSize[]): string {
  const width = Math.max(...routes.map((r) => r.route.length), 5);
  const lines = [
    `First-load JavaScript per route (gzipped; budget ${kB(firstLoadBudget("app"))} for the app router, ${kB(firstLoadBudget("pages"))} for the pages router's fallback pages)`,
    `  ${"route".padEnd(width)}  router  first load  chunks`,
  ];
  for (const r of routes) {
    lines.push(
      `  ${r.route.padEnd(width)}  ${r.router.padEnd(6)}  ${kB(r.gzipBytes).padStart(10)}  ${String(r.files.length).padStart(6)}${r.gzipBytes > firstLoadBudget(r.router) ? "  OVER BUDGET" : ""}`,
    );
  }
  return lines.join("\n");
}

/**
 * Whether a built chunk contains uPlot: two of its string constants (its root class name and the cursor point's class),
 * which survive minification.
 */
export function containsUplot(code: string): boolean {
  return /["'`]uplot["'`]/.test(code) && code.includes("cursor-pt");
}
