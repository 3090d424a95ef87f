// The scrubbing engine with Sentry's project settings (issue 18): the defaults, sensitive and safe fields, IP
// addresses, the organization's settings winning over the project's, and the _meta notes as Relay writes them.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import { normalizeEvent } from "../../src/digest/normalize/index";
import { DEFAULT_SCRUBBING_OPTIONS as D, effectiveScrubbing, type ScrubbingOptions } from "../../src/scrub/index";
import { SCRUB_LIMITS } from "../../src/config/limits/privacy";
import { hash } from "../../src/scrub/redact";
import type { TestJson } from "../helpers/json";

const OFF: ScrubbingOptions = { ...D, dataScrubber: false, dataScrubberDefaults: false };

function scrub(event: Record<string, unknown>, project: Partial<ScrubbingOptions> = {}, org: ScrubbingOptions = OFF): Record<string, unknown> {
  effectiveScrubbing(org, { ...D, ...project }).scrubEvent(event);
  return event;
}

describe("issue 18 scrubbing: the default settings", () => {
  test("DEFAULT_SCRUBBING_OPTIONS are Sentry's: scrubbing and its defaults on, IP addresses kept, no rules", () => {
    assert.deepEqual(D, { dataScrubber: true, dataScrubberDefaults: true, sensitiveFields: [], safeFields: [], scrubIPAddresses: false, relayPiiConfig: null });
  });

  test("a password under a sensitive key becomes [Filtered], with Relay's remark and the original length", () => {
    const e = scrub({ extra: { password: "correct horse battery staple 123", foo: "bar" } });
    assert.deepEqual(e.extra, { password: "[Filtered]", foo: "bar" });
    assert.deepEqual(e._meta, { extra: { password: { "": { rem: [["@password:filter", "s", 0, 10]], len: 32 } } } });
  });

  test("the Authorization header (a pair list) is filtered and noted at headers.<index>.1", () => {
    const e = scrub({
      request: {
        headers: [
          ["Accept", "text/html"],
          ["Authorization", "Basic dXNlcjpwYXNzd29yZA=="],
        ],
      },
    });
    assert.deepEqual((e.request as { headers: unknown }).headers, [
      ["Accept", "text/html"],
      ["Authorization", "[Filtered]"],
    ]);
    assert.deepEqual(e._meta, { request: { headers: { "1": { "1": { "": { rem: [["@password:filter", "s", 0, 10]], len: 26 } } } } } });
  });

  test("session cookies are filtered, other cookies kept", () => {
    const e = scrub({
      request: {
        cookies: [
          ["sessionid", "abc123"],
          ["theme", "dark"],
        ],
      },
    });
    assert.deepEqual((e.request as { cookies: unknown }).cookies, [
      ["sessionid", "[Filtered]"],
      ["theme", "dark"],
    ]);
  });

  test("a credit card number in a message is replaced; the exception type, function and module are never touched", () => {
    const e = scrub({
      logentry: { formatted: "paid with 4242-4242-4242-4242 today", message: "card 4111111111111111" },
      exception: {
        values: [
          {
            type: "PasswordError",
            module: "auth.password",
            value: "secret",
            stacktrace: { frames: [{ function: "check_password", module: "auth", filename: "/home/jane/auth.py" }] },
          },
        ],
      },
    });
    assert.deepEqual(e.logentry, { formatted: "paid with [creditcard] today", message: "card [Filtered]" });
    const ex = (e.exception as { values: Record<string, unknown>[] }).values[0]!;
    assert.equal(ex.type, "PasswordError");
    assert.equal(ex.module, "auth.password");
    assert.equal(ex.value, "secret");
    assert.deepEqual((ex.stacktrace as { frames: unknown[] }).frames[0], { function: "check_password", module: "auth", filename: "/home/jane/auth.py" });
  });

  test("a container under a sensitive key is removed (null) with an `x` remark", () => {
    const e = scrub({ extra: { credentials: { user: "a", pass: "b" } } });
    assert.deepEqual(e.extra, { credentials: null });
    assert.deepEqual(e._meta, { extra: { credentials: { "": { rem: [["@password:filter", "x"]] } } } });
  });

  test("known contexts (os, browser...) are pii=maybe and kept; unknown ones are scrubbed", () => {
    const e = scrub({ contexts: { os: { type: "os", password: "x1" }, biz: { type: "biz", password: "x2" } } });
    assert.deepEqual(e.contexts, { os: { type: "os", password: "x1" }, biz: { type: "biz", password: "[Filtered]" } });
  });

  test("existing _meta from normalization is merged, not replaced", () => {
    const e = scrub({ extra: { api_key: "k" }, _meta: { extra: { other: { "": { err: ["invalid_data"] } } } } });
    assert.deepEqual(e._meta, { extra: { other: { "": { err: ["invalid_data"] } }, api_key: { "": { rem: [["@password:filter", "s", 0, 10]], len: 1 } } } });
  });
});

