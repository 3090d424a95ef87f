// The intake's URLs (Relay's endpoints/mod.rs), under the base path: /api/{project_id}/{endpoint}/, slash optional.
// Issue 19 adds the multipart uploads: /api/{project_id}/events/{event_id}/attachments/ and /api/{project_id}/minidump/.
export type IntakeEndpoint = "envelope" | "store" | "security" | "attachments" | "minidump";
/** eventId: the attachments endpoint's event, as written in the path (checked by the upload intake). */
export type IntakeRoute = { projectId: string; endpoint: IntakeEndpoint; eventId?: string };

const PATTERN = /^\/api\/(\d{1,18})\/(envelope|store|security|csp-report|minidump)\/?$/;
const ATTACHMENTS = /^\/api\/(\d{1,18})\/events\/([^/]{1,64})\/attachments\/?$/;

export function matchIntakeRoute(pathname: string, basePath: string): IntakeRoute | null {
  if (basePath) {
    if (!pathname.startsWith(`${basePath}/`)) return null;
    pathname = pathname.slice(basePath.length);
  }
  const a = ATTACHMENTS.exec(pathname);
  if (a) return { projectId: a[1]!, endpoint: "attachments", eventId: a[2]! };
  const m = PATTERN.exec(pathname);
  if (!m) return null;
  return { projectId: m[1]!, endpoint: m[2] === "csp-report" ? "security" : (m[2] as IntakeEndpoint) };
}

/** CORS as Relay sets it on every intake route (middlewares/cors.rs): browsers post events from any origin. */
export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "x-sentry-error, x-sentry-rate-limits, retry-after",
} as const;

export const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers":
    "x-sentry-auth, x-requested-with, x-forwarded-for, origin, referer, accept, content-type, authentication, authorization, content-encoding, transfer-encoding",
  "access-control-max-age": "3600",
} as const;
