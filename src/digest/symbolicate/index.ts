// Symbolication of JavaScript events in the digest, before grouping: every frame of a JavaScript or Node.js stack
// trace whose minified file has a source map (by debug id, by release and URL, or fetched when the project allows it)
// is replaced by its original; the frames as sent are kept as the exception's or thread's `raw_stacktrace`. A missing
// or broken map leaves the frame as sent and adds a note to `event.errors` (notes.ts); symbolication never fails an
// event. Only frames that name a URL ("https://…", "app:///…") or have a debug id are looked up, so Node.js events
// with plain file paths and no uploads pass through untouched.
import { SYMBOLICATION_LIMITS } from "../../config/limits";
import type { ArtifactReads } from "../../storage/artifact-ports";
import { SourceMapCache } from "./cache";
import type { Fetcher } from "./fetch";
import { mapFrame } from "./frames";
import { ArtifactsUnavailable, type LocateScope, type Located, MapLocator } from "./locate";
import { NoteSink } from "./notes";
import { hasScheme } from "./urls";

export { ArtifactsUnavailable } from "./locate";
export { SourceMapCache } from "./cache";
export { publicFetcher } from "./fetch";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null);
const values = (v: unknown): Json[] => {
  const list = Array.isArray(v) ? v : obj(v)?.values;
  return Array.isArray(list) ? list.filter((x): x is Json => obj(x) !== null) : [];
};

/** What the symbolicator needs of an event's project. */
export type ProjectOptions = { id: number; scrapeJavaScript: boolean };

export type SymbolicatorDeps = {
  /** Files uploaded with sentry-cli; null where no store of them is wired (then only fetching can find maps). */
  artifacts: ArtifactReads | null;
  /** Fetches from public URLs for projects that allow it; null never fetches. */
  fetcher: Fetcher | null;
  cache?: SourceMapCache;
  log?: (line: string) => void;
};

const JS_PLATFORMS = new Set(["javascript", "node"]);

/** The debug ids `debug_meta.images` gives for minified files (type "sourcemap"), by the file's `code_file`. */
function debugIds(event: Json): Map<string, string> {
  const ids = new Map<string, string>();
  for (const image of values(obj(event.debug_meta)?.images)) {
    if (image.type === "sourcemap" && typeof image.code_file === "string" && typeof image.debug_id === "string")
      ids.set(image.code_file, image.debug_id.toLowerCase());
  }
  return ids;
}

/** The stack traces of an event with where a raw copy goes: exceptions' and threads' (kept raw), the event's own. */
function stacktraces(event: Json): { holder: Json; keepRaw: boolean }[] {
  const out: { holder: Json; keepRaw: boolean }[] = [];
  for (const e of values(event.exception)) out.push({ holder: e, keepRaw: true });
  for (const t of values(event.threads)) out.push({ holder: t, keepRaw: true });
  out.push({ holder: event, keepRaw: false });
  return out.filter(({ holder }) => Array.isArray(obj(holder.stacktrace)?.frames));
}

export class Symbolicator {
  readonly cache: SourceMapCache;
  private readonly locator: MapLocator;
  private readonly log: (line: string) => void;

  constructor(deps: SymbolicatorDeps) {
    this.cache = deps.cache ?? new SourceMapCache();
    this.locator = new MapLocator(deps.artifacts, deps.fetcher, this.cache);
    this.log = deps.log ?? (() => undefined);
  }

  /** Forgets the misses of the previous batch (uploads may have come since). */
  startBatch(): void {
    this.locator.startBatch();
  }

  /**
   * Symbolicates a normalized event in place. Throws only ArtifactsUnavailable (the uploads could not be read: the
   * batch is digested again later); anything else leaves the frames as sent.
   */
  async symbolicate(event: Json, project: ProjectOptions): Promise<void> {
    try {
      await this.run(event, project);
    } catch (err) {
      if (err instanceof ArtifactsUnavailable) throw err;
      this.log(`faultline: symbolication of event ${String(event.event_id)} left its frames as sent: ${(err as Error).message}`);
    }
  }

  /** Whether any frame of `traces` is one to map. Loops, not arrows made per event (kysely/batch-rows.ts sumBy says why). */
  private anyEligible(traces: ReturnType<typeof stacktraces>, platform: string, ids: Map<string, string>): boolean {
    for (const { holder } of traces)
      for (const f of obj(holder.stacktrace)!.frames as unknown[]) {
        const frame = obj(f);
        if (frame && this.eligible(frame, platform, ids)) return true;
      }
    return false;
  }

  private eligible(frame: Json, eventPlatform: string, ids: Map<string, string>): boolean {
    const platform = typeof frame.platform === "string" ? frame.platform : eventPlatform;
    if (!JS_PLATFORMS.has(platform) || typeof frame.abs_path !== "string" || typeof frame.lineno !== "number") return false;
    return ids.has(frame.abs_path) || hasScheme(frame.abs_path);
  }

  private async run(event: Json, project: ProjectOptions): Promise<void> {
    const platform = typeof event.platform === "string" ? event.platform : "other";
    const traces = stacktraces(event);
    const ids = debugIds(event);
    if (!this.anyEligible(traces, platform, ids)) return;
    const scope: LocateScope = {
      projectId: project.id,
      release: typeof event.release === "string" && event.release !== "" ? event.release : null,
      dist: typeof event.dist === "string" && event.dist !== "" ? event.dist : null,
      scrapeJavaScript: project.scrapeJavaScript,
      fetchesLeft: SYMBOLICATION_LIMITS.fetchMaxPerEvent,
    };
    const located = new Map<string, Located>();
    const notes = new NoteSink();
    for (const { holder, keepRaw } of traces) {
      const stacktrace = obj(holder.stacktrace)!;
      const frames = stacktrace.frames as unknown[];
      const out: unknown[] = [];
      let changed = false;
      let callName: string | null = null;
      // Oldest call first: each frame's position names the function the next frame is in.
      for (const raw of frames) {
        const frame = obj(raw);
        const callerName = callName;
        callName = null;
        if (!frame || !this.eligible(frame, platform, ids)) {
          out.push(raw);
          continue;
        }
        const absPath = frame.abs_path as string;
        let found = located.get(absPath);
        if (found === undefined) {
          found = located.size < SYMBOLICATION_LIMITS.maxFilesPerEvent ? await this.locator.locate(scope, absPath, ids.get(absPath) ?? null) : { kind: "none" };
          located.set(absPath, found);
        }
        if (found.kind === "note") notes.add(found.note);
        if (found.kind !== "map") {
          out.push(raw);
          continue;
        }
        const mapped = mapFrame(frame, found.map, found.resolvedWith, callerName);
        if (mapped.note) notes.add(mapped.note);
        if (mapped.frame === null) {
          out.push(raw);
          continue;
        }
        out.push(mapped.frame);
        callName = mapped.callName;
        changed = true;
      }
      if (!changed) continue;
      if (keepRaw) holder.raw_stacktrace = { ...stacktrace, frames };
      holder.stacktrace = { ...stacktrace, frames: out };
    }
    if (notes.notes.length > 0) event.errors = [...(Array.isArray(event.errors) ? event.errors : []), ...notes.notes];
  }
}
