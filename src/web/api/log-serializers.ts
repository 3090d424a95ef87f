// Log lines in the web API (issue 19): the project logs list, and rows of the events API's logs dataset with the
// fields Sentry's explore asks for (timestamp, message, severity, trace…, and any attribute by its key).
import type { StoredLog } from "../../storage/log-ports";

export function serializeLog(l: StoredLog, projectSlug: string) {
  return {
    id: String(l.id),
    timestamp: l.timestamp,
    severity: l.level,
    severity_number: l.severityNumber,
    message: l.body,
    trace: l.traceId,
    span_id: l.spanId,
    release: l.release,
    environment: l.environment,
    project: projectSlug,
    "project.id": l.projectId,
    attributes: l.attributes,
    ...(l.meta ? { _meta: l.meta } : {}),
  };
}

/** The events API's default fields for logs, as Sentry's logs explorer asks for them. */
export const DEFAULT_LOG_FIELDS = ["id", "project", "project.id", "trace", "severity", "severity_number", "message", "timestamp"];

/** One row of the events API: the requested fields, attributes by their key; unknown fields are null, as in Sentry. */
export function logFields(l: StoredLog, projectSlug: string, fields: string[]): Record<string, unknown> {
  const whole = serializeLog(l, projectSlug) as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const f of fields) {
    if (f === "attributes") continue;
    row[f] = f in whole ? whole[f] : (l.attributes[f]?.value ?? null);
  }
  return row;
}

/** Sentry's meta.fields: the type of each requested field. */
export function logFieldTypes(fields: string[]): Record<string, string> {
  const types: Record<string, string> = { timestamp: "date", severity_number: "integer", "project.id": "integer" };
  return Object.fromEntries(fields.map((f) => [f, types[f] ?? "string"]));
}
