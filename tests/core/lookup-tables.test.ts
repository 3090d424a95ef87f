// Tables looked up by a name from a request (a statsPeriod, a tag key, a CSP directive) answer only for their own
// entries: "constructor" or "__proto__" are names like any other, never Object's properties.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { securityReportEvents } from "../../src/protocol/security-report";
import { isListStatsPeriod } from "../../src/web/api/issue-response";
import { tagLabel } from "../../src/web/api/triage-serializers";

const OBJECT_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];

describe("lookups by a name from a request", () => {
  test("statsPeriod of the issue list: 24h, 14d or nothing, and no Object property", () => {
    assert.deepEqual(["24h", "14d", ""].map(isListStatsPeriod), [true, true, true]);
    for (const name of OBJECT_NAMES) assert.equal(isListStatsPeriod(name), false, name);
  });

  test("a tag's label: Sentry's for its known keys, else the key title-cased", () => {
    assert.equal(tagLabel("server_name"), "Server");
    assert.equal(tagLabel("feature_flag"), "Feature Flag");
    for (const name of OBJECT_NAMES) assert.equal(typeof tagLabel(name), "string", name);
    assert.equal(tagLabel("constructor"), "Constructor");
  });

  test("a CSP report's directive named like an Object property is quoted as sent", () => {
    const report = {
      "csp-report": { "document-uri": "https://shop.example/", "blocked-uri": "https://cdn.example/x.js", "effective-directive": "constructor" },
    };
    const [event] = securityReportEvents(new TextEncoder().encode(JSON.stringify(report)), {});
    assert.equal((event!.logentry as { formatted: string }).formatted, "Blocked 'constructor' from 'cdn.example'");
  });
});
