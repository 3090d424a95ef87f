// The `pii` attributes of Relay's event schema (relay-event-schema src/protocol/*.rs, `#[metastructure(pii = ...)]`):
// which fields may hold personal data ("true"), only when a rule names them specifically ("maybe"), or never (the
// default "false": exception type, frame function, module, filename for grouping, release, platform...). Untyped
// values (extra, vars, request data) inherit the pii of the field that holds them, as `ProcessingState::inner_attrs`.
import { PII_FALSE, PII_MAYBE, PII_TRUE, VT, type Pii } from "./selector";

export type Node =
  /** A struct: its value types, its known fields and the pii of its additional properties. */
  | { kind: "struct"; types: number; fields: Record<string, Field>; fieldMap: ReadonlyMap<string, Field>; other: Pii }
  /** `Array<T>` / `Object<T>` of a typed element. */
  | { kind: "array"; each: Node }
  | { kind: "object"; each: Node }
  /** A pair list (headers, cookies, query string, tags): values are entered under their key; the list itself is
   * an object to selectors (processor.rs test `basic_stripping`: `$object.**` reaches header values). */
  | { kind: "pairs" }
  /** A string with extra value types (`Message` is both Message and String). */
  | { kind: "string"; types: number }
  /** `NativeImagePath`: the basename is kept (processor.rs `process_native_image_path`). */
  | { kind: "nip" }
  /** `Contexts`: each context by its type; unknown types are untyped objects with pii=true. */
  | { kind: "contexts" };

export type Field = { pii: Pii; node?: Node };

const T = PII_TRUE;
const M = PII_MAYBE;
const F = PII_FALSE;

const f = (pii: Pii, node?: Node): Field => (node ? { pii, node } : { pii });
const struct = (types: number, fields: Record<string, Field>, other: Pii = F): Node => ({
  kind: "struct",
  types,
  fields,
  fieldMap: new Map(Object.entries(fields)),
  other,
});
const array = (each: Node): Node => ({ kind: "array", each });
const PAIRS: Node = { kind: "pairs" };
const NIP: Node = { kind: "nip" };
const MESSAGE: Node = { kind: "string", types: VT.message | VT.string };
const values = (each: Node): Node => struct(0, { values: f(F, array(each)) });

// stacktrace.rs: Frame (module, filename, abs_path maybe; vars true), RawStacktrace.
const FRAME = struct(VT.frame, { module: f(M), filename: f(M, NIP), abs_path: f(M, NIP), vars: f(T) }, F);
const STACKTRACE = struct(VT.stacktrace, { frames: f(F, array(FRAME)) });

// exception.rs, mechanism.rs.
const MECHANISM = struct(0, { description: f(T), data: f(T) }, F);
const EXCEPTION = struct(
  VT.exception,
  { type: f(F), value: f(T), module: f(F), thread_id: f(F), stacktrace: f(F, STACKTRACE), raw_stacktrace: f(F, STACKTRACE), mechanism: f(F, MECHANISM) },
  T,
);

// thread.rs.
const THREAD = struct(
  VT.thread,
  {
    id: f(F),
    name: f(M),
    crashed: f(F),
    current: f(F),
    main: f(F),
    state: f(F),
    held_locks: f(F),
    stacktrace: f(F, STACKTRACE),
    raw_stacktrace: f(F, STACKTRACE),
  },
  T,
);

// breadcrumb.rs.
const BREADCRUMB = struct(
  VT.breadcrumb,
  { timestamp: f(F), type: f(F), category: f(F), level: f(F), event_id: f(F), origin: f(F), message: f(T), data: f(T) },
  T,
);

// user.rs, Geo.
const GEO = struct(0, { country_code: f(T), city: f(T), subdivision: f(T), region: f(T) }, T);
const USER = struct(
  VT.user,
  { id: f(T), email: f(T), ip_address: f(T), username: f(T), name: f(T), geo: f(T, GEO), segment: f(T), data: f(T), sentry_user: f(T) },
  T,
);

// request.rs.
const REQUEST = struct(
  VT.request,
  {
    method: f(F),
    protocol: f(F),
    body_size: f(F),
    inferred_content_type: f(F),
    api_target: f(F),
    url: f(M),
    data: f(T),
    query_string: f(T, PAIRS),
    fragment: f(T),
    cookies: f(T, PAIRS),
    headers: f(T, PAIRS),
    env: f(T),
  },
  T,
);

// logentry.rs.
const LOGENTRY = struct(VT.logentry, { message: f(T, MESSAGE), formatted: f(T, MESSAGE), params: f(T) }, T);

// span.rs: description, data and tags are maybe (only specific selectors scrub them).
const SPAN = struct(
  VT.span,
  {
    timestamp: f(F),
    start_timestamp: f(F),
    exclusive_time: f(F),
    op: f(F),
    span_id: f(F),
    parent_span_id: f(F),
    trace_id: f(F),
    segment_id: f(F),
    is_segment: f(F),
    status: f(F),
    origin: f(F),
    profile_id: f(F),
    measurements: f(F),
    received: f(F),
    platform: f(F),
    kind: f(F),
    description: f(M),
    data: f(M),
    tags: f(M),
    // sentry_tags: the convert.rs `test_ip_stripped` snapshot scrubs `user.ip` with `$string` rules too.
    sentry_tags: f(T),
  },
  M,
);

