// Fetching a minified file or its map from the public URL a frame names, for projects that opted in. Faultline
// never fetches a private, loopback, link-local or otherwise non-public address on a user's behalf: the host is
// resolved first and every address checked (ipaddr.js ranges), the connection goes to a checked address (so a second
// DNS answer cannot swap in another), redirects are followed only to hosts that pass the same checks, and time and
// size are bounded (SYMBOLICATION_LIMITS).
import type { LookupAddress } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { SYMBOLICATION_LIMITS } from "../../config/limits";
import type { JsNoteType } from "./notes";

export type FetchedFile = { url: string; bytes: Uint8Array; headers: Record<string, string> };
export type FetchFailure = { type: JsNoteType; url: string; value?: string };
export type FetchResult = { ok: true; file: FetchedFile } | ({ ok: false } & FetchFailure);

export type Fetcher = (url: string) => Promise<FetchResult>;

/** True only for globally routable unicast addresses (IPv4-mapped IPv6 judged as the IPv4 address it maps). */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6") {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) addr = v6.toIPv4Address();
  }
  return addr.range() === "unicast";
}

export class RefusedAddress extends Error {}

export type Resolve = (host: string) => Promise<LookupAddress[]>;
export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/** The host's addresses, all of them public; throws RefusedAddress naming the first that is not. */
export async function publicAddresses(
  host: string,
  resolve: Resolve = systemResolve,
  allowed: (ip: string) => boolean = isPublicAddress,
): Promise<LookupAddress[]> {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const addresses = ipaddr.isValid(bare) ? [{ address: bare, family: bare.includes(":") ? 6 : 4 }] : await resolve(bare);
  if (addresses.length === 0) throw new RefusedAddress(`${host} has no address`);
  for (const a of addresses) if (!allowed(a.address)) throw new RefusedAddress(`${host} resolves to a non-public address`);
  return addresses;
}

/** A `lookup` for the connection that answers only with the addresses already checked. */
export function pinned(addresses: LookupAddress[]): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

type Step = { status: number; location: string | null; headers: Record<string, string>; bytes: Uint8Array | null };

function request(url: URL, addresses: LookupAddress[], deadline: number): Promise<Step> {
  return new Promise((resolve, reject) => {
    const get = url.protocol === "https:" ? https.get : http.get;
    const req = get(
      url,
      { lookup: pinned(addresses), headers: { "accept-encoding": "identity", "user-agent": "Faultline" }, timeout: Math.max(1, deadline - Date.now()) },
      (res) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers[k.toLowerCase()] = v;
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          return resolve({ status, location: headers.location ?? null, headers, bytes: null });
        }
        if (status !== 200) {
          res.resume();
          return resolve({ status, location: null, headers, bytes: null });
        }
        const declared = Number(headers["content-length"] ?? "0");
        if (declared > SYMBOLICATION_LIMITS.fetchMaxBytes) {
          req.destroy();
          return reject(new TooLarge());
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.byteLength;
          if (size > SYMBOLICATION_LIMITS.fetchMaxBytes) req.destroy(new TooLarge());
          else chunks.push(c);
        });
        res.on("end", () => resolve({ status, location: null, headers, bytes: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new TimedOut()), Math.max(1, deadline - Date.now()));
    req.on("timeout", () => req.destroy(new TimedOut()));
    req.on("error", reject);
    req.on("close", () => clearTimeout(timer));
  });
}

class TooLarge extends Error {}
class TimedOut extends Error {}

/**
 * A fetcher of public http(s) URLs. `resolve` replaces the system's DNS and `allowed` the address policy (tests that
 * serve files on one loopback address and refuse another); Faultline itself uses the defaults.
 */
export function publicFetcher(resolve: Resolve = systemResolve, allowed: (ip: string) => boolean = isPublicAddress): Fetcher {
  return async (first) => {
    const deadline = Date.now() + SYMBOLICATION_LIMITS.fetchTimeoutMs;
    let current = first;
    try {
      for (let hop = 0; hop <= SYMBOLICATION_LIMITS.fetchMaxRedirects; hop++) {
        const url = new URL(current);
        if (url.protocol !== "http:" && url.protocol !== "https:")
          return { ok: false, type: "js_generic_fetch_error", url: first, value: "only http and https are fetched" };
        if (url.username || url.password) return { ok: false, type: "js_generic_fetch_error", url: first, value: "credentials in the URL" };
        const addresses = await publicAddresses(url.hostname, resolve, allowed);
        const step = await request(url, addresses, deadline);
        if (step.location !== null) {
          current = new URL(step.location, url).href;
          continue;
        }
        if (step.bytes === null) return { ok: false, type: "js_invalid_http_code", url: first, value: String(step.status) };
        return { ok: true, file: { url: first, bytes: step.bytes, headers: step.headers } };
      }
      return { ok: false, type: "js_generic_fetch_error", url: first, value: "too many redirects" };
    } catch (err) {
      if (err instanceof RefusedAddress) return { ok: false, type: "restricted_ip", url: current };
      if (err instanceof TimedOut) return { ok: false, type: "js_fetch_timeout", url: first };
      if (err instanceof TooLarge) return { ok: false, type: "js_too_large", url: first };
      return { ok: false, type: "js_generic_fetch_error", url: first, value: (err as Error).message.slice(0, 200) };
    }
  };
}
