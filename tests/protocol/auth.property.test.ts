// Properties of the credential parsers over generated input (fast-check): parseSentryAuthHeader and extractAuth
// either return credentials or throw a ProtocolError, for any string and any header map; well-formed credentials
// come back as written; and the source-counting rule of §1 (one source, else multiple/missing) holds.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { extractAuth, parseDsn, parseSentryAuthHeader, type SentryAuth } from "../../src/protocol/auth";
import type { ProtocolError } from "../../src/protocol/errors";
import { protocolReason } from "../helpers/protocol";

const RUNS = { numRuns: 600 };
const TIMEOUT = { timeout: 20_000 };
const AUTH_REASONS = new Set(["missing_auth", "multiple_auth", "bad_auth", "unsupported_version"]);

function authOrRefuse(fn: () => SentryAuth): SentryAuth | ProtocolError {
  let auth: SentryAuth;
  try {
    auth = fn();
  } catch (err) {
    assert.ok(err instanceof Error && (err as ProtocolError).isProtocolError === true, `not a ProtocolError: ${String(err)}`);
    assert.ok(AUTH_REASONS.has((err as ProtocolError).reason), `unexpected reason ${(err as ProtocolError).reason}`);
    return err as ProtocolError;
  }
  assert.ok(typeof auth.publicKey === "string" && auth.publicKey !== "", "a public key");
  assert.ok(auth.version === null || (Number.isInteger(auth.version) && auth.version <= 7), `version ${auth.version}`);
  assert.ok(auth.client === null || typeof auth.client === "string");
  return auth;
}

const anyString = fc.string({ unit: "binary", maxLength: 60 });
const sentryish = fc
  .tuple(
    fc.constantFrom("Sentry ", "sentry\t", "SENTRY   ", "Sentry", "Sentry,", "Bearer ", ""),
    fc.array(
      fc.tuple(
        fc.oneof(fc.constantFrom("sentry_key", "sentry_version", "sentry_client", "sentry_secret", " sentry_key ", "sentry_", "other"), anyString),
        fc.oneof(fc.constantFrom("", "5", "7", "8", "-1", "7.0", "1e3", "0x7", "99999999999999999999", "NaN", "a=b", " k "), anyString),
        fc.constantFrom("=", "", "=="),
      ),
      { maxLength: 5 },
    ),
    fc.constantFrom(",", ", ", " ,", ",,"),
  )
  .map(([prefix, pairs, sep]) => prefix + pairs.map(([k, v, eq]) => k + eq + v).join(sep));
const dsnish = fc
  .tuple(
    fc.constantFrom("https", "http", "ftp", ""),
    fc.string({ unit: fc.constantFrom(..."abcdef0129%:@/ é"), maxLength: 12 }),
    fc.constantFrom("faultline.example.com", "h", "[::1]:9000", ""),
    fc.string({ unit: fc.constantFrom(..."0123/x%"), maxLength: 6 }),
  )
  .map(([scheme, user, host, path]) => `${scheme}://${user}@${host}/${path}`);
const base64Basic = anyString.map((s) => `Basic ${Buffer.from(s).toString("base64")}`);
const headerValue = fc.oneof(sentryish, base64Basic, anyString);
const headers = fc
  .tuple(
    fc.record(
      {
        "x-sentry-auth": fc.oneof(headerValue, fc.array(headerValue, { maxLength: 3 })),
        authorization: fc.oneof(headerValue, fc.array(headerValue, { maxLength: 2 })),
      },
      { requiredKeys: [] },
    ),
    fc.dictionary(
      fc.string({ unit: "grapheme-ascii", maxLength: 15 }).map((s) => s.toLowerCase()),
      fc.oneof(headerValue, fc.constant(undefined)),
      { maxKeys: 3 },
    ),
  )
  .map(([auth, rest]) => ({ ...rest, ...auth }));
const query = fc.oneof(
  anyString.map((s) => new URLSearchParams(s)),
  fc
    .array(fc.tuple(fc.constantFrom("sentry_key", "sentry_version", "sentry_client", "other", "sentry_"), anyString), { maxLength: 4 })
    .map((pairs) => new URLSearchParams(pairs)),
);

describe("the credential parsers only ever throw a ProtocolError", () => {
  test("parseSentryAuthHeader over arbitrary strings and Sentry-shaped ones", TIMEOUT, () => {
    fc.assert(
      fc.property(fc.oneof(anyString, sentryish), (value) => {
        authOrRefuse(() => parseSentryAuthHeader(value));
      }),
      RUNS,
    );
  });

  test("extractAuth over arbitrary header maps, query strings and envelope dsn values", TIMEOUT, () => {
    // Often no header or query credentials, so that the envelope's dsn is read too.
    const sometimes = <T>(arb: fc.Arbitrary<T>, none: T) => fc.oneof(fc.constant(none), arb);
    const dsn = fc.option(fc.oneof({ arbitrary: dsnish, weight: 3 }, anyString, fc.webUrl({ authoritySettings: { withUserInfo: true } })));
    fc.assert(
      fc.property(sometimes(headers, {}), sometimes(query, new URLSearchParams()), dsn, (h, q, envelopeDsn) => {
        authOrRefuse(() => extractAuth({ headers: h, query: q, envelopeDsn }));
      }),
      RUNS,
    );
  });

  // Found by the property above. parseDsn promises null for what it cannot read, and decodes the key with
  // decodeURIComponent, which throws URIError on a malformed escape that the URL parser leaves in the username.
  test("a dsn whose key has a malformed percent-escape is not a URIError", () => {
    assert.doesNotThrow(() => parseDsn("https://%ff@faultline.example.com/42"));
    const reason = protocolReason(() => extractAuth({ headers: {}, query: new URLSearchParams(), envelopeDsn: "https://%E0%A4%A@h/1" }));
    assert.ok(reason === "missing_auth" || reason === "bad_auth" || reason === "ok", reason);
  });

  // sentry-types parses sentry_version as an unsigned integer, so Relay refuses "-1" (InvalidVersion).
  test("a negative sentry_version is refused like any other invalid version", () => {
    assert.equal(
      protocolReason(() => parseSentryAuthHeader(`Sentry sentry_key=${"a".repeat(32)}, sentry_version=-1`)),
      "bad_auth",
    );
  });
});

