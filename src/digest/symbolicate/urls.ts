// How a frame's `abs_path` names files: the names an upload may carry for it (Sentry's "~/path" form), where a
// minified file says its map is, and the original file's path and name from a map's `sources`.
import path from "node:path";

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** True for "https://…", "app:///…", "webpack://…", "file:///…": a URL rather than a plain file path. */
export const hasScheme = (s: string) => SCHEME.test(s);

function parsedUrl(s: string): URL | null {
  if (!hasScheme(s)) return null;
  try {
    return new URL(s);
  } catch {
    return null;
  }
}

/**
 * The names under which an upload may hold the file at `absPath`, most specific first (Sentry's release file lookup):
 * the URL as sent, without its query, then "~/path" with and without the query, for any scheme and host.
 * "https://cdn.example.com/static/app.js?v=2" → [that, "https://cdn.example.com/static/app.js", "~/static/app.js?v=2",
 * "~/static/app.js"]; a plain path "/srv/app/dist/x.js" → [itself, "~/srv/app/dist/x.js"].
 */
export function artifactUrlCandidates(absPath: string): string[] {
  const out: string[] = [];
  const add = (s: string) => {
    if (s && !out.includes(s)) out.push(s);
  };
  add(absPath);
  const url = parsedUrl(absPath);
  if (url) {
    const noQuery = absPath.split(/[?#]/, 1)[0]!;
    add(noQuery);
    const pathname = url.pathname.replace(/^\/+/, "/");
    if (url.search) add(`~${pathname}${url.search}`);
    add(`~${pathname}`);
  } else if (absPath.startsWith("~/")) {
    add(absPath.split(/[?#]/, 1)[0]!);
  } else if (absPath.startsWith("/")) {
    add(`~${absPath}`);
  }
  return out;
}

const SOURCE_MAPPING_URL = /^[ \t]*\/\/[#@][ \t]+sourceMappingURL=([^\s'"]+)[ \t]*$/gm;

/** Where a minified file says its map is: the `SourceMap` (or `X-SourceMap`) header, else the last `//# sourceMappingURL=`. */
export function sourceMappingUrl(text: string, headers: Record<string, string>): string | null {
  const header = headers["sourcemap"] ?? headers["x-sourcemap"];
  if (header) return header.trim();
  // Only the file's end is searched, where bundlers put the comment.
  const tail = text.length > 4096 ? text.slice(-4096) : text;
  let found: string | null = null;
  for (const m of tail.matchAll(SOURCE_MAPPING_URL)) found = m[1]!;
  return found;
}

/** `ref` (relative or absolute) resolved against the file at `base`; for "~/…" and plain paths, as a path. */
export function resolveAgainst(base: string, ref: string): string {
  if (hasScheme(ref) || ref.startsWith("data:")) return ref;
  const url = parsedUrl(base);
  if (url) {
    try {
      return new URL(ref, url).href;
    } catch {
      return ref;
    }
  }
  if (ref.startsWith("/")) return ref;
  const prefix = base.startsWith("~/") ? "~" : "";
  const joined = path.posix.join(path.posix.dirname(base.slice(prefix.length)), ref);
  return prefix + joined;
}

/** An inline map (`data:application/json;base64,…`) decoded, or null for any other URL. */
export function inlineMap(ref: string): Uint8Array | null {
  const m = /^data:application\/json(?:;charset=[^;,]+)?(;base64)?,(.*)$/is.exec(ref);
  if (!m) return null;
  return m[1] ? Buffer.from(m[2]!, "base64") : Buffer.from(decodeURIComponent(m[2]!), "utf8");
}

/**
 * A frame's `filename` for an original source's path: webpack's "webpack://app/./src/x.ts" → "./src/x.ts", a URL →
 * its path, "app:///src/x.ts" → "/src/x.ts"; anything else as it is.
 */
export function filenameOf(absPath: string): string {
  const webpack = /^webpack:\/\/[^/]*\/(.*)$/.exec(absPath);
  if (webpack) return webpack[1]!.startsWith(".") ? webpack[1]! : `./${webpack[1]!}`.replace(/^\.\/\.\//, "./");
  const url = parsedUrl(absPath);
  if (url) return decodeURI(url.pathname) || absPath;
  return absPath;
}

const NODE_MODULES = /\bnode_modules\//;

/**
 * Whether an original frame is the application's own code (Sentry's lang/javascript `is_in_app`): webpack sources
 * are unless under node_modules or "~/"; "app:" sources unless under node_modules; any path under node_modules is
 * not. Null: undecided, the frame keeps what the SDK said.
 */
export function isInApp(absPath: string, filename: string): boolean | null {
  if (absPath.startsWith("webpack:")) return !filename.startsWith("~/") && !NODE_MODULES.test(filename) && !filename.includes("/~/");
  if (absPath.startsWith("app:")) return !NODE_MODULES.test(filename);
  if (absPath.includes("/node_modules/")) return false;
  return null;
}
