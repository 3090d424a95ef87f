// User feedback (issue 19): Sentry's user-feedback endpoint given what no SDK sends, with the project's DSN and with a
// token: NUL bytes, a megabyte, wrong types, nesting, broken JSON and UTF-8, garbage credentials; and user_report
// items of the same kind through the envelope endpoint. The endpoint answers each with a 4xx naming the problem (or
// 200 when the report is usable, trimmed), the intake with 200 as Relay does, never a 5xx.
import { type HostileCase, type Rng, type Target, envelopePath, hex } from "./cases";

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

export function feedbackCases(t: Target, rng: Rng): HostileCase[] {
  const path = `/api/0/projects/${t.org}/${t.project}/user-feedback/`;
  const dsn = { authorization: `DSN ${t.dsn}`, "content-type": "application/json" };
  const token = { authorization: `Bearer ${t.token}`, "content-type": "application/json" };
  const id = () => hex(rng, 32);
  const bodies: [string, unknown][] = [
    ["valid", { event_id: id(), name: "Ann", email: "ann@example.com", comments: "It broke" }],
    ["NUL in every field", { event_id: id(), name: "A\u0000nn", email: "a\u0000@b.c", comments: "x\u0000y" }],
    ["only NUL comments", { event_id: id(), comments: "\u0000\u0000" }],
    ["60 KB comments", { event_id: id(), comments: "x".repeat(60_000) }],
    ["a long name and e-mail", { event_id: id(), name: "n".repeat(10_000), email: `${"e".repeat(10_000)}@example.com`, comments: "long" }],
    ["numbers for strings", { event_id: id(), name: 1, email: 2, comments: 3 }],
    ["an array for comments", { event_id: id(), comments: ["a", "b"] }],
    ["an object for name", { event_id: id(), name: { first: "A" }, comments: "c" }],
    ["a number for event_id", { event_id: 12345, comments: "c" }],
    ["a short event_id", { event_id: "abc", comments: "c" }],
    ["no event_id", { comments: "c" }],
    ["a UUID with dashes", { event_id: "3c5a7c0e-1f7d-4f0b-9a7e-0c1b2d3e4f50", comments: "dashes" }],
    ["deep nesting", { event_id: id(), comments: JSON.parse(`${"[".repeat(500)}1${"]".repeat(500)}`) }],
    ["null everywhere", { event_id: null, name: null, email: null, comments: null }],
    ["an array body", [1, 2, 3]],
    ["a string body", "comments"],
  ];
  const cases: HostileCase[] = [];
  for (const [label, body] of bodies) {
    cases.push({ name: `user-feedback API: ${label} (DSN)`, method: "POST", path, headers: dsn, body: utf8(JSON.stringify(body)) });
    cases.push({ name: `user-feedback API: ${label} (token)`, method: "POST", path, headers: token, body: utf8(JSON.stringify(body)) });
  }
  const raw: [string, Uint8Array, Record<string, string>][] = [
    ["1 MB comments (DSN)", utf8(JSON.stringify({ event_id: id(), comments: "x".repeat(1 << 20) })), dsn],
    ["broken JSON (DSN)", utf8(`{"event_id":"${id()}","comments":"cut`), dsn],
    ["invalid UTF-8 (DSN)", new Uint8Array([0x7b, 0x22, 0x63, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), dsn],
    ["empty body (DSN)", new Uint8Array(), dsn],
    ["an unknown key (DSN)", utf8("{}"), { authorization: `DSN https://${"0".repeat(32)}@localhost/${t.projectId}` }],
    ["garbage DSN", utf8("{}"), { authorization: "DSN not a dsn at all" }],
    ["a DSN of 64 KB", utf8("{}"), { authorization: `DSN https://${"a".repeat(65_536)}@localhost/1` }],
    ["no credentials", utf8(JSON.stringify({ event_id: id(), comments: "c" })), { "content-type": "application/json" }],
  ];
  for (const [label, body, headers] of raw) cases.push({ name: `user-feedback API: ${label}`, method: "POST", path, headers, body });
  cases.push({
    name: "user-feedback API: a project that does not exist (DSN)",
    method: "POST",
    path: `/api/0/projects/${t.org}/no-such-project/user-feedback/`,
    headers: dsn,
    body: utf8("{}"),
  });

  const reports: [string, string][] = [
    ["NUL and a megabyte", JSON.stringify({ event_id: id(), name: "\u0000", email: "x", comments: `\u0000${"y".repeat(1 << 20)}` })],
    ["wrong types", JSON.stringify({ event_id: id(), name: [1], email: { a: 1 }, comments: 5 })],
    ["no event_id", JSON.stringify({ comments: "c" })],
    ["not JSON", "{user report"],
    ["an array", "[]"],
  ];
  for (const [label, payload] of reports) {
    cases.push({ name: `user_report item: ${label}`, method: "POST", path: envelopePath(t), body: utf8(`{}\n{"type":"user_report"}\n${payload}\n`) });
  }
  return cases;
}
