// The trace an event belongs to: contexts.trace.trace_id, when it is a trace id (32 hex digits).
export function traceIdOfEvent(data: Record<string, unknown>): string | null {
  const contexts = data.contexts;
  if (!contexts || typeof contexts !== "object") return null;
  const trace = (contexts as Record<string, unknown>).trace;
  if (!trace || typeof trace !== "object") return null;
  const id = (trace as Record<string, unknown>).trace_id;
  return typeof id === "string" && /^[0-9a-f]{32}$/i.test(id) ? id.toLowerCase() : null;
}
