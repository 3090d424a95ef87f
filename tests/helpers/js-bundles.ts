// Real minified bundles and source maps for the symbolication tests: a small TypeScript app bundled and minified by
// esbuild (with sourcesContent) into a temporary directory, run in this process under the URL a browser would load it
// from, and its error turned into Sentry frames by @sentry/node's own stack parser. The files are served to the
// symbolicator by `dirArtifacts`, an ArtifactReads over a Map of URLs to files in that directory.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { defaultStackParser } from "@sentry/node";
import { build } from "esbuild";
import type { ArtifactFile, ArtifactFileType, ArtifactReads } from "../../src/storage/artifact-ports";

const SOURCES: Record<string, string> = {
  "src/cart.ts": `export type Item = { price: number; qty: number };

export function totalOf(items: Item[]): number {
  let total = 0;
  for (const item of items) {
    if (item.qty < 0) throw new RangeError("negative quantity for " + item.price);
    total += item.price * item.qty;
  }
  return total;
}
`,
  "src/checkout.ts": `import { type Item, totalOf } from "./cart";

export function checkout(items: Item[]): { total: number; currency: string } {
  const total = totalOf(items);
  return { total, currency: "EUR" };
}
`,
  "src/format.ts": `export function formatPrice(cents: number): string {
  const euros = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, "0");
  return euros + "," + rest + " EUR";
}

export const CURRENCIES = ["EUR", "USD", "GBP"].map((c) => c.toLowerCase());
`,
  "src/entry-a.ts": `import { checkout } from "./checkout";

(globalThis as Record<string, unknown>).runCheckout = (items: { price: number; qty: number }[]) => checkout(items);
`,
  // The same checkout code in a build whose minified output differs: more code before it, other short names.
  "src/entry-b.ts": `import { CURRENCIES, formatPrice } from "./format";
import { checkout } from "./checkout";

(globalThis as Record<string, unknown>).label = (total: number) => CURRENCIES.length + " " + formatPrice(total);
(globalThis as Record<string, unknown>).runCheckout = (items: { price: number; qty: number }[]) => checkout(items);
`,
};

export type Bundle = { dir: string; js: string; map: string; code: string };

/** Writes the app's sources to `dir` and bundles entry "a" or "b" to dir/dist-{variant}/app.js and app.js.map. */
export async function buildBundle(dir: string, variant: "a" | "b", opts: { sourcesContent?: boolean } = {}): Promise<Bundle> {
  for (const [file, text] of Object.entries(SOURCES)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const outdir = path.join(dir, `dist-${variant}`);
  await build({
    entryPoints: { app: path.join(dir, `src/entry-${variant}.ts`) },
    bundle: true,
    minify: true,
    format: "iife",
    sourcemap: "external",
    sourcesContent: opts.sourcesContent ?? true,
    outdir,
    logLevel: "silent",
  });
  const js = path.join(outdir, "app.js");
  writeFileSync(js, `${readFileSync(js, "utf8").trimEnd()}\n//# sourceMappingURL=app.js.map\n`);
  return { dir, js, map: `${js}.map`, code: readFileSync(js, "utf8") };
}

type SentryFrame = Record<string, unknown>;

/**
 * Runs the bundle as if loaded from `url`, calls runCheckout with a negative quantity and returns the thrown error's
 * frames as @sentry/node's stack parser gives them, oldest call first, only those in the bundle.
 */
export function crashFrames(bundle: Bundle, url: string): SentryFrame[] {
  const context = vm.createContext({});
  vm.runInContext(bundle.code, context, { filename: url });
  try {
    vm.runInContext("runCheckout([{ price: 250, qty: 1 }, { price: 100, qty: -1 }])", context, { filename: "test:call" });
  } catch (err) {
    const frames = defaultStackParser((err as Error).stack ?? "") as SentryFrame[];
    // As @sentry/browser sends them: `filename` is the URL; the digest's normalization makes it `abs_path` (Relay).
    return frames.filter((f) => f.filename === url);
  }
  throw new Error("runCheckout did not throw");
}

/** A browser JavaScript error event with these frames. */
export function jsEvent(frames: SentryFrame[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_id: crypto.randomUUID().replaceAll("-", ""),
    platform: "javascript",
    timestamp: Date.now() / 1000,
    exception: { values: [{ type: "RangeError", value: "negative quantity for 100", stacktrace: { frames } }] },
    ...extra,
  };
}

export type DirFile = { path: string; type?: ArtifactFileType | null; headers?: Record<string, string> };

/**
 * An ArtifactReads over files on disk: by debug id, and by (release, dist, URL). Stands in for the uploaded-files
 * storage in tests of the symbolicator's logic; reads are counted.
 */
export function dirArtifacts(entries: { byDebugId?: Map<string, DirFile>; byUrl?: Map<string, DirFile & { release: string; dist?: string | null }> }) {
  const reads = { debugId: 0, url: 0, release: 0 };
  const load = (url: string, f: DirFile): ArtifactFile => ({ url, type: f.type ?? null, headers: f.headers ?? {}, bytes: readFileSync(f.path) });
  const artifacts: ArtifactReads = {
    async fileByDebugId(_projectId, debugId, type) {
      reads.debugId++;
      const f = entries.byDebugId?.get(`${debugId}|${type}`);
      return f ? load(`~/${path.basename(f.path)}`, f) : null;
    },
    async fileByUrl(_projectId, release, dist, url) {
      reads.url++;
      const f = entries.byUrl?.get(url);
      return f && f.release === release && (f.dist ?? null) === dist ? load(url, f) : null;
    },
    async releaseHasFiles(_projectId, release, dist) {
      reads.release++;
      return [...(entries.byUrl?.values() ?? [])].some((f) => f.release === release && (f.dist ?? null) === dist);
    },
  };
  return { artifacts, reads };
}
