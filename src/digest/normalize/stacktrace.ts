// Stack traces and frames: field types (relay-event-schema protocol/stacktrace.rs `Frame`, `RawStacktrace`), the
// abs_path/filename fix-up (relay-event-normalization stacktrace.rs `process_non_raw_frame`), and the frame limits
// (relay-event-normalization trimming.rs `enforce_frame_hard_limit`, `slim_frame_data`).
import { ErrorSink, path } from "./errors";
import { isObject, type JsonObject } from "./json";
import { type CharCap, FIELD_CAPS, FRAME_DATA_ALLOWANCE, MAX_FRAMES } from "./limits";
import { booleanField, objectField, stringArrayField, stringField, unsignedField } from "./strings";

/** A frame's string fields, with their Relay caps (FIELD_CAPS); `module`, `package` and `context_line` have none. */
const FRAME_STRINGS: [string, CharCap | undefined][] = [
  ["filename", FIELD_CAPS.framePath],
  ["abs_path", FIELD_CAPS.framePath],
  ["function", FIELD_CAPS.frameSymbol],
  ["raw_function", FIELD_CAPS.frameSymbol],
  ["symbol", FIELD_CAPS.frameSymbol],
  ["module", undefined],
  ["package", undefined],
  ["platform", undefined],
  ["context_line", undefined],
  ["instruction_addr", undefined],
  ["symbol_addr", undefined],
  ["image_addr", undefined],
  ["addr_mode", undefined],
  ["source_link", undefined],
  ["trust", FIELD_CAPS.frameEnum],
  ["lang", FIELD_CAPS.frameEnum],
];

function isUrl(filename: string): boolean {
  return filename.startsWith("file:") || filename.startsWith("http:") || filename.startsWith("https:") || filename.startsWith("applewebdata:");
}

/** The path of a URL as Rust's `url` crate gives it, or undefined when it does not parse. */
function urlPath(text: string): string | undefined {
  try {
    return new URL(text).pathname;
  } catch {
    return undefined;
  }
}

/**
 * Relay's `process_non_raw_frame`: an empty `abs_path` takes `filename`; an empty `filename` takes `abs_path`,
 * reduced to the URL path when it is a URL with a path other than "/".
 */
export function fixFramePaths(frame: JsonObject): void {
  const empty = (v: unknown) => v === undefined || v === null || v === "";
  if (empty(frame.abs_path)) {
    if (empty(frame.filename)) {
      delete frame.abs_path;
      delete frame.filename;
      return;
    }
    // The filename moves to abs_path and is made again from it below. Overwritten in place, not deleted and added
    // again: a deleted key turns the frame into a slow dictionary object for everything that reads it after
    // (browser SDKs send filename alone, so every frame of theirs).
    frame.abs_path = frame.filename;
    if (typeof frame.abs_path !== "string") {
      delete frame.filename;
      return;
    }
    frame.filename = "";
  }
  if (empty(frame.filename) && typeof frame.abs_path === "string") {
    const absPath = frame.abs_path;
    let filename = absPath;
    if (isUrl(absPath)) {
      const p = urlPath(absPath);
      if (p !== undefined && p !== "" && p !== "/") filename = p;
    }
    frame.filename = filename;
  }
}

function normalizeFrame(frame: JsonObject, name: string, sink: ErrorSink): void {
  for (const [key, maxChars] of FRAME_STRINGS) stringField(frame, key, name, sink, { maxChars });
  unsignedField(frame, "lineno", name, sink);
  unsignedField(frame, "colno", name, sink);
  booleanField(frame, "in_app", name, sink);
  booleanField(frame, "stack_start", name, sink);
  stringArrayField(frame, "pre_context", name, sink);
  stringArrayField(frame, "post_context", name, sink);
  objectField(frame, "vars", name, sink);
  objectField(frame, "data", name, sink);
  fixFramePaths(frame);
}

/** Relay's `slim_frame_data`: past the allowance, middle frames lose vars and context, system frames first. */
function slimFrameData(frames: JsonObject[]): void {
  if (frames.length <= FRAME_DATA_ALLOWANCE) return;
  const app: number[] = [];
  const system: number[] = [];
  frames.forEach((f, i) => (f.in_app === true ? app : system).push(i));
  const systemHalf = Math.floor(Math.max(0, FRAME_DATA_ALLOWANCE - app.length) / 2);
  const systemRemove = system.slice(systemHalf, system.length - systemHalf);
  const remaining = Math.max(0, frames.length - FRAME_DATA_ALLOWANCE - systemRemove.length);
  const appHalf = Math.floor(Math.max(0, app.length - remaining) / 2);
  const appRemove = app.slice(appHalf, app.length - appHalf);
  for (const i of [...systemRemove, ...appRemove]) {
    const f = frames[i];
    if (!f) continue;
    delete f.vars;
    delete f.pre_context;
    delete f.post_context;
  }
}

/**
 * Normalizes `parent[key]` as a stack trace: an object whose `frames` is an array of frame objects (oldest first).
 * Non-object frames are removed with `invalid_data`; beyond MAX_FRAMES the oldest frames are dropped.
 */
export function stacktraceField(parent: JsonObject, key: string, parentPath: string, sink: ErrorSink): void {
  const name = path(parentPath, key);
  const st = objectField(parent, key, parentPath, sink);
  if (!st) return;
  if (!("frames" in st)) return;
  if (!Array.isArray(st.frames)) {
    if (st.frames !== null) sink.add("invalid_data", path(name, "frames"), st.frames, { reason: "expected an array" });
    delete st.frames;
    return;
  }
  const frames: JsonObject[] = [];
  st.frames.forEach((f: unknown, i: number) => {
    if (isObject(f)) {
      normalizeFrame(f, path(path(name, "frames"), i), sink);
      frames.push(f);
    } else if (f !== null) sink.add("invalid_data", path(path(name, "frames"), i), f, { reason: "expected a frame" });
  });
  st.frames = frames.length > MAX_FRAMES ? frames.slice(frames.length - MAX_FRAMES) : frames;
  slimFrameData(st.frames as JsonObject[]);
  objectField(st, "registers", name, sink);
}
