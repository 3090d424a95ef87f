// The web API (/api/0, bearer token) given what a broken script or an attacker sends: bodies nested thousands of
// levels deep (JSON.parse takes them; JSON.stringify of such a value overflowed the stack, a 500), and issue searches
// of a thousand terms (SQLite refused the statement, a 500) or lists of a thousand values. Each must get a 4xx with a
// detail, never a 5xx; and NUL characters in names, slugs and searches (below). (TRACE, which fetch cannot send, is in
// tests/ingest/hostile-input.test.ts over a raw socket.)
import type { HostileCase, Target } from "./cases";

const deep = (levels: number) => `{"data":${"[".repeat(levels)}1${"]".repeat(levels)}}`;

export function webApiCases(t: Target): HostileCase[] {
  const auth = { authorization: `Bearer ${t.token}` };
  const json = { ...auth, "content-type": "application/json" };
  const enc = (s: string) => encodeURIComponent(s);
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
  const cases: HostileCase[] = [];
  const body = (name: string, method: string, path: string, text: string) =>
    cases.push({ name: `web API: ${name}`, method, path, headers: json, body: new TextEncoder().encode(text) });
  for (const levels of [129, 10_000, 30_000]) {
    body(`a release nested ${levels} levels`, "POST", `/api/0/organizations/${t.org}/releases/`, deep(levels));
    body(`a release update nested ${levels} levels`, "PUT", `/api/0/organizations/${t.org}/releases/hostile-1.0/`, deep(levels));
    body(`an alert rule nested ${levels} levels`, "POST", `/api/0/projects/${t.org}/${t.project}/rules/`, deep(levels));
    body(`an issue update nested ${levels} levels`, "PUT", `/api/0/projects/${t.org}/${t.project}/issues/?id=1`, deep(levels));
    body(`an organization nested ${levels} levels`, "POST", `/api/0/organizations/`, deep(levels));
  }
  const search = (name: string, query: string) =>
    cases.push({ name: `web API: ${name}`, method: "GET", path: `/api/0/projects/${t.org}/${t.project}/issues/?query=${enc(query)}`, headers: auth });
  search("a search of 1,000 one-letter words", "x ".repeat(1000).trim());
  search("a search of 51 words", words(51));
  search("a search of 400 tag terms", Array.from({ length: 400 }, (_, i) => `browser:b${i}`).join(" "));
  search("an assignee list of 1,000 values", `assigned:[${Array.from({ length: 1000 }, () => "a").join(",")}]`);
  search("a search of nested brackets", "[a".repeat(900));
  cases.push({
    name: "web API: an organization's search of 1,000 words",
    method: "GET",
    path: `/api/0/organizations/${t.org}/issues/?query=${enc("y ".repeat(1000).trim())}`,
    headers: auth,
  });
  // NUL in names, versions, slugs and searches: PostgreSQL refuses it in a statement ("invalid byte sequence"), which
  // answered 500 on PostgreSQL installs (59 requests of a probe of every route); each is now a 400 or a 404.
  const N = "a\u0000b";
  const nulBodies: [string, string, string, unknown][] = [
    ["an organization named with NUL", "POST", "/api/0/organizations/", { name: N }],
    ["an organization renamed with NUL", "PUT", `/api/0/organizations/${t.org}/`, { name: N }],
    ["a team named with NUL", "POST", `/api/0/organizations/${t.org}/teams/`, { name: N }],
    ["a project renamed with NUL", "PUT", `/api/0/projects/${t.org}/${t.project}/`, { name: N }],
    ["a key labelled with NUL", "POST", `/api/0/projects/${t.org}/${t.project}/keys/`, { name: N }],
    ["a release version with NUL", "POST", `/api/0/organizations/${t.org}/releases/`, { version: N, projects: [t.project] }],
    ["a release ref with NUL", "POST", `/api/0/organizations/${t.org}/releases/`, { version: "nul-1.0", projects: [t.project], ref: N }],
    ["a release's project with NUL", "POST", `/api/0/organizations/${t.org}/releases/`, { version: "nul-1.1", projects: [N] }],
    [
      "a monitor named with NUL",
      "POST",
      `/api/0/organizations/${t.org}/monitors/`,
      { name: N, project: t.project, config: { schedule_type: "crontab", schedule: "* * * * *" } },
    ],
    ["an assignee with NUL", "PUT", `/api/0/projects/${t.org}/${t.project}/issues/?id=1`, { assignedTo: "p\u0000@example.com" }],
    [
      "a metric alert's project with NUL",
      "POST",
      `/api/0/organizations/${t.org}/alert-rules/`,
      { name: "m", aggregate: "count()", timeWindow: 5, projects: [N], triggers: [] },
    ],
    [
      "an artifact bundle's project with NUL",
      "POST",
      `/api/0/organizations/${t.org}/artifactbundle/assemble/`,
      { checksum: "a".repeat(40), chunks: ["a".repeat(40)], projects: [N] },
    ],
    ["a NUL in a key of the body", "PUT", `/api/0/projects/${t.org}/${t.project}/`, { ["na\u0000me"]: "x" }],
  ];
  for (const [name, method, path, value] of nulBodies) body(name, method, path, JSON.stringify(value));
  // A list's parameters ride along in its Link header twice: too long for a header a client can read is a 414 (Node's
  // fetch, which the corpus uses, refused the answer before: UND_ERR_HEADERS_OVERFLOW).
  const environments = (n: number) => Array.from({ length: n }, (_, i) => `environment=env-${i}`).join("&");
  for (const [name, path] of [
    ["an issue list's environment of 8,000 characters", `/api/0/projects/${t.org}/${t.project}/issues/?environment=${"A".repeat(8000)}`],
    ["a release list of 600 environments", `/api/0/organizations/${t.org}/releases/?${environments(600)}`],
    ["an audit log's actor of 8,000 characters", `/api/0/organizations/${t.org}/audit-logs/?actor=${"a".repeat(8000)}`],
    ["junk parameters of 12,000 characters", `/api/0/organizations/?junk=${"x".repeat(12_000)}`],
  ] as const) {
    cases.push({ name: `web API: ${name}`, method: "GET", path, headers: auth });
  }
  const nulGets: [string, string][] = [
    ["an issue search of NUL", `/api/0/projects/${t.org}/${t.project}/issues/?query=%00`],
    ["an issue environment of NUL", `/api/0/projects/${t.org}/${t.project}/issues/?environment=a%00b`],
    ["a release search of NUL", `/api/0/organizations/${t.org}/releases/?query=%00`],
    ["a releases' project of NUL", `/api/0/organizations/${t.org}/releases/?project=%00`],
    ["a monitors' project of NUL", `/api/0/organizations/${t.org}/monitors/?project=%00`],
    ["an organization slug with NUL", "/api/0/organizations/a%00b/"],
    ["a project slug with NUL", `/api/0/projects/${t.org}/a%00b/`],
    ["a release version with NUL in the path", `/api/0/organizations/${t.org}/releases/a%00b/`],
    ["a monitor slug with NUL in the path", `/api/0/organizations/${t.org}/monitors/a%00b/`],
    ["a tag key with NUL in the path", "/api/0/issues/1/tags/a%00b/values/"],
  ];
  for (const [name, path] of nulGets) cases.push({ name: `web API: ${name}`, method: "GET", path, headers: auth });
  return cases;
}
