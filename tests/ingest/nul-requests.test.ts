// NUL characters in web API requests (web/api/nul.ts) and in the core's names and searches: PostgreSQL refuses NUL
// in a statement, which answered 500 on PostgreSQL installs. The API refuses them with a 400 naming where they are;
// a slug with one names nothing (404); an issue search with one is a 400. The same requests run against production
// servers on SQLite and PostgreSQL in the bad-input corpus (tests/hostile/cases-web-api.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { requireText } from "../../src/core/access";
import { isAppError } from "../../src/core/errors";
import { parseIssueQuery } from "../../src/core/issue-query";
import { nulInJson, nulInUrl } from "../../src/web/api/nul";

const codeOf = (run: () => unknown) => {
  try {
    run();
    return "ok";
  } catch (err) {
    return isAppError(err) ? err.code : String(err);
  }
};

test("a NUL anywhere in a JSON body is found, with where it is", () => {
  assert.equal(nulInJson({ name: "ok", projects: ["a", "b"], nested: { deep: [{ x: 1 }] } }), null);
  assert.equal(nulInJson({ name: "a\u0000b" }), "name");
  assert.equal(nulInJson({ projects: ["ok", "a\u0000"] }), "projects[1]");
  assert.equal(nulInJson({ triggers: [{ actions: [{ targetIdentifier: "\u0000" }] }] }), "triggers[0].actions[0].targetIdentifier");
  assert.equal(nulInJson({ ["na\u0000me"]: 1 }), "a key of the body");
  assert.equal(nulInJson({ a: 1, b: null, c: true }), null);
});

test("a NUL in a request's decoded path or query parameters is found; percent-encoding of anything else is not", () => {
  const at = (u: string) => nulInUrl(new URL(u, "http://faultline.test"));
  assert.equal(at("/api/0/organizations/acme/releases/a%40b/?query=x%20y&cursor=0:100:0"), null);
  assert.equal(at("/api/0/organizations/a%00b/"), "the path");
  assert.equal(at("/api/0/projects/acme/web/issues/?query=%00"), 'the parameter "query"');
  assert.equal(at("/api/0/projects/acme/web/issues/?environment=prod&environment=a%00"), 'the parameter "environment"');
  assert.equal(at("/api/0/?a%00=1"), 'the parameter "a"');
});

test("a slug with a NUL names nothing (404), and an issue search with one is a 400", () => {
  assert.equal(
    codeOf(() => requireText("acme", "Organization")),
    "ok",
  );
  assert.equal(
    codeOf(() => requireText("ac\u0000me", "Organization")),
    "not_found",
  );
  assert.equal(
    codeOf(() => parseIssueQuery("is:unresolved")),
    "ok",
  );
  assert.equal(
    codeOf(() => parseIssueQuery("\u0000")),
    "bad_request",
  );
  assert.equal(
    codeOf(() => parseIssueQuery("release:a\u0000b")),
    "bad_request",
  );
});