describe("issue 18 scrubbing: the other settings", () => {
  test("sensitiveFields add keys, matched case-insensitively inside keys", () => {
    const e = scrub({ extra: { MyCustomerNumber: "12", other: "x" } }, { sensitiveFields: ["customernumber"] });
    assert.deepEqual(e.extra, { MyCustomerNumber: "[Filtered]", other: "x" });
    assert.deepEqual((e._meta as TestJson).extra.MyCustomerNumber[""].rem, [["strip-fields", "s", 0, 10]]);
  });

  test("safeFields are never scrubbed", () => {
    const e = scrub({ extra: { password: "a", token: "b" } }, { safeFields: ["password"] });
    assert.deepEqual(e.extra, { password: "a", token: "[Filtered]" });
  });

  test("scrubIPAddresses removes the known IP fields and replaces addresses in text", () => {
    const e = scrub(
      { user: { ip_address: "10.0.0.1", id: "u1" }, request: { env: { REMOTE_ADDR: "10.0.0.2" } }, extra: { note: "from 10.0.0.3" } },
      { scrubIPAddresses: true },
    );
    assert.equal((e.user as Record<string, unknown>).ip_address, null);
    assert.deepEqual((e.request as Record<string, unknown>).env, { REMOTE_ADDR: null });
    assert.deepEqual(e.extra, { note: "from [ip]" });
    assert.equal(effectiveScrubbing(OFF, { ...OFF, scrubIPAddresses: true }).scrubIpAddresses, true);
  });

  test("everything off: inactive, and the event is untouched", () => {
    const s = effectiveScrubbing(OFF, OFF);
    assert.equal(s.active, false);
    const e = { extra: { password: "a" } };
    s.scrubEvent(e);
    assert.deepEqual(e, { extra: { password: "a" } });
  });

  test("the organization's switches win over the project's; field lists add up", () => {
    const org = { ...OFF, dataScrubber: true, dataScrubberDefaults: true, sensitiveFields: ["orgfield"], safeFields: ["keepme"] };
    const e = scrub({ extra: { password: "a", orgfield: "b", projfield: "c", keepme_token: "d" } }, { ...OFF, sensitiveFields: ["projfield"] }, org);
    assert.deepEqual(e.extra, { password: "[Filtered]", orgfield: "[Filtered]", projfield: "[Filtered]", keepme_token: "[Filtered]" });
    const e2 = scrub({ extra: { keepme: "token=1" } }, OFF, org);
    assert.deepEqual(e2.extra, { keepme: "token=1" });
  });

  test("dataScrubber on with the defaults off: only the listed fields", () => {
    const e = scrub({ extra: { password: "a", mine: "b" } }, { dataScrubberDefaults: false, sensitiveFields: ["mine"] });
    assert.deepEqual(e.extra, { password: "a", mine: "[Filtered]" });
  });

  test("the original of a repaired value (errors[].value) is scrubbed as the value at its name would be (Relay scrubs meta originals)", () => {
    const { event } = normalizeEvent(
      { user: { ip_address: "token=s3cr3t-4111-1111-1111-1111" }, extra: { ok: 1 } },
      { receivedAt: Date.now(), eventId: "a".repeat(32), itemType: "event" },
    );
    assert.equal(event.errors[0]!.name, "user.ip_address");
    effectiveScrubbing(OFF, D).scrubEvent(event);
    assert.equal(event.errors[0]!.value, "[Filtered]");
    assert.deepEqual((event as TestJson)._meta.errors["0"].value[""].rem, [["@password:filter", "s", 0, 10]]);
    const { event: second } = normalizeEvent({ user: { ip_address: "not an ip" } }, { receivedAt: Date.now(), eventId: "a".repeat(32), itemType: "event" });
    effectiveScrubbing(OFF, { ...D, scrubIPAddresses: true }).scrubEvent(second);
    assert.equal(second.errors[0]!.value, null);
  });

  test("spans: the same rules through Relay's Span schema", () => {
    const s = effectiveScrubbing(OFF, { ...D, scrubIPAddresses: true });
    const span: Record<string, unknown> = {
      op: "http",
      description: "GET /",
      sentry_tags: { "user.ip": "10.0.0.1" },
      data: { "http.request.header.cookie": "a=b" },
    };
    s.scrubSpan(span);
    assert.deepEqual(span.sentry_tags, { "user.ip": null });
    assert.deepEqual(span.data, { "http.request.header.cookie": "[Filtered]" });
  });
});

