// Poison records for the digest (issue 16, finding 3): envelopes whose items carry NUL characters, numbers beyond a
// column's range and pathological strings in the fields the digest stores or grouping reads, each sent through the
// real intake over HTTP and followed by a good event, so a test can tell that the digest went on.
import assert from "node:assert/strict";
import type { TestIntake, TestProject } from "./intake";

export const hex = () => crypto.randomUUID().replace(/-/g, "");
const spanId = () => hex().slice(0, 16);

export type Item = { type: string; payload: unknown; headers?: Record<string, unknown> };
export type Poison = { name: string; items: Item[]; eventId?: string };

/** An envelope of items (payloads as JSON, or as given when a string), the event id in its header when given. */
export function envelope(items: Item[], eventId?: string): string {
  const lines = [JSON.stringify(eventId ? { event_id: eventId } : {})];
  for (const item of items) {
    const payload = typeof item.payload === "string" ? item.payload : JSON.stringify(item.payload);
    lines.push(JSON.stringify({ type: item.type, length: Buffer.byteLength(payload), ...item.headers }), payload);
  }
  return `${lines.join("\n")}\n`;
}

/** Posts an envelope to the project's intake; returns the HTTP status. */
export async function post(t: TestIntake, project: TestProject, body: string): Promise<number> {
  const r = await fetch(t.url("envelope", project, `?sentry_key=${project.key.publicKey}&sentry_version=7`), { method: "POST", body });
  await r.arrayBuffer();
  return r.status;
}

/** An event that every digest stores: the proof that the digest went on past the poison sent before it. */
export async function sendGood(t: TestIntake, project: TestProject, label: string): Promise<string> {
  const id = hex();
  const status = await post(t, project, envelope([{ type: "event", payload: { message: `good event after ${label}`, platform: "node" } }], id));
  assert.equal(status, 200, `the good event after ${label} is taken`);
  return id;
}

/** Sends each poison followed by a good event; every poison must be taken (200) as Relay takes it. */
export async function sendAll(t: TestIntake, project: TestProject, poisons: Poison[]): Promise<{ poison: Poison; good: string }[]> {
  const sent = [];
  for (const poison of poisons) {
    const status = await post(t, project, envelope(poison.items, poison.eventId));
    assert.equal(status, 200, `${poison.name} is taken by the intake`);
    sent.push({ poison, good: await sendGood(t, project, poison.name) });
  }
  return sent;
}

const event = (name: string, payload: Record<string, unknown>): Poison => {
  const eventId = hex();
  return { name, eventId, items: [{ type: "event", payload: { platform: "python", ...payload } }] };
};

const now = () => Date.now() / 1000;

function transaction(name: string, over: Record<string, unknown>, span: Record<string, unknown> = {}): Poison {
  const start = now() - 5;
  const eventId = hex();
  const traceId = hex();
  return {
    name,
    eventId,
    items: [
      {
        type: "transaction",
        payload: {
          type: "transaction",
          transaction: "GET /poison",
          start_timestamp: start,
          timestamp: start + 1,
          contexts: { trace: { trace_id: traceId, span_id: spanId(), op: "http.server", status: "ok" } },
          spans: [{ span_id: spanId(), trace_id: traceId, op: "db", description: "select 1", start_timestamp: start + 0.1, timestamp: start + 0.2, ...span }],
          measurements: {},
          ...over,
        },
      },
    ],
  };
}

function spanItem(name: string, over: Record<string, unknown>): Poison {
  const start = now() - 5;
  return {
    name,
    items: [
      {
        type: "span",
        headers: { content_type: "application/vnd.sentry.items.span.v2+json", item_count: 1 },
        payload: {
          version: 2,
          items: [
            {
              trace_id: hex(),
              span_id: spanId(),
              name: "Pageload",
              start_timestamp: start,
              end_timestamp: start + 1,
              status: "ok",
              is_segment: true,
              attributes: { "sentry.op": { type: "string", value: "pageload" } },
              ...over,
            },
          ],
        },
      },
    ],
  };
}

const session = (name: string, over: Record<string, unknown>, attrs: Record<string, unknown> = {}): Poison => ({
  name,
  items: [
    {
      type: "session",
      payload: {
        sid: crypto.randomUUID(),
        did: "user-1",
        init: true,
        started: new Date().toISOString(),
        status: "ok",
        errors: 0,
        attrs: { release: "poison@1.0.0", environment: "production", ...attrs },
        ...over,
      },
    },
  ],
});

