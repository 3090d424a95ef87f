// The web API (/api/0, bearer token) given what a broken script or an attacker sends: bodies nested thousands of
// levels deep (JSON.parse takes them; JSON.stringify of such a value overflowed the stack, a 500), and issue searches
// of a thousand terms (SQLite refused the statement, a 500) or lists of a thousand values. Each must get a 4xx with a
// detail, never a 5xx. (TRACE, which fetch cannot send, is in tests/ingest/hostile-input.test.ts over a raw socket.)
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
  return cases;
}
