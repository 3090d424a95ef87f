// Sentry's issue search as Faultline reads it, and issue short ids in Crockford's base32.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isAppError } from "../../src/core/errors";
import { parseIssueQuery } from "../../src/core/issue-query";
import { base32Encode, formatShortId } from "../../src/core/short-id";

describe("issue search", () => {
  test("no query means is:unresolved; an empty one means every issue", () => {
    assert.equal(parseIssueQuery(null).status, "unresolved");
    assert.deepEqual(parseIssueQuery(""), { status: null, level: null, tags: [], text: [], assigned: [] });
  });
  test("status (with the archived and muted aliases), level, tags, quoted values and free text", () => {
    assert.deepEqual(parseIssueQuery('is:archived level:warning release:"web 1.2" tags[feature]:cart environment:prod "payment failed" timeout'), {
      status: "ignored",
      level: "warning",
      tags: [
        ["release", "web 1.2"],
        ["feature", "cart"],
        ["environment", "prod"],
      ],
      text: ["payment failed", "timeout"],
      assigned: [],
    });
    assert.equal(parseIssueQuery("is:muted").status, "ignored");
    assert.equal(parseIssueQuery("is:resolved").status, "resolved");
  });
  test("digest:<n> finds the event of a server error whose digest a fallback page showed (runtime-spec §8)", () => {
    assert.deepEqual(parseIssueQuery("digest:1751455091").tags, [["digest", "1751455091"]]);
  });
  test("unknown keys, statuses and levels are refused with a message, not ignored", () => {
    for (const q of ["is:bookmarked", "level:loud", "firstSeen:-24h", "assigned:[]", "release:[a,b]"]) {
      assert.throws(
        () => parseIssueQuery(q),
        (e: unknown) => isAppError(e) && e.code === "bad_request" && e.message.length > 0,
        q,
      );
    }
  });
  test("names of Object's own properties are unknown statuses, not statuses", () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      assert.throws(
        () => parseIssueQuery(`is:${name}`),
        (e: unknown) => isAppError(e) && e.code === "bad_request" && e.message.includes(`is:${name}`),
        name,
      );
    }
  });
});

describe("assignee search", () => {
  test("assigned: me, my_teams, none, a #team, a user; lists are alternatives; is:assigned and is:unassigned", () => {
    assert.deepEqual(parseIssueQuery("assigned:me").assigned, [[{ kind: "me" }]]);
    assert.deepEqual(parseIssueQuery("assigned:#backend").assigned, [[{ kind: "team", slug: "backend" }]]);
    assert.deepEqual(parseIssueQuery("assigned:jane@example.com").assigned, [[{ kind: "user", name: "jane@example.com" }]]);
    assert.deepEqual(parseIssueQuery("is:unresolved assigned:[me, none] crash").assigned, [[{ kind: "me" }, { kind: "none" }]]);
    assert.deepEqual(parseIssueQuery("is:unresolved assigned:[me, none] crash").text, ["crash"], "the list's space does not split it");
    assert.deepEqual(parseIssueQuery("assigned:[me,#web,my_teams]").assigned, [[{ kind: "me" }, { kind: "team", slug: "web" }, { kind: "my_teams" }]]);
    const both = parseIssueQuery("is:assigned is:unresolved");
    assert.deepEqual([both.assigned, both.status], [[[{ kind: "any" }]], "unresolved"], "is:assigned is not a status");
    assert.deepEqual(parseIssueQuery("is:unassigned").assigned, [[{ kind: "none" }]]);
  });
});

describe("short ids", () => {
  test("Crockford's base32, as Sentry's base32_encode: no I, L, O or U", () => {
    assert.deepEqual([0, 1, 9, 10, 17, 18, 31, 32, 42, 1024].map(base32Encode), ["0", "1", "9", "A", "H", "J", "Z", "10", "1A", "100"]);
    assert.equal(formatShortId("shop-web", 42), "SHOP-WEB-1A");
  });
});
