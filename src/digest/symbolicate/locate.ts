// Finding the source map for a minified file, in Sentry's order: the debug id the event's `debug_meta` gives for the
// file, then the release's uploads by URL ("~/path"; the minified file's `sourceMappingURL`, or "<file>.map"), then,
// when the project allows it, the public URL. Parsed maps are cached (cache.ts); misses are remembered per batch.
import { SYMBOLICATION_LIMITS } from "../../config/limits";
import type { ArtifactFile, ArtifactReads } from "../../storage/artifact-ports";
import { isDataError } from "../failures";
import type { SourceMapCache } from "./cache";
import type { Fetcher } from "./fetch";
import type { JsNote } from "./notes";
import { InvalidSourceMap, parseSourceMap, type ParsedMap } from "./source-map";
import { artifactUrlCandidates, inlineMap, resolveAgainst, sourceMappingUrl } from "./urls";

export type ResolvedWith = "debug-id" | "release" | "scraping";
export type Located = { kind: "map"; map: ParsedMap; resolvedWith: ResolvedWith } | { kind: "note"; note: JsNote } | { kind: "none" };

/** An uploaded-files read failed (the database): the batch is digested again later rather than losing the maps. */
export class ArtifactsUnavailable extends Error {}

export type LocateScope = {
  projectId: number;
  release: string | null;
  dist: string | null;
  scrapeJavaScript: boolean;
  /** Fetches left for this event. */
  fetchesLeft: number;
};

const NONE: Located = { kind: "none" };

/** The last bytes of a minified file as text: where `sourceMappingURL` is. */
const tailText = (bytes: Uint8Array) => Buffer.from(bytes.subarray(Math.max(0, bytes.byteLength - 4096))).toString("utf8");

function parsed(bytes: Uint8Array, url: string, resolvedWith: ResolvedWith): Located {
  if (bytes.byteLength > SYMBOLICATION_LIMITS.maxFileBytes) return { kind: "note", note: { type: "js_too_large", url } };
  try {
    return { kind: "map", map: parseSourceMap(bytes, url), resolvedWith };
  } catch (err) {
    if (err instanceof InvalidSourceMap) return { kind: "note", note: { type: "js_invalid_source", url } };
    throw err;
  }
}

export class MapLocator {
  /** Per batch: lookups that found no map, so a burst of events without one asks the database once. */
  private readonly misses = new Map<string, Located>();
  /** Per batch: whether a release (of a project, with a dist) has any uploaded file; most have none. */
  private readonly releases = new Map<string, Promise<boolean>>();

  constructor(
    private readonly artifacts: ArtifactReads | null,
    private readonly fetcher: Fetcher | null,
    private readonly cache: SourceMapCache,
  ) {}

  startBatch(): void {
    this.misses.clear();
    this.releases.clear();
  }

  /** Whether the release has uploads at all, asked once per batch: without any, no URL of it needs a lookup. */
  private releaseHasFiles(s: LocateScope): Promise<boolean> {
    const key = `${s.projectId}|${s.release}|${s.dist ?? ""}`;
    let answer = this.releases.get(key);
    if (!answer) {
      answer = this.read(() => this.artifacts!.releaseHasFiles(s.projectId, s.release!, s.dist));
      this.releases.set(key, answer);
      answer.catch(() => this.releases.delete(key));
    }
    return answer;
  }

