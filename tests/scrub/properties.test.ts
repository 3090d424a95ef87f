// Properties of the scrubbing engine (issue 18), with fast-check on fixed seeds (the same cases every run): it never
// throws whatever the event holds, scrubbing twice changes nothing more, and a planted secret never survives the
// default settings: under a sensitive key, in an Authorization, Cookie or Set-Cookie header, or a card number in a
// message, anywhere in the output (values and _meta alike).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { DEFAULT_SCRUBBING_OPTIONS as D, effectiveScrubbing, type ScrubbingOptions } from "../../src/scrub/index";
import type { TestJson } from "../helpers/json";

const RUNS = { seed: 18, numRuns: 250 } as const;

/** Valid advanced configs of every kind, to run along the settings. */
const CONFIGS = [
  null,
  JSON.stringify({ applications: { $string: ["@common"] } }),
  JSON.stringify({ applications: { $string: ["@anything:hash"], $object: ["@password:hash"] } }),
  JSON.stringify({ rules: { r: { type: "pattern", pattern: "[0-9]+", redaction: { method: "mask" } } }, applications: { "**": ["r"] } }),
  JSON.stringify({
    rules: { k: { type: "redact_pair", keyPattern: "(?i)id$" } },
    applications: { "$object.**": ["k"], "$http.headers.x-custom": ["@anything:remove"] },
  }),
  JSON.stringify({ applications: { "$user.ip_address": ["@ip:hash"], "$frame.vars.**": ["@email:mask", "@uuid"] } }),
];

const options = (forceDefaults: boolean): fc.Arbitrary<ScrubbingOptions> =>
  fc.record({
    dataScrubber: forceDefaults ? fc.constant(true) : fc.boolean(),
    dataScrubberDefaults: forceDefaults ? fc.constant(true) : fc.boolean(),
    sensitiveFields: fc.array(fc.constantFrom("customer", "ssn", "x", ""), { maxLength: 2 }),
    safeFields: forceDefaults ? fc.constant([]) : fc.array(fc.constantFrom("password", "extra.note", "$user.id", "!!bad"), { maxLength: 2 }),
    scrubIPAddresses: fc.boolean(),
    relayPiiConfig: fc.constantFrom(...CONFIGS),
  });

const key = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("password", "token", "ip", "email", "0", "1", "__proto__", "constructor", "_meta", ""));
const json = fc.jsonValue({ maxDepth: 4 });
const bag = fc.dictionary(key, json, { maxKeys: 5 });
const pairs = fc.array(fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 30 })), { maxLength: 4 });
const str = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("10.0.0.1", "jane@example.com", "4111 1111 1111 1111", "/home/jane/x", "Bearer abc", "true", ""),
);