const aggregates = (name: string, bucket: Record<string, unknown>, attrs: Record<string, unknown> = {}): Poison => ({
  name,
  items: [
    {
      type: "sessions",
      payload: {
        aggregates: [{ started: new Date().toISOString(), exited: 1, ...bucket }],
        attrs: { release: "poison@1.0.0", environment: "production", ...attrs },
      },
    },
  ],
});

const clientReport = (name: string, discarded: Record<string, unknown>): Poison => ({
  name,
  items: [
    { type: "client_report", payload: { timestamp: now(), discarded_events: [{ reason: "queue_overflow", category: "error", quantity: 1, ...discarded }] } },
  ],
});

const NUL = "\u0000";

/** NUL characters in every kind of stored string and object key. */
export function nulPoisons(): Poison[] {
  const n = (s: string) => `${s}${NUL}tail`;
  return [
    event("NUL in the message", { message: n("x") }),
    event("NUL in logentry params", { logentry: { message: "value %s", params: [n("p")] } }),
    event("NUL in exception type and value", {
      exception: { values: [{ type: n("Type"), value: n("value"), mechanism: { type: n("generic"), handled: false } }] },
    }),
    event("NUL in frames", {
      exception: {
        values: [
          {
            type: "E",
            value: "v",
            stacktrace: {
              frames: [
                {
                  function: n("f"),
                  module: n("m"),
                  filename: n("a.py"),
                  abs_path: n("/srv/a.py"),
                  context_line: n("x = 1"),
                  package: n("pkg"),
                  lineno: 1,
                  in_app: true,
                },
              ],
            },
          },
        ],
      },
    }),
    event("NUL in tags, user and attributes", {
      message: "tags",
      tags: { [n("k")]: n("v"), plain: n("v") },
      user: { id: n("u"), email: n("e@example.com"), username: n("name") },
      transaction: n("/t"),
      release: n("r@1"),
      environment: n("env"),
      culprit: n("c"),
      logger: n("log"),
      server_name: n("host"),
      fingerprint: [n("fp")],
    }),
    event("NUL in keys of extra, contexts and request", {
      message: "keys",
      extra: { [n("key")]: { [n("inner")]: n("v") } },
      contexts: { [n("ctx")]: { type: n("t"), name: n("n") }, browser: { name: n("Chrome"), version: n("1") } },
      request: { url: n("https://example.com/a"), method: n("get"), headers: { [n("H")]: n("v") } },
      breadcrumbs: [{ message: n("crumb"), category: n("c"), data: { [n("k")]: n("v") } }],
      sdk: { name: n("sdk"), version: "1" },
    }),
    transaction("NUL in a transaction and its spans", { transaction: n("GET /x") }, { op: n("db"), description: n("select") }),
    spanItem("NUL in a span item", {
      name: n("Pageload"),
      status: n("ok"),
      attributes: {
        [n("a")]: { type: "string", value: n("v") },
        "sentry.op": { type: "string", value: n("pageload") },
        "sentry.environment": { type: "string", value: n("prod") },
        "sentry.release": { type: "string", value: n("r@1") },
      },
    }),
    session("NUL in a session", { did: n("user") }, { release: n("poison@1"), environment: n("env") }),
    aggregates("NUL in session aggregates", { did: n("user") }, { environment: n("env") }),
    clientReport("NUL in a client report", { reason: n("queue_overflow"), category: n("error") }),
    {
      name: "NUL in an attachment's headers",
      items: [{ type: "attachment", headers: { filename: n("a.txt"), content_type: n("text/plain") }, payload: `data${NUL}` }],
    },
    { name: "NUL in a check-in", items: [{ type: "check_in", payload: { check_in_id: hex(), monitor_slug: n("slug"), status: n("ok") } }] },
  ];
}

