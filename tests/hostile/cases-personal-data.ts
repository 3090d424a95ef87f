// A person's data (issue 18): the JSON export's search, given values no user object holds: NUL bytes, control
// characters, a megabyte, an unknown field, no value, repeated parameters. Each must get a 4xx with a detail, never a
// 5xx; a well-formed search that finds nobody is an empty file (200).
import type { HostileCase, Target } from "./cases";

export function personalDataCases(t: Target): HostileCase[] {
  const auth = { authorization: `Bearer ${t.token}` };
  const path = (query: string) => `/api/0/organizations/${t.org}/personal-data/export/?${query}`;
  const q = (field: string, value: string) => `field=${encodeURIComponent(field)}&value=${encodeURIComponent(value)}`;
  return [
    ["a NUL byte", q("email", "ann\u0000@example.com")],
    ["a newline", q("id", "42\n")],
    ["a DEL", q("username", "ann\u007f")],
    ["201 characters", q("id", "x".repeat(201))],
    ["64 KB", q("id", "x".repeat(64 * 1024))],
    ["1 MB", q("id", "x".repeat(1 << 20))],
    ["an unknown field", q("password", "x")],
    ["no value", "field=id"],
    ["an empty value", q("id", "")],
    ["lone surrogate", "field=id&value=%ED%A0%80"],
    ["repeated parameters", `${q("id", "1")}&${q("email", "a@b")}`],
    ["nobody (valid)", q("id", "no-such-user-of-the-corpus")],
  ].map(([name, query]) => ({ name: `personal data export: ${name}`, path: path(query!), headers: auth }));
}
