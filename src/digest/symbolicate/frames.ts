// One minified JavaScript frame mapped through its source map: the original file, line, column and function, the
// source lines around it from `sourcesContent`, in_app from the original path, and `data.sourcemap` (which tells
// grouping a map was applied: the function name then stops counting when the context line does).
import type { JsNote } from "./notes";
import type { ResolvedWith } from "./locate";
import { originalPosition, sourceContext, type ParsedMap } from "./source-map";
import { filenameOf, isInApp, resolveAgainst } from "./urls";

type Json = Record<string, unknown>;

export type MappedFrame = { frame: Json; callName: string | null; note: JsNote | null } | { frame: null; note: JsNote };

/**
 * Maps `frame` (its `abs_path`, 1-based `lineno` and `colno`) through `map`. `callerCallName` is the original name
 * at the calling frame's position (the name the caller used for this function), Sentry's fallback for the function
 * name when the map has no scope for it. Returns the new frame and the original name at this frame's own position
 * (for the frame it calls), or a note.
 */
export function mapFrame(frame: Json, map: ParsedMap, resolvedWith: ResolvedWith, callerCallName: string | null): MappedFrame {
  const absPath = frame.abs_path as string;
  const lineno = frame.lineno as number;
  const colno = typeof frame.colno === "number" ? frame.colno : null;
  if (colno === null) return { frame: null, note: { type: "js_no_column", url: absPath } };
  const pos = originalPosition(map, lineno, colno - 1);
  if (pos === null) return { frame: null, note: { type: "js_invalid_sourcemap_location", source: absPath, row: lineno, column: colno } };
  const source = resolveAgainst(absPath, pos.source);
  const filename = filenameOf(source);
  const context = sourceContext(map, pos.source, pos.line, pos.column);
  const sent = typeof frame.function === "string" ? frame.function : null;
  // Without scopes in the map, the caller's original name for the call wins over the minified name, which is kept
  // when there is none (Sentry's get_function_for_token).
  const fn = callerCallName ?? sent;
  const mapped: Json = { ...frame, abs_path: source, filename, lineno: pos.line, colno: pos.column + 1 };
  if (fn !== null) mapped.function = fn;
  delete mapped.module; // named after the minified file
  delete mapped.pre_context;
  delete mapped.context_line;
  delete mapped.post_context;
  if (context) Object.assign(mapped, context);
  const inApp = isInApp(source, filename);
  if (inApp !== null) mapped.in_app = inApp;
  const data = frame.data && typeof frame.data === "object" && !Array.isArray(frame.data) ? (frame.data as Json) : {};
  mapped.data = { ...data, sourcemap: map.url, resolved_with: resolvedWith, symbolicated: true };
  const note: JsNote | null = context ? null : { type: "js_missing_sources_content", source, url: map.url };
  return { frame: mapped, callName: pos.name, note };
}