/** Numbers beyond the range of the column they reach: 1e300, -1e300, 1e20 (past 64-bit integers), and the like. */
export function numberPoisons(): Poison[] {
  const start = now() - 5;
  const polls = [1e300, -1e300, 1e20, -1e20];
  return [
    ...polls.map((v) => spanItem(`a span item ending at ${v}`, { end_timestamp: v })),
    ...polls.map((v) => spanItem(`a span item starting at ${v}`, { start_timestamp: v })),
    spanItem("a span item with a web vital of 1e300", {
      attributes: { "browser.web_vital.lcp.value": { type: "double", value: 1e300 }, "browser.web_vital.cls.value": { type: "double", value: -1e300 } },
    }),
    spanItem("a span item of 2^53 + 1 seconds", { start_timestamp: 2 ** 53, end_timestamp: 2 ** 53 + 2 }),
    transaction("a transaction ending at 1e300", { timestamp: 1e300 }),
    transaction("a transaction starting at -1e300", { start_timestamp: -1e300 }),
    transaction("a transaction with spans at ±1e300", {}, { start_timestamp: -1e300, timestamp: 1e300 }),
    transaction("a transaction measuring 1e300", { measurements: { lcp: { value: 1e300 }, fcp: { value: -1e300 }, cls: { value: 1e20 } } }),
    transaction("a transaction of a thousand years", { start_timestamp: start - 1000 * 365 * 86400 }),
    ...polls.map((v) => clientReport(`a client report of ${v} discarded events`, { quantity: v })),
    clientReport("a client report of 2^63 discarded events", { quantity: 2 ** 63 }),
    session("a session with 1e300 errors started at 1e20", { errors: 1e300, started: 1e20 }),
    session("a session with 1e20 errors", { errors: 1e20 }),
    aggregates("session aggregates of 1e20 sessions", { exited: 1e20, errored: 1e300, crashed: 1e20, abnormal: -1e300 }),
    event("an event at 1e300 with breadcrumbs at -1e300", {
      message: "numbers",
      timestamp: 1e300,
      breadcrumbs: [
        { message: "b", timestamp: -1e300 },
        { message: "c", timestamp: 1e20 },
      ],
      level: 1e300,
    }),
    event("frames at line 1e300", {
      exception: { values: [{ type: "E", value: "v", stacktrace: { frames: [{ function: "f", lineno: 1e300, colno: -1e300, in_app: true }] } }] },
    }),
  ];
}

const MB = 1_000_000;

/** A megabyte of what made regular expressions backtrack (`x`, `a@`, …) in the fields grouping reads. */
export function stringPoisons(): Poison[] {
  const patterns: [string, string][] = [
    ["x", "x".repeat(MB)],
    ["a@", "a@".repeat(MB / 2)],
    ["digits", `${"1".repeat(MB - 1)}x`],
    ["datetime.datetime(", "datetime.datetime(".repeat(MB / 18)],
    ["%(", "%(".repeat(MB / 2)],
  ];
  const frame = (field: string, value: string) => ({
    exception: { values: [{ type: "E", value: "v", stacktrace: { frames: [{ function: "f", filename: "a.py", [field]: value, in_app: true, lineno: 1 }] } }] },
  });
  const out: Poison[] = [];
  for (const [name, s] of patterns) {
    out.push(event(`1 MB of ${name} in an exception value`, { exception: { values: [{ type: "Error", value: s }] } }));
    out.push(event(`1 MB of ${name} in a message with params`, { logentry: { message: s, params: ["a"] } }));
  }
  const x = "x".repeat(MB);
  for (const field of ["function", "module", "package", "abs_path", "filename", "context_line", "raw_function"])
    out.push(event(`1 MB of x in a frame's ${field}`, { platform: "javascript", ...frame(field, x) }));
  out.push(event("1 MB of a module on java", { platform: "java", ...frame("module", `$$${"a".repeat(MB)}`) }));
  out.push(event("1 MB of x in an exception type", { exception: { values: [{ type: x, value: "v" }] } }));
  out.push(event("1 MB of x in a message", { message: x }));
  out.push(
    event("1 MB of x in the culprit, transaction and a tag", {
      message: "m",
      culprit: x.slice(0, MB / 3),
      transaction: x.slice(0, MB / 3),
      tags: { big: x.slice(0, MB / 3) },
    }),
  );
  out.push(event("1 MB of x in a fingerprint", { message: "m", fingerprint: [x] }));
  out.push(transaction("1 MB of x in a transaction's name", { transaction: x }));
  out.push(spanItem("1 MB of x in a span's name", { name: x }));
  return out;
}

/** Whether a value holds a NUL character anywhere, keys included. */
export function hasNul(value: unknown): boolean {
  return JSON.stringify(value).includes("\\u0000");
}
