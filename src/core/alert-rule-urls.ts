// Webhook targets are checked when a rule is saved: http(s) only, no credentials in the URL, and every address the
// host resolves to public (the source fetcher's guard, digest/symbolicate/fetch.ts: no loopback, private, link-local
// or otherwise reserved address), unless the instance allows the host explicitly. The sender checks again when it
// connects (DNS can change in between).
import { publicAddresses, isPublicAddress, RefusedAddress } from "../digest/symbolicate/fetch";
import type { LookupAddress } from "node:dns";
import { AppError } from "./errors";

export type UrlCheckOptions = {
  /** Hosts the instance allows whatever they resolve to (lower case, without port). */
  allowedHosts?: readonly string[];
  /** DNS resolution; the system's by default. */
  resolve?: (host: string) => Promise<LookupAddress[]>;
};

/** Why this URL may not be a webhook target, or null when it may. */
export async function webhookUrlProblem(raw: string, options: UrlCheckOptions = {}): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not a valid URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must be an http or https URL";
  if (url.username || url.password) return "must not contain credentials";
  const host = url.hostname.toLowerCase();
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if ((options.allowedHosts ?? []).some((h) => h.toLowerCase() === bare)) return null;
  try {
    await publicAddresses(host, options.resolve, isPublicAddress);
    return null;
  } catch (err) {
    if (err instanceof RefusedAddress) return `points to a loopback, private or link-local address (${bare})`;
    return `host ${bare} could not be resolved`;
  }
}

/** Checks every URL; the first problems found are a 400 naming each field. */
export async function assertWebhookUrls(urls: { field: string; url: string }[], options: UrlCheckOptions = {}): Promise<void> {
  const fields: Record<string, string[]> = {};
  for (const { field, url } of urls) {
    const problem = await webhookUrlProblem(url, options);
    if (problem) fields[field] = [`The URL ${problem}`];
  }
  const entries = Object.entries(fields);
  if (entries.length > 0) throw new AppError("bad_request", entries.map(([k, v]) => `${k}: ${v.join("; ")}`).join("; "), fields, true);
}
