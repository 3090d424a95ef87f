// Posting a notification to a webhook-like URL with the source fetcher's SSRF guard (digest/symbolicate/fetch.ts):
// the host is resolved and every address checked before connecting, the connection goes to a checked address (a
// second DNS answer cannot swap in another), redirects are never followed (a 3xx is a failed delivery), and time and
// the answer's size are bounded (NOTIFICATION_LIMITS). Hosts the instance's superusers listed explicitly
// (allowed-hosts.ts) may resolve to private addresses: intranet receivers, and the tests' loopback receivers.
import type { LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { NOTIFICATION_LIMITS } from "../config/limits";
import { RefusedAddress, type Resolve, isPublicAddress, pinned, publicAddresses, systemResolve } from "../digest/symbolicate/fetch";

export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** The answer of a receiver: its status and the first bytes of its body. */
export type HttpAnswer = { status: number; excerpt: string };

/** A delivery that could not be made or got no answer; `permanent` ones are not retried (the same URL fails again). */
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "DeliveryError";
  }
}

const bareHost = (host: string) => (host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host).toLowerCase();

/** Whether the instance settings list this URL's host as allowed despite private addresses. */
export function isAllowedHost(url: URL, allowedHosts: readonly string[]): boolean {
  const host = bareHost(url.hostname);
  return allowedHosts.some((h) => bareHost(h) === host);
}

/** The URL's form: http(s), a host, no credentials in it. */
function parseTarget(raw: string): TargetCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "only http and https URLs are allowed" };
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL are not allowed" };
  if (!url.hostname) return { ok: false, reason: "the URL names no host" };
  return { ok: true, url };
}

/** The addresses to connect to: all of them public, or any for an allowed host. Throws RefusedAddress. */
async function targetAddresses(url: URL, allowedHosts: readonly string[], resolve: Resolve): Promise<LookupAddress[]> {
  const allowed = isAllowedHost(url, allowedHosts);
  return publicAddresses(url.hostname, resolve, allowed ? () => true : isPublicAddress);
}

/**
 * Whether Faultline may send to this URL: http(s), no credentials, and a host whose every address is public unless
 * the host is listed in `allowedHosts` (the instance setting). For checks when a rule is saved; sending checks again,
 * since a name's addresses can change after.
 */
export async function checkTargetUrl(raw: string, allowedHosts: readonly string[], resolve: Resolve = systemResolve): Promise<TargetCheck> {
  const parsed = parseTarget(raw);
  if (!parsed.ok) return parsed;
  try {
    await targetAddresses(parsed.url, allowedHosts, resolve);
    return parsed;
  } catch (err) {
    if (err instanceof RefusedAddress) return { ok: false, reason: err.message };
    return { ok: false, reason: `${parsed.url.hostname} cannot be resolved` };
  }
}

/**
 * A URL for the history, without its secrets: the origin and path, never the query (a Teams workflow's `sig`), and
 * each long path segment cut to its first characters (Slack's and Discord's webhook tokens are path segments).
 */
export function describeTarget(raw: string): string {
  try {
    const url = new URL(raw);
    const path = url.pathname
      .split("/")
      .map((seg) => (seg.length >= 16 ? `${seg.slice(0, 4)}…` : seg))
      .join("/");
    return `${url.origin}${path}`;
  } catch {
    return "(invalid URL)";
  }
}

export type PostOptions = {
  allowedHosts: readonly string[];
  /** milliseconds (NOTIFICATION_LIMITS.requestTimeoutMs) */
  timeoutMs?: number;
  resolve?: Resolve;
};

/**
 * POSTs `body` to `raw`. Resolves with the receiver's answer, whatever its status (a 3xx included: never followed);
 * throws DeliveryError when it could not be sent or no answer came in time.
 */
export async function postToTarget(raw: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<HttpAnswer> {
  const parsed = parseTarget(raw);
  if (!parsed.ok) throw new DeliveryError(parsed.reason, true);
  const url = parsed.url;
  let addresses: LookupAddress[];
  try {
    addresses = await targetAddresses(url, options.allowedHosts, options.resolve ?? systemResolve);
  } catch (err) {
    if (err instanceof RefusedAddress) throw new DeliveryError(`refused: ${err.message} (allow the host in the instance settings to send to it)`, true);
    throw new DeliveryError(`${url.hostname} cannot be resolved: ${(err as Error).message}`, false);
  }
  const timeoutMs = options.timeoutMs ?? NOTIFICATION_LIMITS.requestTimeoutMs;
  const bytes = Buffer.from(body, "utf8");
  return new Promise<HttpAnswer>((resolve, reject) => {
    const send = url.protocol === "https:" ? https.request : http.request;
    let settled = false;
    const fail = (err: DeliveryError) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    const req = send(
      url,
      {
        method: "POST",
        lookup: pinned(addresses),
        agent: false,
        headers: { ...headers, "content-length": String(bytes.byteLength), "user-agent": "Faultline-Notifications", "accept-encoding": "identity" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          if (size >= NOTIFICATION_LIMITS.responseMaxBytes) return;
          const room = NOTIFICATION_LIMITS.responseMaxBytes - size;
          chunks.push(c.byteLength > room ? c.subarray(0, room) : c);
          size += Math.min(c.byteLength, room);
          // Enough read: the rest of an oversized answer is not waited for.
          if (size >= NOTIFICATION_LIMITS.responseMaxBytes) finish();
        });
        const finish = () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const text = Buffer.concat(chunks).subarray(0, NOTIFICATION_LIMITS.responseExcerptBytes).toString("utf8");
          resolve({ status: res.statusCode ?? 0, excerpt: text });
          res.destroy();
        };
        res.on("end", finish);
        res.on("error", (err) => fail(new DeliveryError(`the answer broke off: ${err.message}`, false)));
      },
    );
    const timer = setTimeout(() => {
      fail(new DeliveryError(`no answer within ${timeoutMs} ms`, false));
      req.destroy();
    }, timeoutMs);
    req.on("error", (err) => {
      clearTimeout(timer);
      fail(new DeliveryError(`could not send: ${err.message}`, false));
    });
    req.end(bytes);
  });
}
