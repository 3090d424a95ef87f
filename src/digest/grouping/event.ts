// The input event for grouping: a structural subset of Sentry's event payload with Sentry's field
// names, plus defensive readers so that a field of the wrong type never throws and simply does
// not contribute (field names from develop docs, event-payloads/*.mdx).

export interface FrameInput {
  filename?: unknown;
  abs_path?: unknown;
  function?: unknown;
  raw_function?: unknown;
  module?: unknown;
  package?: unknown;
  platform?: unknown;
  lineno?: unknown;
  colno?: unknown;
  in_app?: unknown;
  context_line?: unknown;
  data?: unknown;
  [key: string]: unknown;
}

export interface StacktraceInput {
  frames?: unknown;
  [key: string]: unknown;
}

export interface MechanismInput {
  type?: unknown;
  synthetic?: unknown;
  meta?: unknown;
  exception_id?: unknown;
  parent_id?: unknown;
  is_exception_group?: unknown;
  [key: string]: unknown;
}

export interface ExceptionInput {
  type?: unknown;
  value?: unknown;
  module?: unknown;
  mechanism?: unknown;
  stacktrace?: unknown;
  [key: string]: unknown;
}

export interface GroupingEventInput {
  platform?: unknown;
  message?: unknown;
  logentry?: unknown;
  exception?: unknown;
  threads?: unknown;
  stacktrace?: unknown;
  template?: unknown;
  fingerprint?: unknown;
  transaction?: unknown;
  level?: unknown;
  logger?: unknown;
  tags?: unknown;
  [key: string]: unknown;
}

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function obj(v: unknown): Obj | null {
  return isObj(v) ? v : null;
}

/** A non-empty string, or null. */
export function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

/** The list inside a `{values: [...]}` wrapper, a bare list, or nothing. */
export function valuesOf(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  const o = obj(v);
  if (o && Array.isArray(o.values)) return o.values;
  return [];
}

/** Python-style equality for the scalar frame fields compared by the recursion rule. */
export function scalar(v: unknown): string | number | boolean | null {
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  return null;
}