test("hash redactions are HMAC-SHA1 with the config's key, as Relay's hash_value (keys of every length)", () => {
  for (const key of ["", "k", "a".repeat(64), "b".repeat(65), "schlüssel", "x".repeat(200)]) {
    for (const text of ["", "jane@example.com", "ünïcødé 😀", "z".repeat(1000)]) {
      assert.equal(hash(text, key), createHmac("sha1", key).update(text, "utf8").digest("hex").toUpperCase(), `${key.length}/${text.length}`);
    }
  }
});

test("hash answers kept per value stay right: asked again, past the memo's bound, for long values and per key", () => {
  const hmac = (text: string, key: string) => createHmac("sha1", key).update(text, "utf8").digest("hex").toUpperCase();
  const values = Array.from({ length: SCRUB_LIMITS.hashMemoEntries + 100 }, (_, i) => `user${i}@example.com`);
  values.push("long".repeat(SCRUB_LIMITS.hashMemoMaxLength));
  for (const round of [1, 2]) {
    for (const key of ["", "k"]) {
      for (const text of values) assert.equal(hash(text, key), hmac(text, key), `round ${round}, key "${key}", ${text.slice(0, 20)}`);
    }
  }
});

test("a rule set sees a string as the rule sets before it left it, also where only the changed string passes its gate", () => {
  // `x` becomes `[x]`: only then does the IBAN-like pattern's `\b` hold before `DE` (its native prefilter refuses the
  // original), and Relay's later rule set finds it (processor.rs `apply_all_rules` runs each on the current chunks).
  const relayPiiConfig = JSON.stringify({
    rules: {
      rmx: { type: "pattern", pattern: "x", redaction: { method: "replace", text: "[x]" } },
      iban_like: { type: "pattern", pattern: "\\b[A-Z]{2}[0-9]{2}[A-Z0-9]{12,30}\\b", redaction: { method: "mask" } },
    },
    applications: { $string: ["rmx"], "extra.v": ["iban_like"], "extra.u": ["iban_like"] },
  });
  const e = scrub({ extra: { v: "xDE12ABCDEFGHIJKLMNOP", u: "yDE12ABCDEFGHIJKLMNOP" } }, { ...OFF, relayPiiConfig });
  assert.deepEqual(e.extra, { v: "[x]********************", u: "yDE12ABCDEFGHIJKLMNOP" });
  assert.deepEqual(e._meta, {
    extra: {
      v: {
        "": {
          rem: [
            ["project:rmx", "s", 0, 3],
            ["project:iban_like", "m", 3, 23],
          ],
          len: 21,
        },
      },
    },
  });
});

test("notes on more values of one object than a note's node scans (its children then indexed) are all written, in order, and found again by a second scrub", () => {
  const n = SCRUB_LIMITS.metaChildrenScanned * 3;
  // A hash of a hash differs: a second scrub changes a value unless it finds the value's notes and skips its redaction.
  const relayPiiConfig = JSON.stringify({
    rules: { h: { type: "redact_pair", keyPattern: "^password_", redaction: { method: "hash" } } },
    applications: { "extra.*": ["h"] },
  });
  const extra: Record<string, string> = {};
  for (let i = 0; i < n; i++) extra[`password_${i}`] = `secret number ${i}`;
  const e = scrub({ extra: { ...extra } }, { ...OFF, relayPiiConfig });
  const expected: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) expected[`password_${i}`] = { "": { rem: [["project:h", "p", 0, 40]], len: `secret number ${i}`.length } };
  assert.equal(JSON.stringify(e._meta), JSON.stringify({ extra: expected }));
  assert.equal((e.extra as Record<string, string>).password_40, hash("secret number 40", ""));
  const before = JSON.stringify(e);
  scrub(e, { ...OFF, relayPiiConfig });
  assert.equal(JSON.stringify(e), before);
});
