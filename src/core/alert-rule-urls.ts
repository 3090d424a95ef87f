// Webhook targets are checked when a rule is saved, with the check the sender makes when it connects (notify/http.ts:
// http(s) only, no credentials in the URL, every address the host resolves to public unless the instance allows the
// host explicitly). The sender checks again then: DNS can change in between.
import type { LookupAddress } from "node:dns";
import { checkTargetUrl } from "../notify/http";
import { AppError } from "./errors";

export type UrlCheckOptions = {
  /** Hosts the instance allows whatever they resolve to (the instance setting; notify/allowed-hosts.ts). */
  allowedHosts?: readonly string[];
  /** DNS resolution; the system's by default. */
  resolve?: (host: string) => Promise<LookupAddress[]>;
};

/** Why this URL may not be a webhook target, or null when it may: the sender's own check (notify/http.ts). */
export async function webhookUrlProblem(raw: string, options: UrlCheckOptions = {}): Promise<string | null> {
  const check = await checkTargetUrl(raw, options.allowedHosts ?? [], options.resolve);
  return check.ok ? null : check.reason;
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
