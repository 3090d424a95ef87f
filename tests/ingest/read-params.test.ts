// The query parameters a web API route read (web/api/read-params.ts), which the Link header carries to the next page:
// those asked for by name, all of them once the route walks them, never the cursor, each in its order with every value.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parametersRead, trackParameterReads } from "../../src/web/api/read-params";

const tracked = (query: string) => {
  const url = new URL(`http://faultline.test/api/0/projects/acme/web/issues/?${query}`);
  trackParameterReads(url);
  return url;
};

test("a route's parameters read by name are carried, with every value and in order; others and the cursor are not", () => {
  const url = tracked(`environment=prod&junk=${"x".repeat(10_000)}&query=is:unresolved&environment=staging&cursor=abc&statsPeriod=24h`);
  assert.equal(url.searchParams.get("query"), "is:unresolved");
  assert.deepEqual(url.searchParams.getAll("environment"), ["prod", "staging"]);
  assert.equal(url.searchParams.has("statsPeriod"), true);
  assert.equal(url.searchParams.get("cursor"), "abc");
  assert.deepEqual(parametersRead(url), [
    ["environment", "prod"],
    ["query", "is:unresolved"],
    ["environment", "staging"],
    ["statsPeriod", "24h"],
  ]);
});

test("a parameter asked for but absent adds nothing; one never asked for is dropped", () => {
  const url = tracked("per_page=2&unknown=1");
  assert.equal(url.searchParams.get("sort"), null);
  assert.equal(url.searchParams.get("per_page"), "2");
  assert.deepEqual(parametersRead(url), [["per_page", "2"]]);
});

test("a route that walks its parameters keeps all of them, however it walks", () => {
  for (const walk of [
    (p: URLSearchParams) => p.forEach(() => undefined),
    (p: URLSearchParams) => [...p],
    (p: URLSearchParams) => [...p.entries()],
    (p: URLSearchParams) => [...p.keys()],
    (p: URLSearchParams) => [...p.values()],
    (p: URLSearchParams) => p.toString(),
    (p: URLSearchParams) => Object.fromEntries(p),
  ]) {
    const url = tracked("a=1&b=2&cursor=c");
    walk(url.searchParams);
    assert.deepEqual(parametersRead(url), [
      ["a", "1"],
      ["b", "2"],
    ]);
  }
});

test("reading for the header is not the route's reading, and an untracked address carries everything but the cursor", () => {
  const url = tracked("a=1&b=2");
  url.searchParams.get("a");
  parametersRead(url);
  assert.deepEqual(parametersRead(url), [["a", "1"]]);
  assert.deepEqual(parametersRead(new URL("http://faultline.test/?a=1&cursor=x&b=2")), [
    ["a", "1"],
    ["b", "2"],
  ]);
});
