// Sentry's issue search as Faultline reads it, and issue short ids in Crockford's base32.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isAppError } from "../../src/core/errors";
import { parseIssueQuery } from "../../src/core/issue-query";
import { base32Encode, formatShortId } from "../../src/core/short-id";

describe("issue search", () => {
  test("no query means is:unresolved; an empty one means every issue", () => {
    assert.equal(parseIssueQuery(null).status, "unresolved");
    assert.deepEqual(parseIssueQuery(""), { status: null, level: null, tags: [], text: [] });
  });
  test("status (with the archived and muted aliases), level, tags, quoted values and free text", () => {
    assert.deepEqual(parseIssueQuery('is:archived level:warning release:"web 1.2" tags[feature]:cart environment:prod "payment failed" timeout'), {
      status: "ignored",
      level: "warning",
      tags: [["release", "web 1.2"], ["feature", "cart"], ["environment", "prod"]],
      text: ["payment failed", "timeout"],
    });
    assert.equal(parseIssueQuery("is:muted").status, "ignored");
    assert.equal(parseIssueQuery("is:resolved").status, "resolved");
  });
  test("unknown keys, statuses and levels are refused with a message, not ignored", () => {
    for (const q of ["assigned:me", "is:bookmarked", "level:loud", "firstSeen:-24h"]) {
      assert.throws(() => parseIssueQuery(q), (e: unknown) => isAppError(e) && e.code === "bad_request" && e.message.length > 0, q);
    }
  });
});

describe("short ids", () => {
  test("Crockford's base32, as Sentry's base32_encode: no I, L, O or U", () => {
    assert.deepEqual([0, 1, 9, 10, 17, 18, 31, 32, 42, 1024].map(base32Encode), ["0", "1", "9", "A", "H", "J", "Z", "10", "1A", "100"]);
    assert.equal(formatShortId("shop-web", 42), "SHOP-WEB-1A");
  });
});
