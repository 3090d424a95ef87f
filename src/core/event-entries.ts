// A stored (normalized) event's interfaces as Sentry's event API serves them: `entries`, each {type, data}, ordered
// by the interface's display score (sentry/interfaces/*.py `display_score`: message 2050, exception 2000, stacktrace
// 1950, threads 1900, breadcrumbs 1100, request 1000, spans and debug images after), with the frames in the
// camelCase shape of `Stacktrace.get_api_context` (absPath, lineNo, colNo, inApp, context as [line, text] pairs).
type Json = Record<string, unknown>;
export type Entry = { type: string; data: unknown };

const obj = (v: unknown): Json | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : Array.isArray(obj(v)?.values) ? (obj(v)!.values as unknown[]) : []);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The frame's source lines around the crashing one, as [line number, text] pairs. */
function contextOf(f: Json): [number | null, string][] {
  const pre = Array.isArray(f.pre_context) ? (f.pre_context as unknown[]).map(String) : [];
  const post = Array.isArray(f.post_context) ? (f.post_context as unknown[]).map(String) : [];
  if (typeof f.context_line !== "string") return [];
  const line = num(f.lineno);
  const at = (offset: number) => (line === null ? null : line + offset);
  return [
    ...pre.map((text, i) => [at(i - pre.length), text] as [number | null, string]),
    [at(0), f.context_line],
    ...post.map((text, i) => [at(i + 1), text] as [number | null, string]),
  ];
}

function frameOf(raw: unknown): Json {
  const f = obj(raw) ?? {};
  return {
    filename: f.filename ?? null,
    absPath: f.abs_path ?? null,
    module: f.module ?? null,
    package: f.package ?? null,
    platform: f.platform ?? null,
    instructionAddr: f.instruction_addr ?? null,
    symbolAddr: f.symbol_addr ?? null,
    function: f.function ?? null,
    rawFunction: f.raw_function ?? null,
    symbol: f.symbol ?? null,
    context: contextOf(f),
    lineNo: num(f.lineno),
    colNo: num(f.colno),
    inApp: f.in_app === true,
    trust: f.trust ?? null,
    errors: f.errors ?? null,
    lock: f.lock ?? null,
    vars: f.vars ?? null,
  };
}

function stacktraceOf(raw: unknown): Json | null {
  const st = obj(raw);
  if (!st) return null;
  const frames = list(st.frames).map(frameOf);
  return { frames, framesOmitted: st.frames_omitted ?? null, registers: st.registers ?? null, hasSystemFrames: frames.some((f) => !f.inApp) };
}

function exceptionEntry(data: Json): Entry | null {
  const values = list(data.exception).map((raw) => {
    const e = obj(raw) ?? {};
    return {
      type: e.type ?? null,
      value: e.value ?? null,
      module: e.module ?? null,
      mechanism: e.mechanism ?? null,
      threadId: e.thread_id ?? null,
      stacktrace: stacktraceOf(e.stacktrace),
      rawStacktrace: stacktraceOf(e.raw_stacktrace),
    };
  });
  if (values.length === 0) return null;
  const hasSystemFrames = values.some((v) => v.stacktrace?.hasSystemFrames === true);
  return { type: "exception", data: { values, hasSystemFrames, excOmitted: null } };
}

function messageEntry(data: Json): Entry | null {
  const log = obj(data.logentry);
  if (!log) return null;
  const formatted = typeof log.formatted === "string" ? log.formatted : typeof log.message === "string" ? log.message : null;
  return { type: "message", data: { formatted, message: log.message ?? null, params: log.params ?? null } };
}

function threadsEntry(data: Json): Entry | null {
  const values = list(data.threads).map((raw) => {
    const t = obj(raw) ?? {};
    return {
      id: t.id ?? null,
      name: t.name ?? null,
      crashed: t.crashed === true,
      current: t.current === true,
      stacktrace: stacktraceOf(t.stacktrace),
      rawStacktrace: stacktraceOf(t.raw_stacktrace),
    };
  });
  return values.length > 0 ? { type: "threads", data: { values } } : null;
}

function breadcrumbsEntry(data: Json): Entry | null {
  const values = list(data.breadcrumbs).map((raw) => {
    const b = obj(raw) ?? {};
    return {
      type: b.type ?? "default",
      category: b.category ?? null,
      level: b.level ?? "info",
      message: b.message ?? null,
      data: b.data ?? null,
      timestamp: num(b.timestamp) === null ? null : new Date(num(b.timestamp)! * 1000).toISOString(),
      event_id: b.event_id ?? null,
    };
  });
  return values.length > 0 ? { type: "breadcrumbs", data: { values } } : null;
}

function requestEntry(data: Json): Entry | null {
  const r = obj(data.request);
  if (!r) return null;
  return {
    type: "request",
    data: {
      url: r.url ?? null,
      method: r.method ?? null,
      query: r.query_string ?? null,
      fragment: r.fragment ?? null,
      data: r.data ?? null,
      headers: r.headers ?? null,
      cookies: r.cookies ?? null,
      env: r.env ?? null,
      inferredContentType: null,
      apiTarget: r.api_target ?? null,
    },
  };
}

function spansEntry(data: Json): Entry | null {
  return Array.isArray(data.spans) && data.spans.length > 0 ? { type: "spans", data: data.spans } : null;
}

function debugMetaEntry(data: Json): Entry | null {
  const images = obj(data.debug_meta)?.images;
  return Array.isArray(images) && images.length > 0 ? { type: "debugmeta", data: { images } } : null;
}

/** The event's entries, highest display score first. */
export function eventEntries(data: Json): Entry[] {
  const top = obj(data.stacktrace) ? { type: "stacktrace", data: stacktraceOf(data.stacktrace) } : null;
  return [
    messageEntry(data),
    exceptionEntry(data),
    top,
    threadsEntry(data),
    breadcrumbsEntry(data),
    requestEntry(data),
    spansEntry(data),
    debugMetaEntry(data),
  ].filter((e): e is Entry => e !== null);
}
