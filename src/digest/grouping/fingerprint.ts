// Custom and hybrid fingerprints: classifying a fingerprint, resolving its `{{ variables }}`
// against the event, and hashing it (getsentry/sentry src/sentry/grouping/utils.py
// `resolve_fingerprint_variable`, `resolve_fingerprint_values`, `get_fingerprint_type`;
// stacktraces/processing.py `get_crash_frame_from_event_data`; variants.py
// `CustomFingerprintVariant`, `SaltedComponentVariant`). Unknown variables stay as written, as
// `newstyle:2023-01-11` does (its legacy unknown-variable handling).
import { iterValues, hashFromValues, type GroupingComponent } from "./component";
import { isObj, str, type Obj } from "./event";
import type { GException, GFrame, GLogentry } from "./normalize";

const VARIABLE = /^\{\{\s*(\S+)\s*\}\}$/;
export const DEFAULT_FINGERPRINT_VARIABLE = "{{ default }}";

export type FingerprintType = "default" | "hybrid" | "custom";

export function parseVariable(entry: string): string | null {
  const m = VARIABLE.exec(entry);
  return m && m[1] !== undefined ? m[1] : null;
}

export function isDefaultVariable(entry: string): boolean {
  return parseVariable(entry) === "default";
}

/** The event's fingerprint as strings (numbers and booleans stringified, the rest dropped). */
export function readFingerprint(v: unknown): string[] | null {
  if (!Array.isArray(v)) return null;
  const out: string[] = [];
  for (const e of v) {
    if (typeof e === "string") out.push(e);
    else if (typeof e === "number" || typeof e === "boolean") out.push(String(e));
  }
  return out.length > 0 ? out : null;
}

export function fingerprintType(fp: readonly string[] | null): FingerprintType | null {
  if (fp === null || fp.length === 0) return null;
  const [first] = fp;
  if (fp.length === 1 && first !== undefined && isDefaultVariable(first)) return "default";
  return fp.some(isDefaultVariable) ? "hybrid" : "custom";
}

export interface FingerprintEventView {
  event: Obj;
  logentry: GLogentry | null;
  exceptions: readonly GException[];
  /** Frames of the last exception, else the top-level stacktrace, else the only thread's. */
  crashFrames: readonly GFrame[];
}

function crashFrame(view: FingerprintEventView): GFrame | null {
  let fallback: GFrame | null = null;
  for (let i = view.crashFrames.length - 1; i >= 0; i -= 1) {
    const f = view.crashFrames[i];
    if (f === undefined) continue;
    if (f.in_app) return f;
    if (fallback === null) fallback = f;
  }
  return fallback;
}

function tagValue(tags: unknown, name: string): string | null {
  if (Array.isArray(tags)) {
    for (const pair of tags) {
      if (Array.isArray(pair) && pair[0] === name && typeof pair[1] === "string") return pair[1];
    }
    return null;
  }
  if (isObj(tags)) return typeof tags[name] === "string" ? (tags[name] as string) : null;
  return null;
}

export function resolveVariable(key: string, view: FingerprintEventView): string | null {
  const last = view.exceptions[view.exceptions.length - 1];
  const ev = view.event;
  switch (key) {
    case "transaction":
      return str(ev.transaction) ?? "<no-transaction>";
    case "message":
      return view.logentry?.formatted ?? view.logentry?.message ?? (last?.value || null) ?? "<no-message>";
    case "type":
    case "error.type":
      return last?.type ?? "<no-type>";
    case "value":
    case "error.value":
      return (last?.value || null) ?? "<no-value>";
    case "function":
    case "stack.function":
      return crashFrame(view)?.function ?? "<no-function>";
    case "path":
    case "stack.abs_path": {
      const f = crashFrame(view);
      return (f ? (f.abs_path ?? f.filename) : null) ?? "<no-abs-path>";
    }
    case "stack.filename": {
      const f = crashFrame(view);
      return (f ? (f.filename ?? f.abs_path) : null) ?? "<no-filename>";
    }
    case "module":
    case "stack.module":
      return crashFrame(view)?.module ?? "<no-module>";
    case "package":
    case "stack.package": {
      const pkg = crashFrame(view)?.package ?? null;
      const last = pkg?.split("/").pop()?.split("\\").pop() ?? "";
      return last || "<no-package>";
    }
    case "level":
      return str(ev.level) ?? "<no-level>";
    case "logger":
      return str(ev.logger) ?? "<no-logger>";
  }
  if (key.startsWith("tags.")) {
    const tag = key.slice(5);
    return tagValue(ev.tags, tag) ?? `<no-value-for-tag-${tag}>`;
  }
  return null;
}

export function resolveFingerprintValues(fp: readonly string[], view: FingerprintEventView): string[] {
  return fp.map((entry) => {
    const key = parseVariable(entry);
    if (key === "default") return DEFAULT_FINGERPRINT_VARIABLE;
    if (key === null) return entry;
    return resolveVariable(key, view) ?? entry;
  });
}

/** Hash of a hybrid fingerprint for one component variant; null when the variant does not contribute. */
export function saltedHash(values: readonly string[], root: GroupingComponent): string | null {
  if (!root.contributes) return null;
  const final: string[] = [];
  for (const v of values) {
    if (isDefaultVariable(v)) final.push(...iterValues(root));
    else final.push(v);
  }
  return hashFromValues(final);
}
