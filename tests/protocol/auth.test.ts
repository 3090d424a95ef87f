// Sentry credentials as each SDK sends them (sentry-protocol.md §1 table), and Relay's rules for conflicts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { extractAuth, parseDsn, parseSentryAuthHeader } from "../../src/protocol/auth";
import { protocolReason } from "../helpers/protocol";

const KEY = "0123456789abcdef0123456789abcdef";
const none = new URLSearchParams();
const reason = protocolReason;

describe("X-Sentry-Auth as the SDKs write it", () => {
  test("sentry-python 1.9", () => {
    assert.deepEqual(parseSentryAuthHeader(`Sentry sentry_key=${KEY}, sentry_version=7, sentry_client=sentry.python/1.9.10`), {
      publicKey: KEY,
      version: 7,
      client: "sentry.python/1.9.10",
    });
  });
  test("sentry-go 0.11 (timestamp first, key last)", () => {
    assert.equal(
      parseSentryAuthHeader(`Sentry sentry_version=7, sentry_timestamp=1700000000, sentry_client=sentry.go/0.11.0, sentry_key=${KEY}`).publicKey,
      KEY,
    );
  });
  test("sentry-raven 3.x: version 5 and a secret", () => {
    const a = parseSentryAuthHeader(
      `Sentry sentry_version=5, sentry_client=raven-ruby/3.1.2, sentry_timestamp=1700000000, sentry_key=${KEY}, sentry_secret=s3cr3t`,
    );
    assert.deepEqual(a, { publicKey: KEY, version: 5, client: "raven-ruby/3.1.2" });
  });
  test("the prefix is case-insensitive; unknown keys are ignored; spaces are trimmed", () => {
    assert.equal(parseSentryAuthHeader(`SENTRY   sentry_key = ${KEY} ,other=1, sentry_version=7`).publicKey, KEY);
  });
  test("no sentry_key, no Sentry prefix, or a version above 7 are refused", () => {
    assert.equal(
      reason(() => parseSentryAuthHeader("Sentry sentry_version=7")),
      "bad_auth",
    );
    assert.equal(
      reason(() => parseSentryAuthHeader(`Bearer ${KEY}`)),
      "bad_auth",
    );
    assert.equal(
      reason(() => parseSentryAuthHeader(`Sentry sentry_key=${KEY}, sentry_version=8`)),
      "unsupported_version",
    );
  });
});

describe("where the credentials are", () => {
  test("the JavaScript SDKs: the query string only", () => {
    const q = new URLSearchParams({ sentry_version: "7", sentry_key: KEY, sentry_client: "sentry.javascript.browser/11.5.0" });
    assert.deepEqual(extractAuth({ headers: {}, query: q }), { publicKey: KEY, version: 7, client: "sentry.javascript.browser/11.5.0" });
  });
  test("Authorization: Sentry … and Authorization: Basic base64(key:…)", () => {
    assert.equal(extractAuth({ headers: { authorization: `Sentry sentry_key=${KEY}` }, query: none }).publicKey, KEY);
    const basic = Buffer.from(`${KEY}:x`).toString("base64");
    assert.equal(extractAuth({ headers: { authorization: `Basic ${basic}` }, query: none }).publicKey, KEY);
  });
  test("a tunnelled envelope: the dsn of its header, when nothing else is present", () => {
    const a = extractAuth({ headers: {}, query: none, envelopeDsn: `https://${KEY}@faultline.example.com/monitor/42` });
    assert.equal(a.publicKey, KEY);
    assert.deepEqual(parseDsn(`https://${KEY}:secret@faultline.example.com/monitor/42`), { publicKey: KEY, projectId: "42" });
    assert.equal(parseDsn("not a url"), null);
    assert.equal(parseDsn("https://faultline.example.com/42"), null);
  });
  test("query parameters without sentry_ keys do not count", () => {
    assert.equal(extractAuth({ headers: { "x-sentry-auth": `Sentry sentry_key=${KEY}` }, query: new URLSearchParams({ other: "1" }) }).publicKey, KEY);
  });
  test("two sources at once: multiple authorization payloads; none: missing authorization", () => {
    const q = new URLSearchParams({ sentry_key: KEY });
    assert.equal(
      reason(() => extractAuth({ headers: { "x-sentry-auth": `Sentry sentry_key=${KEY}` }, query: q })),
      "multiple_auth",
    );
    assert.equal(
      reason(() => extractAuth({ headers: {}, query: none })),
      "missing_auth",
    );
    assert.equal(
      reason(() => extractAuth({ headers: {}, query: none, envelopeDsn: "garbage" })),
      "missing_auth",
    );
  });
});
