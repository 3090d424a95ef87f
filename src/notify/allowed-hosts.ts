// The hosts the instance's superusers allow notifications to reach although they resolve to private, loopback or
// link-local addresses (an intranet chat server, a receiver on the same machine). One instance setting, a list of
// host names or addresses, one per line (instance_settings "notification_allowed_hosts"); everything else must resolve to public addresses only (http.ts).
/** characters; the setting as typed (a few dozen host names fit many times). */
export const ALLOWED_HOSTS_MAX_CHARS = 4000;

/** The hosts of the setting's text: one per line (commas and spaces separate too), lower case, without duplicates. */
export function parseAllowedHosts(text: string | null | undefined): string[] {
  if (!text) return [];
  const hosts = text
    .split(/[\s,]+/)
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "");
  return [...new Set(hosts)];
}

/** A host name or an address, as a URL's host may be: letters, digits, dots, hyphens, colons and brackets (IPv6). */
export function isHostName(host: string): boolean {
  return host.length <= 253 && /^(\[[0-9a-f:.]+\]|[0-9a-z._-]+|[0-9a-f:.]+)$/.test(host);
}