  /**
   * A read of uploaded files. When the database cannot answer, the batch is digested again later rather than with
   * frames left unmapped (ArtifactsUnavailable); an error about this event's own data (a URL PostgreSQL refuses, say)
   * is left as it is, so the record is retried alone and set aside like any other, never retried with its batch for ever.
   */
  private async read<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (err) {
      if (isDataError(err)) throw err;
      throw new ArtifactsUnavailable((err as Error).message);
    }
  }

  private async byUrl(s: LocateScope, url: string): Promise<ArtifactFile | null> {
    for (const candidate of artifactUrlCandidates(url)) {
      const file = await this.read(() => this.artifacts!.fileByUrl(s.projectId, s.release!, s.dist, candidate));
      if (file) return file;
    }
    return null;
  }

  /** Looks up one key: the cache, then this batch's misses, then `find` (whose map is cached for `ttlMs`). */
  private async cached(key: string, resolvedWith: ResolvedWith, ttlMs: number | null, find: () => Promise<Located>): Promise<Located> {
    const hit = this.cache.get(key);
    if (hit) return { kind: "map", map: hit, resolvedWith };
    const miss = this.misses.get(key);
    if (miss) return miss;
    const found = await find();
    if (found.kind === "map") this.cache.set(key, found.map, ttlMs);
    else this.misses.set(key, found);
    return found;
  }

  private byDebugId(s: LocateScope, debugId: string): Promise<Located> {
    return this.cached(`d|${s.projectId}|${debugId}`, "debug-id", null, async () => {
      const file = await this.read(() => this.artifacts!.fileByDebugId(s.projectId, debugId, "source_map"));
      return file ? parsed(file.bytes, file.url, "debug-id") : NONE;
    });
  }

  private byRelease(s: LocateScope, absPath: string): Promise<Located> {
    return this.cached(`r|${s.projectId}|${s.release}|${s.dist ?? ""}|${absPath}`, "release", SYMBOLICATION_LIMITS.cacheTtlMs, async () => {
      if (!(await this.releaseHasFiles(s))) return { kind: "note", note: { type: "js_no_source", url: absPath } };
      const minified = await this.byUrl(s, absPath);
      if (minified && minified.type === "source_map") return parsed(minified.bytes, minified.url, "release");
      if (minified) {
        const ref = sourceMappingUrl(tailText(minified.bytes), minified.headers);
        if (ref === null) return NONE; // a file without a map: nothing to map
        const inline = inlineMap(ref);
        if (inline) return parsed(inline, absPath, "release");
        const mapUrl = resolveAgainst(absPath, ref);
        const map = await this.byUrl(s, mapUrl);
        return map ? parsed(map.bytes, map.url, "release") : { kind: "note", note: { type: "js_no_source", url: mapUrl } };
      }
      // No minified file uploaded: its map may be, under the file's name with ".map".
      const map = await this.byUrl(s, `${absPath.split(/[?#]/, 1)[0]}.map`);
      return map ? parsed(map.bytes, map.url, "release") : { kind: "note", note: { type: "js_no_source", url: absPath } };
    });
  }

  private byFetch(s: LocateScope, absPath: string): Promise<Located> {
    return this.cached(`s|${s.projectId}|${absPath}`, "scraping", SYMBOLICATION_LIMITS.cacheTtlMs, async () => {
      s.fetchesLeft--;
      const minified = await this.fetcher!(absPath);
      if (!minified.ok) return { kind: "note", note: { type: minified.type, url: minified.url, ...(minified.value ? { value: minified.value } : {}) } };
      const ref = sourceMappingUrl(tailText(minified.file.bytes), minified.file.headers);
      if (ref === null) return NONE;
      const inline = inlineMap(ref);
      if (inline) return parsed(inline, absPath, "scraping");
      const mapUrl = resolveAgainst(absPath, ref);
      if (s.fetchesLeft <= 0) return NONE;
      s.fetchesLeft--;
      const map = await this.fetcher!(mapUrl);
      if (!map.ok) return { kind: "note", note: { type: map.type, url: map.url, ...(map.value ? { value: map.value } : {}) } };
      return parsed(map.file.bytes, mapUrl, "scraping");
    });
  }

  /**
   * The map for the minified file at `absPath` (with the debug id `debug_meta` gives it, if any): a map, a note saying
   * why there is none, or nothing when no map was asked for (no debug id, no release, fetching off).
   */
  async locate(s: LocateScope, absPath: string, debugId: string | null): Promise<Located> {
    const missing: Located = { kind: "note", note: { type: "js_no_source", url: absPath } };
    let note: Located = NONE;
    if (debugId) {
      const found = this.artifacts ? await this.byDebugId(s, debugId) : NONE;
      if (found.kind === "map") return found;
      note = found.kind === "note" ? found : missing;
    }
    if (s.release !== null) {
      const found = this.artifacts ? await this.byRelease(s, absPath) : missing;
      if (found.kind === "map" || (found.kind === "none" && note.kind === "none")) return found;
      if (note.kind === "none") note = found;
    }
    if (s.scrapeJavaScript && this.fetcher && s.fetchesLeft > 0 && /^https?:\/\//i.test(absPath)) {
      const found = await this.byFetch(s, absPath);
      if (found.kind === "map") return found;
      if (found.kind === "note") note = found;
    }
    return note;
  }
}
