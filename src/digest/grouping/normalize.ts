// The parts of Relay's event normalization that grouping depends on, applied to a private copy
// so that grouping works the same whether or not the event went through them already:
// frame filename/abs_path filling (relay-event-normalization/src/stacktrace.rs
// `process_non_raw_frame`), `message` as a logentry, and splitting "Type: value" exception
// values when the type is missing (`parse_type_and_value`). Idempotent.
import { isObj, obj, scalar, str, valuesOf, type Obj } from "./event";

export interface GFrame {
  abs_path: string | null;
  filename: string | null;
  function: string | null;
  raw_function: string | null;
  module: string | null;
  package: string | null;
  platform: string | null;
  lineno: string | number | boolean | null;
  colno: string | number | boolean | null;
  context_line: string | null;
  in_app: boolean | null;
  sourcemap: boolean;
  category: string | null;
  /** Set when an enhancement rule changed in_app: the rule's text. */
  inAppRule: string | null;
}

export interface GException {
  type: string | null;
  value: string | null;
  synthetic: boolean;
  nsError: { domain: unknown; code: unknown } | null;
  /** null when the exception has no stacktrace interface. */
  frames: GFrame[] | null;
  exceptionId: number | null;
  parentId: number | null;
  isExceptionGroup: boolean;
}

export interface GLogentry {
  message: string | null;
  formatted: string | null;
}

function urlPath(filename: string): string {
  try {
    const u = new URL(filename);
    if (u.protocol === "http:" || u.protocol === "https:") return u.pathname;
  } catch {
    // not a URL: keep it as it is
  }
  return filename;
}

export function normalizeFrame(raw: unknown): GFrame | null {
  const f = obj(raw);
  if (!f) return null;
  let absPath = str(f.abs_path);
  let filename = str(f.filename);
  if (absPath === null) absPath = filename;
  if (filename === null && absPath !== null) filename = urlPath(absPath);
  const data = obj(f.data);
  const inApp = typeof f.in_app === "boolean" ? f.in_app : null;
  return {
    abs_path: absPath,
    filename,
    function: str(f.function),
    raw_function: str(f.raw_function),
    module: str(f.module),
    package: str(f.package),
    platform: str(f.platform),
    lineno: scalar(f.lineno),
    colno: scalar(f.colno),
    context_line: typeof f.context_line === "string" ? f.context_line : null,
    in_app: inApp,
    sourcemap: data !== null && data.sourcemap !== undefined && data.sourcemap !== null,
    category: data !== null ? str(data.category) : null,
    inAppRule: null,
  };
}

/** Frames of a stacktrace interface, or null when there is no usable stacktrace. */
export function normalizeStacktrace(raw: unknown): GFrame[] | null {
  const st = obj(raw);
  if (!st || !Array.isArray(st.frames)) return null;
  const frames: GFrame[] = [];
  for (const f of st.frames) {
    const nf = normalizeFrame(f);
    if (nf) frames.push(nf);
  }
  return frames.length > 0 ? frames : null;
}

function intOrNull(v: unknown): number | null {
  return typeof v === "number" && Number.isInteger(v) ? v : null;
}

export function normalizeException(raw: unknown): GException | null {
  const e = obj(raw);
  if (!e) return null;
  let type = str(e.type);
  let value = typeof e.value === "string" ? e.value : null;
  if (type === null && value !== null) {
    const m = /^(\w+):(.*)$/s.exec(value);
    if (m && m[1] !== undefined && m[2] !== undefined) {
      type = m[1];
      value = m[2].trim();
    }
  }
  const mech = obj(e.mechanism);
  const meta = mech ? obj(mech.meta) : null;
  const ns = meta ? obj(meta.ns_error) : null;
  return {
    type,
    value,
    synthetic: mech !== null && mech.synthetic === true,
    nsError: ns ? { domain: ns.domain ?? null, code: ns.code ?? null } : null,
    frames: normalizeStacktrace(e.stacktrace),
    exceptionId: mech ? intOrNull(mech.exception_id) : null,
    parentId: mech ? intOrNull(mech.parent_id) : null,
    isExceptionGroup: mech !== null && mech.is_exception_group === true,
  };
}

export function normalizeLogentry(event: Obj): GLogentry | null {
  const le = obj(event.logentry);
  if (le) {
    const message = str(le.message);
    const formatted = str(le.formatted);
    if (message !== null || formatted !== null) return { message, formatted };
  }
  const message = event.message;
  if (typeof message === "string" && message !== "") return { message: null, formatted: message };
  const mo = obj(message);
  if (mo) {
    const m = str(mo.message);
    const fm = str(mo.formatted);
    if (m !== null || fm !== null) return { message: m, formatted: fm };
  }
  return null;
}

export function normalizeExceptions(event: Obj): GException[] {
  const out: GException[] = [];
  for (const raw of valuesOf(event.exception)) {
    const e = normalizeException(raw);
    if (e) out.push(e);
  }
  return out;
}

export function normalizeThreads(event: Obj): Array<{ frames: GFrame[] | null }> {
  return valuesOf(event.threads)
    .filter(isObj)
    .map((t) => ({ frames: normalizeStacktrace(t.stacktrace) }));
}
