// Structured logs (issue 19): log and otel_log items no SDK sends (NUL bytes, a megabyte body, 10,000 attributes,
// deep nesting, huge numbers, bad levels, missing fields, wrong types, broken JSON), and the logs API and page given
// bad searches. The intake answers items with 200 as Relay does (the digest trims or drops them), the API and page
// with a 4xx naming the field, never a 5xx.
import { type HostileCase, type Rng, type Target, envelopePath, hex } from "./cases";

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));
const nested = (depth: number) => JSON.parse(`${"[".repeat(depth)}1${"]".repeat(depth)}`) as unknown;

export function logCases(t: Target, rng: Rng): HostileCase[] {
  const now = Date.now() / 1000;
  const log = (fields: Record<string, unknown>) => ({ timestamp: now, trace_id: hex(rng, 32), level: "info", body: "hostile", attributes: {}, ...fields });
  const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, { type: "string", value: `v${i}` }]));
  const logs: [string, unknown][] = [
    ["NUL in body, keys and values", log({ body: "a\u0000b", attributes: { "k\u0000": { type: "string", value: "v\u0000" } } })],
    ["a 1 MB body", log({ body: "x".repeat(1_000_000) })],
    ["a body over Relay's 1 MiB", log({ body: "x".repeat(1_100_000) })],
    ["10,000 attributes", log({ attributes: many })],
    ["an attribute nested 100 levels", log({ attributes: { deep: { type: "string", value: nested(100) } } })],
    [
      "huge numbers",
      log({
        attributes: { big: { type: "integer", value: 1e308 }, bigger: { type: "integer", value: 2 ** 70 }, neg: { type: "double", value: -1e308 } },
        severity_number: 1e300,
      }),
    ],
    ["bad levels", log({ level: "LOUD", severity_number: -5 })],
    ["a numeric level", log({ level: 17 })],
    ["no body", log({ body: undefined })],
    ["an object body", log({ body: { text: "x" } })],
    ["no timestamp", log({ timestamp: undefined })],
    ["a timestamp far in the future", log({ timestamp: 1e12 })],
    ["a text timestamp", log({ timestamp: "yesterday" })],
    ["a bad trace id", log({ trace_id: "not-a-trace" })],
    ["attributes as an array", log({ attributes: [1, 2, 3] })],
    ["a 100 KB key", log({ attributes: { ["k".repeat(100_000)]: { type: "string", value: "v" } } })],
    ["null", null],
    ["a string", "a log"],
  ];
  const cases: HostileCase[] = logs.map(([label, item]) => ({
    name: `log item: ${label}`,
    method: "POST",
    path: envelopePath(t),
    body: utf8(`{}\n{"type":"log","item_count":1,"content_type":"application/vnd.sentry.items.log+json"}\n${JSON.stringify({ items: [item] })}\n`),
  }));
  const raw: [string, string][] = [
    ["items not an array", JSON.stringify({ items: { a: 1 } })],
    ["no items", "{}"],
    ["not JSON", "{items: ["],
    ["nested 1,000 levels", `{"items":${"[".repeat(1000)}${"]".repeat(1000)}}`],
    ["2,000 logs", JSON.stringify({ items: Array.from({ length: 2000 }, (_, i) => log({ body: `line ${i}` })) })],
  ];
  for (const [label, payload] of raw)
    cases.push({ name: `log item: ${label}`, method: "POST", path: envelopePath(t), body: utf8(`{}\n{"type":"log","item_count":99999999}\n${payload}\n`) });
  const otel: [string, unknown][] = [
    [
      "camelCase",
      {
        timeUnixNano: String(Date.now() * 1e6),
        severityNumber: 17,
        body: { stringValue: "otel" },
        traceId: hex(rng, 32),
        attributes: [{ key: "a", value: { intValue: "99999999999999999999999" } }],
      },
    ],
    ["wrong types", { timeUnixNano: [], severityNumber: "x", body: { kvlistValue: {} }, attributes: "no" }],
    ["an array", []],
  ];
  for (const [label, payload] of otel)
    cases.push({ name: `otel_log item: ${label}`, method: "POST", path: envelopePath(t), body: utf8(`{}\n{"type":"otel_log"}\n${JSON.stringify(payload)}\n`) });
  const api = `/api/0/projects/${t.org}/${t.project}/logs/`;
  const token = { authorization: `Bearer ${t.token}` };
  for (const q of [
    "query=" + "x".repeat(600),
    "query=" + encodeURIComponent('a:"b'),
    "level=loud",
    "statsPeriod=99y",
    "start=yesterday",
    "start=2030-01-01T00:00:00Z&end=2020-01-01T00:00:00Z",
    "trace=xyz",
    "cursor=abc",
    "per_page=100000",
    "per_page=-1",
    "query=%00%00",
    "query=" + encodeURIComponent(Array.from({ length: 30 }, (_, i) => `w${i}`).join(" ")),
  ]) {
    cases.push({ name: `logs API: ${q.slice(0, 60)}`, method: "GET", path: `${api}?${q}`, headers: token });
  }
  cases.push({ name: "events API: dataset=logs without a project", method: "GET", path: `/api/0/organizations/${t.org}/events/?dataset=logs`, headers: token });
  cases.push({
    name: "events API: another dataset",
    method: "GET",
    path: `/api/0/organizations/${t.org}/events/?dataset=spans&project=${t.projectId}`,
    headers: token,
  });
  cases.push({
    name: "events API: a project id of another kind",
    method: "GET",
    path: `/api/0/organizations/${t.org}/events/?dataset=logs&project=abc`,
    headers: token,
  });
  return cases;
}