/** Events in the normalized shape, with arbitrary JSON where SDKs put free-form data. */
const event = fc.record(
  {
    extra: bag,
    tags: pairs,
    user: fc.record({ id: str, email: str, ip_address: str, username: str, data: bag }, { requiredKeys: [] }),
    request: fc.record({ url: str, headers: pairs, cookies: pairs, data: json, query_string: fc.oneof(pairs, str), env: bag }, { requiredKeys: [] }),
    logentry: fc.record({ message: str, formatted: str, params: json }, { requiredKeys: [] }),
    exception: fc.record({
      values: fc.array(
        fc.record(
          {
            type: str,
            value: str,
            stacktrace: fc.record({
              frames: fc.array(fc.record({ function: str, filename: str, abs_path: str, vars: bag }, { requiredKeys: [] }), { maxLength: 3 }),
            }),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 2 },
      ),
    }),
    breadcrumbs: fc.record({ values: fc.array(fc.record({ message: str, category: str, data: bag }, { requiredKeys: [] }), { maxLength: 3 }) }),
    contexts: fc.dictionary(
      fc.constantFrom("os", "trace", "biz", "response", "device"),
      fc.record({ type: fc.constantFrom("os", "trace", "biz", "response"), data: json, headers: pairs }, { requiredKeys: ["type"] }),
      { maxKeys: 3 },
    ),
    spans: fc.array(fc.record({ op: str, description: str, data: bag, sentry_tags: bag }, { requiredKeys: [] }), { maxLength: 2 }),
    sdk: fc.record({ client_ip: str }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);

/** Any JSON at all in the same places: scrubbing must cope with shapes normalization would never produce. */
const hostile = fc.dictionary(
  fc.constantFrom(
    "extra",
    "request",
    "user",
    "logentry",
    "exception",
    "breadcrumbs",
    "contexts",
    "tags",
    "spans",
    "sdk",
    "debug_meta",
    "_meta",
    "csp",
    "threads",
  ),
  json,
  { maxKeys: 6 },
);

describe("issue 18 scrubbing: properties", () => {
  test("never throws, on normalized events and on arbitrary JSON, with any settings", () => {
    fc.assert(
      fc.property(fc.oneof(event, hostile), options(false), options(false), (e, org, project) => {
        const s = effectiveScrubbing(org, project);
        s.scrubEvent(e as Record<string, unknown>);
        s.scrubSpan(JSON.parse(JSON.stringify(e)) as Record<string, unknown>);
        JSON.stringify(e);
      }),
      RUNS,
    );
  });

  test("is idempotent: a second scrub changes nothing, _meta included", () => {
    fc.assert(
      fc.property(event, options(false), (e, project) => {
        // A value under an empty key has nowhere to keep its notes in Relay's _meta format (`""` is the value's
        // own entry), so a hashing rule would hash it again: such events are left out of this property.
        fc.pre(!JSON.stringify(e).includes('"":'));
        const s = effectiveScrubbing({ ...D, dataScrubber: false, dataScrubberDefaults: false }, project);
        const input = JSON.stringify(e);
        s.scrubEvent(e as Record<string, unknown>);
        const once = JSON.stringify(e);
        s.scrubEvent(e as Record<string, unknown>);
        assert.equal(JSON.stringify(e), once, `input: ${input}`);
      }),
      RUNS,
    );
  });

  const secret = fc.stringMatching(/^[A-Za-z0-9]{10,20}$/).map((s) => `Zq9${s}`);
  const sensitiveKey = fc.constantFrom(
    "password",
    "Password",
    "secret",
    "passwd",
    "api_key",
    "apikey",
    "x-api-key",
    "auth",
    "authorization",
    "credentials",
    "mysql_pwd",
    "privatekey",
    "private_key",
    "access_token",
    "MY_SECRET_VALUE",
    "db_password",
  );
  const card = fc
    .tuple(
      fc.constantFrom("4", "51", "55", "6011", "37"),
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 15, maxLength: 15 }),
      fc.constantFrom("", " ", "-"),
    )
    .map(([prefix, digits, sep]) => {
      const raw = (prefix + digits.join("")).slice(0, prefix === "37" ? 15 : 16);
      return { raw, shown: sep === "" ? raw : raw.replace(/(\d{4})(?=\d)/g, `$1${sep}`) };
    });
  const place = fc.constantFrom("extra", "request.data", "request.env", "vars", "breadcrumb", "user.data", "context", "nested");
  const header = fc.constantFrom("Authorization", "authorization", "Cookie", "Set-Cookie", "Proxy-Authorization", "X-Auth-Token");
  const messageField = fc.constantFrom("logentry.message", "logentry.formatted", "breadcrumb.message", "extra.note");

  test("never leaves a planted secret with the defaults on (any other settings, any advanced rules)", () => {
    fc.assert(
      fc.property(event, options(true), secret, sensitiveKey, place, secret, header, card, messageField, (base, project, s1, k, where, s2, h, c, field) => {
        const e = JSON.parse(JSON.stringify(base)) as TestJson;
        const obj = (path: string[]) => path.reduce((o, p) => (o[p] = o[p] && typeof o[p] === "object" && !Array.isArray(o[p]) ? o[p] : {}), e);
        // 1. under a sensitive key
        if (where === "vars") e.exception = { values: [{ type: "E", stacktrace: { frames: [{ function: "f", vars: { [k]: s1 } }] } }] };
        else if (where === "breadcrumb") e.breadcrumbs = { values: [{ data: { [k]: s1 } }] };
        else if (where === "context") e.contexts = { biz: { type: "biz", [k]: s1 } };
        else if (where === "nested") obj(["extra"]).list = [{ inner: { [k]: { deeper: s1 } } }];
        else obj(where.split("."))[k] = s1;
        // 2. in an authorization or cookie header
        const request = obj(["request"]);
        request.headers = [
          ...(Array.isArray(request.headers) ? request.headers : []),
          [h, h.toLowerCase().includes("cookie") ? `theme=${s2}; lang=en` : `Bearer ${s2}`],
        ];
        // 3. a card number in a message
        const text = `paid with ${c.shown} today`;
        if (field === "breadcrumb.message") e.breadcrumbs = { values: [...(e.breadcrumbs?.values ?? []), { message: text }] };
        else obj(field.split(".").slice(0, -1))[field.split(".").at(-1)!] = text;

        effectiveScrubbing({ ...D, dataScrubber: false, dataScrubberDefaults: false }, project).scrubEvent(e);
        const out = JSON.stringify(e);
        assert.ok(!out.includes(s1), `secret under ${k} at ${where} survived`);
        assert.ok(!out.includes(s2), `secret in header ${h} survived`);
        assert.ok(!out.includes(c.shown), `card ${c.shown} in ${field} survived`);
      }),
      RUNS,
    );
  });
});
