// Checks made on the raw request before Next.js sees it.
import type http from "node:http";

/**
 * Next.js refuses a server action whose Origin is not this host, but answers 500. A cross-site form post is the
 * caller's fault: answer 403 with a clear message instead.
 */
export function crossOriginActionRefusal(req: http.IncomingMessage): string | null {
  if (req.method !== "POST" || req.headers["next-action"] === undefined) return null;
  const origin = req.headers.origin;
  if (!origin) return null;
  const forwardedHost = req.headers["x-forwarded-host"];
  const host = (Array.isArray(forwardedHost) ? forwardedHost[0] : forwardedHost) ?? req.headers.host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return "Malformed Origin header";
  }
  return originHost === host ? null : "Cross-origin server action refused";
}