// clientsdk.rs: the client IP.
const SDK = struct(VT.sdk, { client_ip: f(T) });

// debugmeta.rs: image paths are maybe (the legacy settings exclude debug_meta entirely).
const DEBUG_IMAGE = struct(0, { code_file: f(M, NIP), debug_file: f(M, NIP), image_name: f(M, NIP) });
const DEBUG_META = struct(0, { images: f(F, array(DEBUG_IMAGE)) });

// security reports (csp.rs, hpkp, expectct, expectstaple): the URIs and policies.
const CSP = struct(0, {
  effective_directive: f(T),
  blocked_uri: f(T),
  document_uri: f(T),
  original_policy: f(T),
  referrer: f(T),
  violated_directive: f(T),
  source_file: f(T),
  script_sample: f(T),
});
const REPORT = struct(0, { hostname: f(T), served_certificate_chain: f(T), validated_certificate_chain: f(T), effective_expiration_date: f(F) }, T);

/** relay-event-schema event.rs `Event`. */
export const EVENT: Node = struct(
  VT.event,
  {
    event_id: f(F),
    level: f(F),
    type: f(F),
    fingerprint: f(F),
    culprit: f(M),
    transaction: f(F),
    logentry: f(F, LOGENTRY),
    logger: f(F),
    modules: f(F),
    platform: f(F),
    timestamp: f(F),
    start_timestamp: f(F),
    received: f(F),
    server_name: f(T),
    release: f(F),
    dist: f(F),
    environment: f(F),
    site: f(F),
    user: f(F, USER),
    request: f(F, REQUEST),
    contexts: f(F, { kind: "contexts" }),
    breadcrumbs: f(F, values(BREADCRUMB)),
    exception: f(F, values(EXCEPTION)),
    stacktrace: f(F, STACKTRACE),
    threads: f(F, values(THREAD)),
    tags: f(M, PAIRS),
    extra: f(T),
    debug_meta: f(F, DEBUG_META),
    sdk: f(F, SDK),
    errors: f(F),
    spans: f(F, array(SPAN)),
    measurements: f(F),
    breakdowns: f(F),
    csp: f(F, CSP),
    hpkp: f(F, REPORT),
    expectct: f(F, REPORT),
    expectstaple: f(F, REPORT),
    transaction_info: f(F),
    time_spent: f(F),
    checksum: f(F),
    ingest_path: f(F),
    grouping_config: f(F),
    // Faultline's own bookkeeping: never personal data, never scrubbed.
    _meta: f(F),
    received_at: f(F),
    project_id: f(F),
    version: f(F),
  },
  T,
);

/** relay-event-schema span.rs `Span`, for standalone span items. */
export const SPAN_ROOT: Node = SPAN;

// ourlog.rs `OurLog`: the body and the attributes may hold personal data. Advanced rules see each attribute as
// Relay's processor does with them (AttributeMode::Object): `$log.attributes.KEY.value`.
const LOG_ATTRIBUTE = struct(0, { type: f(F), value: f(T) }, M);
export const LOG_ROOT: Node = struct(
  VT.log,
  {
    timestamp: f(F),
    trace_id: f(F),
    span_id: f(F),
    level: f(F),
    severity_number: f(F),
    body: f(T),
    attributes: f(T, { kind: "object", each: LOG_ATTRIBUTE }),
    _meta: f(F),
  },
  M,
);
/** The same for the default and legacy rules, which see an attribute's value under its key (relay-pii eap.rs `process_attributes`). */
export const LOG_VALUES_ROOT: Node = struct(VT.log, { body: f(T), attributes: f(T) }, M);

/** Known context types (relay-event-schema contexts/*.rs): their extra keys are pii=maybe, except these fields. */
const KNOWN_CONTEXTS: Record<string, Record<string, Field>> = {
  device: { device_unique_identifier: f(T) },
  os: {},
  runtime: {},
  app: {},
  browser: {},
  gpu: {},
  trace: { data: f(M) },
  profile: {},
  replay: {},
  monitor: {},
  otel: {},
  cloud_resource: {},
  nel: {},
  performance_score: {},
  spring: {},
  ota_updates: {},
  flags: {},
  chromium_stability_report: {},
  // contexts/response.rs
  response: { cookies: f(T, PAIRS), headers: f(T, PAIRS), data: f(T) },
  // contexts/user_report_v2.rs (user feedback)
  feedback: { message: f(T), contact_email: f(T), name: f(T), url: f(T) },
};

/** The schema of one context: a known type's struct, or an untyped object (pii=true) for any other type. */
const CONTEXT_NODES = new Map(Object.entries(KNOWN_CONTEXTS).map(([type, fields]) => [type, struct(VT.object, fields, M)]));

export function contextNode(key: string, value: Record<string, unknown>): Node | undefined {
  return CONTEXT_NODES.get(typeof value.type === "string" ? value.type : key);
}
