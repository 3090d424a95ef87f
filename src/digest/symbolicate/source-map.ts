// One source map, parsed (@jridgewell/trace-mapping: plain and indexed maps), and what a frame needs from it: the
// original position and name at a minified line and column, and the original source lines around it from
// `sourcesContent`.
import { FlattenMap, originalPositionFor, sourceContentFor, type TraceMap } from "@jridgewell/trace-mapping";
import { SYMBOLICATION_LIMITS } from "../../config/limits";

export type ParsedMap = {
  /** Where the map came from (its artifact or fetched URL), as the frame's `data.sourcemap` names it. */
  url: string;
  /** The map's size in bytes, for the cache's budget. */
  bytes: number;
  map: TraceMap;
  /** Lines of each source's `sourcesContent`, split when first asked for. */
  lines: Map<string, string[] | null>;
};

export class InvalidSourceMap extends Error {}

const XSSI_PREFIX = ")]}'";
const MAPPINGS = /^[A-Za-z0-9+/,;]*$/;

/** Parses a map's bytes; throws InvalidSourceMap for anything that is not a source map. */
export function parseSourceMap(bytes: Uint8Array, url: string): ParsedMap {
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  // The spec allows a line that makes the file unparseable as script; it is skipped before parsing.
  if (text.startsWith(XSSI_PREFIX)) text = text.slice(text.indexOf("\n") + 1);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidSourceMap("not JSON");
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) throw new InvalidSourceMap("not an object");
  const m = json as Record<string, unknown>;
  const indexed = Array.isArray(m.sections);
  if (!indexed && (typeof m.mappings !== "string" || !Array.isArray(m.sources))) throw new InvalidSourceMap("no mappings or sources");
  // The decoder reads any character as some number; only base64 VLQ digits and separators make mappings.
  const sections = indexed ? (m.sections as { map?: { mappings?: unknown } }[]).map((s) => s?.map?.mappings) : [m.mappings];
  if (sections.some((x) => typeof x === "string" && !MAPPINGS.test(x))) throw new InvalidSourceMap("mappings are not base64 VLQ");
  try {
    const map = new FlattenMap(m as never);
    // Decoding is lazy in trace-mapping; a first lookup decodes everything, so a broken `mappings` fails here.
    originalPositionFor(map, { line: 1, column: 0 });
    return { url, bytes: bytes.byteLength, map, lines: new Map() };
  } catch (err) {
    throw new InvalidSourceMap((err as Error).message);
  }
}

export type OriginalPosition = { source: string; line: number; column: number; name: string | null };

/** The original position of a minified line (1-based) and column (0-based), or null when the map has none there. */
export function originalPosition(parsed: ParsedMap, line: number, column: number): OriginalPosition | null {
  if (line < 1 || column < 0) return null;
  const p = originalPositionFor(parsed.map, { line, column });
  if (p.source === null || p.line === null || p.column === null) return null;
  return { source: p.source, line: p.line, column: p.column, name: p.name };
}

function sourceLines(parsed: ParsedMap, source: string): string[] | null {
  let lines = parsed.lines.get(source);
  if (lines === undefined) {
    const content = sourceContentFor(parsed.map, source);
    lines = content === null ? null : content.split(/\r\n|\r|\n/);
    parsed.lines.set(source, lines);
  }
  return lines;
}

/** Cuts a long line to about `maxContextLineLength` characters around the column, marking the cuts as Sentry does. */
export function trimLine(line: string, column: number): string {
  const max = SYMBOLICATION_LIMITS.maxContextLineLength;
  if (line.length <= max) return line;
  const start = Math.max(0, Math.min(column - 60, line.length - max + 10));
  const end = Math.min(line.length, start + max - 10);
  return `${start > 0 ? "{snip} " : ""}${line.slice(start, end)}${end < line.length ? " {snip}" : ""}`;
}

export type SourceContext = { pre_context: string[]; context_line: string; post_context: string[] };

/** The source lines around `line` (1-based) of `source`, or null without `sourcesContent` or beyond its end. */
export function sourceContext(parsed: ParsedMap, source: string, line: number, column: number): SourceContext | null {
  const lines = sourceLines(parsed, source);
  if (lines === null || line < 1 || line > lines.length) return null;
  const n = SYMBOLICATION_LIMITS.contextLines;
  const i = line - 1;
  return {
    pre_context: lines.slice(Math.max(0, i - n), i).map((l) => trimLine(l, 0)),
    context_line: trimLine(lines[i]!, column),
    post_context: lines.slice(i + 1, i + 1 + n).map((l) => trimLine(l, 0)),
  };
}
