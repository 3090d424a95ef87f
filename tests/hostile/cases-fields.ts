// Every field an SDK sends, and grouping, the summary and the columns read, given values of the wrong type and
// poison: NUL characters, numbers beyond every column's range, a million characters, nesting, empty values. Sent in
// valid envelopes (and /store/ bodies), so they reach the digest: each one is stored sanely or set aside, and the
// digest goes on.
import { type HostileCase, type Rng, type Target, baseEnvelopes, baseEvents, envelopePath, hex, serialize, storePath } from "./cases";

/** characters; long, yet small enough that the event stays under the intake's 1 MiB item limit. */
const LONG = 1_000_000;

/** The values every field is tried with. Long strings are costly, so they go only to fields that are read. */
const VALUES: [string, () => unknown][] = [
  ["null", () => null],
  ["true", () => true],
  ["zero", () => 0],
  ["-1", () => -1],
  ["1e300", () => 1e300],
  ["-1e300", () => -1e300],
  ["2^64", () => 18446744073709551616],
  ["empty string", () => ""],
  ["NUL", () => "before\u0000after"],
  ["only NUL", () => "\u0000"],
  ["lone surrogate", () => "\ud800x"],
  ["empty array", () => []],
  ["array of mixed", () => [null, 1, "a", {}, [], true]],
  ["object", () => ({ "\u0000": "\u0000", "": 1e300 })],
  ["nested 100", () => JSON.parse("[".repeat(100) + "]".repeat(100))],
];
const LONG_VALUES: [string, () => unknown][] = [
  ["a million x", () => "x".repeat(LONG)],
  ["a million a@", () => "a@".repeat(LONG / 2)],
  ["a million digits", () => "9".repeat(LONG)],
  ["a million %(", () => "%(".repeat(LONG / 2)],
  ["a million datetime(", () => "datetime.datetime(".repeat(Math.floor(LONG / 18))],
];

type Json = Record<string, unknown>;

/** A deep copy of `base` with `value` at `path` ("/"-separated, as keys may hold dots; numbers index arrays). */
function withValue(base: Json, path: string, value: unknown): Json {
  const copy = JSON.parse(JSON.stringify(base)) as Json;
  const keys = path.split("/");
  let node: Json = copy;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i]!;
    let next = node[key];
    if (typeof next !== "object" || next === null) node[key] = next = /^\d+$/.test(keys[i + 1]!) ? [] : {};
    node = next as Json;
  }
  node[keys.at(-1)!] = value;
  return copy;
}

/** Fields of an error event; `read` marks those grouping, the title, the culprit, the tags or a column read. */
const EVENT_FIELDS: [string, boolean][] = [
  ["event_id", false],
  ["timestamp", true],
  ["start_timestamp", false],
  ["received", false],
  ["level", true],
  ["platform", true],
  ["logger", true],
  ["server_name", true],
  ["release", true],
  ["dist", true],
  ["environment", true],
  ["transaction", true],
  ["culprit", true],
  ["message", true],
  ["logentry", true],
  ["logentry/message", true],
  ["logentry/formatted", true],
  ["logentry/params", true],
  ["fingerprint", true],
  ["fingerprint/0", true],
  ["exception", true],
  ["exception/values", true],
  ["exception/values/0", true],
  ["exception/values/0/type", true],
  ["exception/values/0/value", true],
  ["exception/values/0/module", true],
  ["exception/values/0/mechanism", true],
  ["exception/values/0/mechanism/type", true],
  ["exception/values/0/mechanism/handled", false],
  ["exception/values/0/stacktrace", true],
  ["exception/values/0/stacktrace/frames", true],
  ["exception/values/0/stacktrace/frames/0", true],
  ["exception/values/0/stacktrace/frames/0/function", true],
  ["exception/values/0/stacktrace/frames/0/filename", true],
  ["exception/values/0/stacktrace/frames/0/abs_path", true],
  ["exception/values/0/stacktrace/frames/0/module", true],
  ["exception/values/0/stacktrace/frames/0/lineno", true],
  ["exception/values/0/stacktrace/frames/0/colno", true],
  ["exception/values/0/stacktrace/frames/0/in_app", true],
  ["exception/values/0/stacktrace/frames/0/context_line", true],
  ["exception/values/0/stacktrace/frames/0/pre_context", true],
  ["exception/values/0/stacktrace/frames/0/vars", false],
  ["exception/values/0/stacktrace/frames/0/package", true],
  ["exception/values/0/stacktrace/frames/0/raw_function", true],
  ["exception/values/0/stacktrace/frames/0/symbol", true],
  ["threads", true],
  ["threads/values/0/stacktrace/frames/0/function", true],
  ["breadcrumbs", false],
  ["breadcrumbs/0", false],
  ["breadcrumbs/0/timestamp", false],
  ["breadcrumbs/0/message", false],
  ["breadcrumbs/0/data", false],
  ["tags", true],
  ["tags/locale", true],
  ["user", true],
  ["user/id", true],
  ["user/email", true],
  ["user/ip_address", true],
  ["user/username", true],
  ["request", true],
  ["request/url", true],
  ["request/headers", false],
  ["request/data", false],
  ["request/query_string", false],
  ["contexts", true],
  ["contexts/trace", true],
  ["contexts/trace/trace_id", true],
  ["contexts/browser", true],
  ["contexts/os/name", true],
  ["extra", false],
  ["sdk", false],
  ["sdk/name", true],
  ["modules", false],
  ["measurements", false],
  ["debug_meta", false],
  ["debug_meta/images/0/debug_id", false],
  ["sentry.interfaces.Exception", true],
  ["sentry.interfaces.Message", true],
  ["sentry.interfaces.Http", true],
  ["sentry.interfaces.User", true],
];