describe("well-formed credentials come back as written", () => {
  const key = fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: 32, maxLength: 32 });
  const client = fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz./-0123456789"), minLength: 1, maxLength: 30 });
  const version = fc.integer({ min: 0, max: 7 });

  test("X-Sentry-Auth pairs in any order, spacing and case of the prefix", TIMEOUT, () => {
    fc.assert(
      fc.property(
        key,
        version,
        client,
        fc.constantFrom("Sentry ", "sentry  ", "SENTRY\t"),
        fc.constantFrom(",", ", ", " , "),
        fc.boolean(),
        (k, v, c, prefix, sep, keyLast) => {
          const pairs = [`sentry_version=${v}`, `sentry_client=${c}`, "sentry_timestamp=1700000000", "unknown=1"];
          const all = keyLast ? [...pairs, `sentry_key=${k}`] : [`sentry_key=${k}`, ...pairs];
          assert.deepEqual(parseSentryAuthHeader(prefix + all.join(sep)), { publicKey: k, version: v, client: c });
        },
      ),
      RUNS,
    );
  });

  test("exactly one source is used; two are multiple_auth; none falls back to the dsn, else missing_auth", TIMEOUT, () => {
    fc.assert(
      fc.property(key, fc.boolean(), fc.constantFrom("none", "sentry", "basic"), fc.boolean(), fc.boolean(), (k, xsa, authz, inQuery, withDsn) => {
        const h: Record<string, string> = {};
        if (xsa) h["x-sentry-auth"] = `Sentry sentry_key=${k}, sentry_version=7`;
        if (authz === "sentry") h.authorization = `Sentry sentry_key=${k}`;
        if (authz === "basic") h.authorization = `Basic ${Buffer.from(`${k}:`).toString("base64")}`;
        const q = new URLSearchParams(inQuery ? { sentry_key: k, sentry_version: "7" } : { other: "1" });
        const envelopeDsn = withDsn ? `https://${k}@faultline.example.com/monitor/42` : null;
        const sources = Number(xsa) + Number(authz !== "none") + Number(inQuery);
        const result = protocolReason(() => assert.equal(extractAuth({ headers: h, query: q, envelopeDsn }).publicKey, k));
        assert.equal(result, sources > 1 ? "multiple_auth" : sources === 0 && !withDsn ? "missing_auth" : "ok");
      }),
      RUNS,
    );
  });
});

// hostile input #2: a key is looked up and cached only when it could be one of Faultline's (32 hex characters), so a
// tunnelled envelope's 1 MB "key" can no longer be kept in the key cache.
describe("hostile input #2: a public key that is not 32 hexadecimal characters is refused before any lookup", () => {
  const notAKey = fc.oneof(
    fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), maxLength: 31 }).filter((s) => s !== ""),
    fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 33, maxLength: 80 }),
    fc
      .string({ unit: fc.constantFrom(..."0123456789abcdefghijklmnopqrstuvwxyz_-."), minLength: 32, maxLength: 32 })
      .filter((s) => !/^[0-9a-fA-F]{32}$/.test(s)),
  );
  test("in X-Sentry-Auth, the query, Basic auth and an envelope's dsn alike", TIMEOUT, () => {
    fc.assert(
      fc.property(notAKey, fc.constantFrom("header", "query", "basic", "dsn"), (k, where) => {
        const none = new URLSearchParams();
        const sources =
          where === "header"
            ? { headers: { "x-sentry-auth": `Sentry sentry_key=${k}` }, query: none }
            : where === "query"
              ? { headers: {}, query: new URLSearchParams({ sentry_key: k }) }
              : where === "basic"
                ? { headers: { authorization: `Basic ${Buffer.from(`${k}:`).toString("base64")}` }, query: none }
                : { headers: {}, query: none, envelopeDsn: `https://${k}@faultline.example.com/42` };
        assert.equal(
          protocolReason(() => extractAuth(sources)),
          "bad_auth",
        );
      }),
      RUNS,
    );
    const huge = "a".repeat(1024 * 1024);
    assert.equal(
      protocolReason(() => extractAuth({ headers: {}, query: new URLSearchParams(), envelopeDsn: `https://${huge}@h/1` })),
      "bad_auth",
    );
  });
});
