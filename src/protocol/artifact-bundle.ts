// sentry-cli's artifact bundle (sentry-protocol.md §6 "sourcemaps upload"): a ZIP, with the magic bytes "SYSB" and a
// little-endian u32 version in front (symbolic's source bundle), holding `manifest.json` and the files it lists. Pure:
// bytes in, the manifest's files out, or a BundleError saying what is wrong. Sizes are checked against the limits
// before anything is inflated (fflate inflates into a buffer of the declared size, so a lying entry cannot grow it).
import { unzipSync } from "fflate";
import type { ArtifactFileType } from "../storage/artifact-ports";

export type BundleLimits = { maxFileSize: number; maxUnzippedSize: number; maxFiles: number };

export type BundleFile = {
  path: string;
  url: string;
  type: ArtifactFileType | null;
  headers: Record<string, string>;
  debugId: string | null;
  bytes: Uint8Array;
};

export type ArtifactBundle = {
  /** The manifest's `debug_id`: the bundle's own id. */
  bundleId: string | null;
  release: string | null;
  dist: string | null;
  files: BundleFile[];
};

export class BundleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BundleError";
  }
}

const MAGIC = [0x53, 0x59, 0x53, 0x42]; // "SYSB"
const HEADER_BYTES = 8;
const MANIFEST = "manifest.json";
const TYPES = new Set<string>(["minified_source", "source_map", "source", "indexed_ram_bundle"]);
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A debug id as stored and looked up: lower-case, dashed (sentry-cli writes them so; some tools leave out dashes). */
export function normalizeDebugId(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const v = value.trim();
  // Sentry's debug ids may carry an appendix ("…-1a"): only the UUID part names a JavaScript file.
  const uuid = v.slice(0, 36).match(UUID) ? v.slice(0, 36) : v.slice(0, 32).match(UUID) ? v.slice(0, 32) : null;
  if (!uuid) return null;
  const hex = uuid.replace(/-/g, "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function hasMagic(data: Uint8Array): boolean {
  return data.length >= HEADER_BYTES && MAGIC.every((b, i) => data[i] === b);
}

type Entries = Record<string, Uint8Array>;

function unzip(zip: Uint8Array, limits: BundleLimits): Entries {
  let total = 0;
  let count = 0;
  return unzipSync(zip, {
    filter(f) {
      if (f.name.endsWith("/")) return false;
      if (++count > limits.maxFiles + 1) throw new BundleError(`the bundle holds more than ${limits.maxFiles} files`);
      if (f.originalSize > limits.maxFileSize) throw new BundleError(`${f.name} is larger than ${limits.maxFileSize} bytes`);
      total += f.originalSize;
      if (total > limits.maxUnzippedSize) throw new BundleError(`the bundle's files are larger than ${limits.maxUnzippedSize} bytes together`);
      return true;
    },
  });
}

/** The names a ZIP lists (nothing inflated), or null when it does not read as a ZIP. */
function names(zip: Uint8Array): string[] | null {
  const out: string[] = [];
  try {
    unzipSync(zip, {
      filter(f) {
        out.push(f.name);
        return false;
      },
    });
    return out;
  } catch {
    return null;
  }
}

/**
 * The ZIP's entries. The ZIP's offsets may count from the magic header (zip writers that know their position) or from
 * the ZIP itself: the reading that lists a manifest is the bundle.
 */
function entries(data: Uint8Array, limits: BundleLimits): Entries {
  const candidates = hasMagic(data) ? [data.subarray(HEADER_BYTES), data] : [data];
  let readable = false;
  for (const zip of candidates) {
    const listed = names(zip);
    readable ||= listed !== null;
    if (!listed?.includes(MANIFEST)) continue;
    try {
      return unzip(zip, limits);
    } catch (err) {
      if (err instanceof BundleError) throw err;
      throw new BundleError(`the bundle is not a valid ZIP archive (${(err as Error).message})`);
    }
  }
  throw new BundleError(readable ? `the bundle has no ${MANIFEST}` : "the bundle is not a valid ZIP archive");
}

const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

function headersOf(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k.toLowerCase()] = v;
  return out;
}

/** Reads a bundle; BundleError for a bad ZIP, a missing or malformed manifest, a listed file that is absent or too large. */
export function readArtifactBundle(data: Uint8Array, limits: BundleLimits): ArtifactBundle {
  const zip = entries(data, limits);
  let manifest: unknown;
  try {
    manifest = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(zip[MANIFEST]));
  } catch {
    throw new BundleError(`${MANIFEST} is not valid JSON`);
  }
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) throw new BundleError(`${MANIFEST} is not an object`);
  const m = manifest as Record<string, unknown>;
  const listed = m.files;
  if (typeof listed !== "object" || listed === null || Array.isArray(listed)) throw new BundleError(`${MANIFEST} has no "files" object`);
  const files: BundleFile[] = [];
  for (const [path, info] of Object.entries(listed as Record<string, unknown>)) {
    if (typeof info !== "object" || info === null) throw new BundleError(`${MANIFEST}: the entry of ${path} is not an object`);
    const entry = info as Record<string, unknown>;
    const url = text(entry.url);
    if (!url) throw new BundleError(`${MANIFEST}: ${path} has no url`);
    const bytes = Object.hasOwn(zip, path) ? zip[path] : undefined;
    if (!bytes) throw new BundleError(`${MANIFEST} lists ${path}, which the bundle does not hold`);
    const type = typeof entry.type === "string" && TYPES.has(entry.type) ? (entry.type as ArtifactFileType) : null;
    const headers = headersOf(entry.headers);
    files.push({ path, url, type, headers, debugId: normalizeDebugId(headers["debug-id"]), bytes });
  }
  return { bundleId: normalizeDebugId(m.debug_id), release: text(m.release), dist: text(m.dist), files };
}
