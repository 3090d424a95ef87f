// The permission matrix: which organization role may do what. docs/permissions.md renders the same table;
// tests/core/permissions.test.ts checks every role against every mutation through the core services.
import type { Role } from "./roles";

export const PERMISSIONS = {
  "org:read": ["owner", "admin", "member", "viewer"],
  "org:update": ["owner", "admin"],
  "org:delete": ["owner"],
  /** The organization's audit trail (issue 20): who changed members, tokens, keys, settings and rules, and when. */
  "org:audit": ["owner", "admin"],
  /**
   * How the organization's members must sign in (issue 20): "require two-factor". Owners only, as in Sentry: it can
   * shut every member without two-factor out of the organization.
   */
  "org:security": ["owner"],
  /** Create, see and revoke the organization's auth tokens (CI, sentry-cli). */
  "org:tokens": ["owner", "admin"],
  "member:read": ["owner", "admin", "member", "viewer"],
  "member:add": ["owner", "admin"],
  "member:update": ["owner", "admin"],
  "member:remove": ["owner", "admin"],
  "team:read": ["owner", "admin", "member", "viewer"],
  "team:create": ["owner", "admin"],
  "team:delete": ["owner", "admin"],
  /** Joining or leaving a team oneself. */
  "team:join": ["owner", "admin", "member"],
  "project:read": ["owner", "admin", "member", "viewer"],
  /** Reading issues, events and their counts, as Sentry's event:read scope. */
  "event:read": ["owner", "admin", "member", "viewer"],
  "project:create": ["owner", "admin"],
  "project:update": ["owner", "admin"],
  "project:delete": ["owner", "admin"],
  "key:read": ["owner", "admin", "member", "viewer"],
  "key:create": ["owner", "admin"],
  "key:update": ["owner", "admin"],
  "key:delete": ["owner", "admin"],
  /** Triage: resolve, ignore, reopen or assign issues, as Sentry's event:write lets members do. */
  "issue:update": ["owner", "admin", "member"],
  "issue:delete": ["owner", "admin"],
  /** Commenting on issues; editing is the author's alone. */
  "issue:comment": ["owner", "admin", "member"],
  /** Deleting other people's comments. */
  "comment:moderate": ["owner", "admin"],
  /** Create and update releases (sentry-cli in CI), as Sentry's project:releases scope lets members do. */
  "release:write": ["owner", "admin", "member"],
  "release:delete": ["owner", "admin"],
  /** Seeing alert rules (issue and metric alerts) and their history. */
  "alert:read": ["owner", "admin", "member", "viewer"],
  /**
   * Creating, changing and deleting alert rules: admins and owners, as Sentry's `alerts:write` by default; members
   * too where the organization allows it (organizations.alerts_member_write, Sentry's "Let members create alerts").
   */
  "alert:write": ["owner", "admin"],
  /**
   * A person's data (issue 18): finding a user's events in every project of the organization, exporting and erasing
   * them. Owners only (and superusers): it reads across every project and deletes events.
   */
  "privacy:manage": ["owner"],
  /** Cron monitors (issue 19): seeing monitors and their check-ins, as Sentry's event:read. */
  "monitor:read": ["owner", "admin", "member", "viewer"],
  /** Creating, editing, muting and deleting monitors, as Sentry's project:write (project settings). */
  "monitor:write": ["owner", "admin"],
  /**
   * Downloading an event's attachments (issue 19; seeing their names and sizes is event:read): the roles at or above
   * the project's "attachments role" (Sentry's attachmentsRole), member by default, which this row is; checked by
   * canDownloadAttachments in core/attachments.ts. Attachments may hold personal data (screenshots, logs, dumps).
   */
  "attachment:download": ["owner", "admin", "member"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

/**
 * What an organization auth token's scopes give. Sentry's org tokens carry `org:ci`: read the organization and its
 * projects, create and update releases (and upload their files); nothing else, whatever role its creator has.
 */
export const ORG_TOKEN_SCOPES = {
  "org:ci": ["org:read", "project:read", "release:write"],
} as const satisfies Record<string, readonly Permission[]>;

export type OrgTokenScope = keyof typeof ORG_TOKEN_SCOPES;

/** Whether an organization token with these scopes may do this; an unknown scope gives nothing. */
export function scopesAllow(scopes: readonly string[], permission: Permission): boolean {
  return scopes.some((s) => Object.hasOwn(ORG_TOKEN_SCOPES, s) && (ORG_TOKEN_SCOPES[s as OrgTokenScope] as readonly Permission[]).includes(permission));
}

/** `role` null means an install superuser, who may do everything. */
export function can(role: Role | null, permission: Permission): boolean {
  return role === null || (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** Only owners may hand out or take away the owner role. */
export function canAssignRole(actorRole: Role | null, target: Role): boolean {
  return target !== "owner" || actorRole === null || actorRole === "owner";
}
