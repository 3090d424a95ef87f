// An `otel_log` item: one OpenTelemetry LogRecord in its JSON mapping (camelCase, as the protobuf JSON mapping writes
// it, or snake_case, as early SDKs wrote it), read as Relay's otel_to_sentry_log (relay-ourlogs ourlog.rs): the body's
// string value, attributes of scalar values (arrays and key-value lists are left out, as Relay leaves them), the
// level from the severity number's range or else the severity text, the time from time_unix_nano.
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The field under its camelCase or snake_case name. */
const field = (o: Json, camel: string, snake: string): unknown => (o[camel] !== undefined ? o[camel] : o[snake]);

/** An OTel AnyValue's scalar as the Sentry attribute it becomes; null for arrays, key-value lists and empty values. */
function anyValue(v: unknown): { type: string; value: unknown } | null {
  if (!isObject(v)) return null;
  const s = field(v, "stringValue", "string_value");
  if (typeof s === "string") return { type: "string", value: s };
  const b = field(v, "boolValue", "bool_value");
  if (typeof b === "boolean") return { type: "boolean", value: b };
  const i = field(v, "intValue", "int_value");
  if (typeof i === "number" || typeof i === "string") return { type: "integer", value: i };
  const d = field(v, "doubleValue", "double_value");
  if (typeof d === "number") return { type: "double", value: d };
  return null;
}

/** Nanoseconds (a number or its decimal text) as seconds. */
function seconds(v: unknown): number | undefined {
  const n = typeof v === "string" && /^\d{1,20}$/.test(v) ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n / 1e9 : undefined;
}

/** The LogRecord as a log of Sentry's protocol, for digest/logs.ts to read like any other. */
export function otelToSentryLog(record: Json): Json {
  const attributes: Json = {};
  const list = field(record, "attributes", "attributes");
  if (Array.isArray(list)) {
    for (const a of list) {
      if (!isObject(a) || typeof a.key !== "string") continue;
      const value = anyValue(a.value);
      if (value) attributes[a.key] = value;
    }
  }
  const severityText = field(record, "severityText", "severity_text");
  const severityNumber = field(record, "severityNumber", "severity_number");
  if (typeof severityText === "string") attributes["sentry.severity_text"] = { type: "string", value: severityText };
  const body = anyValue(field(record, "body", "body"));
  return {
    timestamp: seconds(field(record, "timeUnixNano", "time_unix_nano")) ?? seconds(field(record, "observedTimeUnixNano", "observed_time_unix_nano")),
    trace_id: field(record, "traceId", "trace_id"),
    span_id: field(record, "spanId", "span_id"),
    // The severity number's range decides, then the text (digest/logs.ts levelOf), as Relay.
    level: typeof severityNumber === "number" && severityNumber >= 1 && severityNumber <= 24 ? undefined : severityText,
    severity_number: severityNumber,
    body: body && body.type === "string" ? body.value : body ? String(body.value) : undefined,
    attributes,
  };
}
