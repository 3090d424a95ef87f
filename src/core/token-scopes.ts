// Sentry's token scopes: what a personal API token may be given at creation, and which scopes a /api/0 route accepts
// for the one it declares (web/api/handler.ts apiRoute). A token's scopes narrow what its owner's role allows; they
// never widen it (the role check in core/access.ts still applies). Sentry's own rules, as its endpoints' scope maps
// read: a write scope also reads, an admin scope also writes and reads, and project:write/admin also manage releases.

/** The scopes a personal token can be given, in Sentry's order (its "Create New Token" form). */
export const TOKEN_SCOPES = [
  "org:read",
  "org:write",
  "project:read",
  "project:write",
  "project:admin",
  "project:releases",
  "team:read",
  "member:read",
  "event:read",
  "event:write",
  "event:admin",
  "alerts:read",
  "alerts:write",
] as const;

export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A scope an organization auth token carries (core/org-tokens.ts): Sentry's CI scope. */
export const ORG_CI_SCOPE = "org:ci";

/**
 * What a route may declare: a personal token's scope, or `org:admin` (deleting an organization), which Faultline
 * gives no personal token: only a browser session or a token from before scopes can do that through the API.
 */
export type RouteScope = TokenScope | "org:admin";

/**
 * For each scope a route declares, every token scope that satisfies it (Sentry's scope maps: GET accepts read, write
 * and admin; writes accept write and admin; releases accept project:releases, project:write, project:admin and the
 * organization tokens' org:ci, which also reads the organization and its projects).
 */
const ACCEPTED: Record<RouteScope, readonly string[]> = {
  "org:read": ["org:read", "org:write", ORG_CI_SCOPE],
  "org:write": ["org:write"],
  "org:admin": [],
  "project:read": ["project:read", "project:write", "project:admin", ORG_CI_SCOPE],
  "project:write": ["project:write", "project:admin"],
  "project:admin": ["project:admin"],
  "project:releases": ["project:releases", "project:write", "project:admin", ORG_CI_SCOPE],
  "team:read": ["team:read"],
  "member:read": ["member:read"],
  "event:read": ["event:read", "event:write", "event:admin"],
  "event:write": ["event:write", "event:admin"],
  "event:admin": ["event:admin"],
  "alerts:read": ["alerts:read", "alerts:write"],
  "alerts:write": ["alerts:write"],
};

/**
 * Whether a caller with these token scopes may use a route declaring `required` (one scope, or a list of which any
 * one will do). `null` scopes mean no restriction: a browser session, or a personal token made before tokens had
 * scopes (full access, as its owner's role allows).
 */
export function scopeSatisfied(tokenScopes: readonly string[] | null, required: RouteScope | readonly RouteScope[]): boolean {
  if (tokenScopes === null) return true;
  const wanted: readonly RouteScope[] = typeof required === "string" ? [required] : required;
  return wanted.some((r) => ACCEPTED[r].some((s) => tokenScopes.includes(s)));
}

export const isTokenScope = (value: unknown): value is TokenScope => typeof value === "string" && (TOKEN_SCOPES as readonly string[]).includes(value);

/** Sentry's answer when a token lacks the scope (Django REST framework's PermissionDenied text). */
export const SCOPE_DENIED_MESSAGE = "You do not have permission to perform this action.";