export function fieldCases(t: Target, rng: Rng): HostileCase[] {
  const cases: HostileCase[] = [];
  const { browser, python } = baseEvents(rng, t.publicKey);
  const path = envelopePath(t);
  const asEnvelope = (event: Json) => serialize([{ event_id: hex(rng, 32) }, [[{ type: "event" }, event]]]);
  for (const [field, read] of EVENT_FIELDS) {
    for (const [label, make] of read ? [...VALUES, ...LONG_VALUES] : VALUES) {
      cases.push({ name: `event field: ${field} = ${label}`, path, body: asEnvelope(withValue(browser, field, make())) });
    }
    // The Python event through /store/ (parsed by the intake itself), with the short values.
    if (read)
      for (const [label, make] of VALUES)
        cases.push({ name: `store field: ${field} = ${label}`, path: storePath(t), body: Buffer.from(JSON.stringify(withValue(python, field, make()))) });
  }
  const bases = baseEnvelopes(rng, t.publicKey);
  const itemCases = (kind: string, fields: string[]) => {
    const [headers, items] = bases[kind]!;
    for (const field of fields) {
      for (const [label, make] of VALUES) {
        const payload = withValue(items[0]![1] as Json, field, make());
        cases.push({ name: `${kind} field: ${field} = ${label}`, path, body: serialize([{ ...headers, event_id: hex(rng, 32) }, [[items[0]![0], payload]]]) });
      }
    }
  };
  itemCases("browser transaction", [
    "start_timestamp",
    "timestamp",
    "transaction",
    "spans",
    "spans/0",
    "spans/0/start_timestamp",
    "spans/0/timestamp",
    "spans/0/op",
    "spans/0/description",
    "spans/0/span_id",
    "spans/0/data",
    "measurements",
    "measurements/lcp/value",
    "contexts/trace/op",
    "contexts/trace/span_id",
  ]);
  itemCases("span container", [
    "items",
    "items/0",
    "items/0/start_timestamp",
    "items/0/end_timestamp",
    "items/0/name",
    "items/0/span_id",
    "items/0/trace_id",
    "items/0/attributes",
    "items/0/attributes/sentry.op",
    "items/0/is_segment",
  ]);
  itemCases("session update", [
    "sid",
    "did",
    "started",
    "timestamp",
    "seq",
    "duration",
    "status",
    "errors",
    "init",
    "attrs",
    "attrs/release",
    "attrs/environment",
  ]);
  itemCases("session aggregates", ["aggregates", "aggregates/0", "aggregates/0/started", "aggregates/0/exited", "aggregates/0/errored", "attrs/release"]);
  itemCases("client report", [
    "timestamp",
    "discarded_events",
    "discarded_events/0",
    "discarded_events/0/quantity",
    "discarded_events/0/category",
    "discarded_events/0/reason",
  ]);
  return cases;
}
