// Where a Sentry SDK puts its credentials, as Relay reads them (request_meta.rs `auth_from_parts`; the rules are
// quoted from ../shared/spec/sentry-protocol.md §1, numbered as there). Pure: no I/O, no storage.
import { ProtocolError } from "./errors";

export type SentryAuth = { publicKey: string; version: number | null; client: string | null };

/** Highest protocol version Faultline speaks; 5 (sentry-raven) and 7 are what SDKs send. */
export const MAX_SENTRY_VERSION = 7;

/**
 * A DSN's public key as Faultline makes them (core/keys.ts): 32 hexadecimal characters, the length Relay's ProjectKey
 * requires. Anything else names no key, so it is refused before any lookup or cache: a 1 MB "key" must not be kept.
 */
const PUBLIC_KEY = /^[0-9a-fA-F]{32}$/;

export function isPublicKey(key: string): boolean {
  return key.length === 32 && PUBLIC_KEY.test(key);
}

function publicKey(key: string): string {
  if (!isPublicKey(key)) throw new ProtocolError("bad_auth", "the public key (sentry_key) is not 32 hexadecimal characters");
  return key;
}

/**
 * Parses the value of X-Sentry-Auth or `Authorization: Sentry …` (points 1 and 2): it must start with "sentry "
 * (any case); pairs are split on "," then "=", trimmed; only sentry_-prefixed keys count; sentry_key is required.
 */
export function parseSentryAuthHeader(value: string): SentryAuth {
  if (!/^sentry\s/i.test(value)) throw new ProtocolError("bad_auth", "invalid authorization header");
  const pairs = new Map<string, string>();
  for (const part of value.replace(/^sentry\s+/i, "").split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    if (key.startsWith("sentry_")) pairs.set(key, part.slice(eq + 1).trim());
  }
  return fromPairs(pairs);
}

function fromPairs(pairs: Map<string, string>): SentryAuth {
  const key = pairs.get("sentry_key");
  if (!key) throw new ProtocolError("bad_auth", "missing public key (sentry_key)");
  const rawVersion = pairs.get("sentry_version");
  let version: number | null = null;
  if (rawVersion !== undefined && rawVersion !== "") {
    // Relay reads the version as an unsigned number: "-1" or "7x" is malformed, not a version.
    if (!/^\d{1,9}$/.test(rawVersion)) throw new ProtocolError("bad_auth", "invalid sentry_version");
    version = Number(rawVersion);
    // "A sentry_version greater than 7 gives 400."
    if (version > MAX_SENTRY_VERSION) throw new ProtocolError("unsupported_version", `unsupported protocol version ${version}`);
  }
  return { publicKey: publicKey(key), version, client: pairs.get("sentry_client") ?? null };
}

/** The public key of a DSN (`scheme://PUBLIC_KEY[:secret]@host/…/PROJECT_ID`), with its project id. */
export function parseDsn(dsn: string): { publicKey: string; projectId: string } | null {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return null;
  }
  const projectId = url.pathname.split("/").filter(Boolean).pop();
  if (!url.username || !projectId) return null;
  try {
    return { publicKey: decodeURIComponent(url.username), projectId };
  } catch {
    return null; // a malformed percent-escape: not a DSN
  }
}

export type AuthSources = {
  /** Request headers, lower-cased names (as node:http gives them). */
  headers: Record<string, string | string[] | undefined>;
  query: URLSearchParams;
  /** The envelope header's `dsn`, when the body is an envelope (point 6: envelope endpoint only). */
  envelopeDsn?: string | null;
};

/**
 * The credentials of a request: X-Sentry-Auth (1), Authorization Sentry or Basic (2, 3), the query string when it
 * has sentry_ keys (4), else the envelope's dsn (6). "Two auth sources at once give 401 multiple authorization
 * payloads detected"; none gives 401 "missing authorization information".
 */
export function extractAuth({ headers, query, envelopeDsn }: AuthSources): SentryAuth {
  const found: SentryAuth[] = [];
  const header = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const xSentryAuth = header("x-sentry-auth");
  if (xSentryAuth) found.push(parseSentryAuthHeader(xSentryAuth));
  const authorization = header("authorization");
  if (authorization && /^sentry\s/i.test(authorization)) found.push(parseSentryAuthHeader(authorization));
  else if (authorization && /^basic\s/i.test(authorization)) {
    const user = Buffer.from(authorization.replace(/^basic\s+/i, ""), "base64")
      .toString("utf8")
      .split(":")[0];
    if (!user) throw new ProtocolError("bad_auth", "invalid basic authorization");
    found.push({ publicKey: publicKey(user), version: null, client: null });
  }
  const queryPairs = new Map([...query.entries()].filter(([k]) => k.startsWith("sentry_")));
  if (queryPairs.size > 0) found.push(fromPairs(queryPairs));
  if (found.length > 1) throw new ProtocolError("multiple_auth", "multiple authorization payloads detected");
  if (found[0]) return found[0];
  const fromDsn = envelopeDsn ? parseDsn(envelopeDsn) : null;
  if (fromDsn) return { publicKey: publicKey(fromDsn.publicKey), version: null, client: null };
  throw new ProtocolError("missing_auth", "missing authorization information");
}
