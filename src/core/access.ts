// Resolves what an actor may see of an organization. Non-members get not_found, never forbidden, so that
// another organization's objects are indistinguishable from missing ones. A person's role decides what they may do;
// an organization token sees its own organization only, and its scopes decide.
import { API_LIMITS } from "../config/limits";
import type { Organization, User } from "../storage/ports";
import type { CoreContext } from "./context";
import { forbidden, notFound, TwoFactorRequiredError } from "./errors";
import { everyPage } from "./pagination";
import { can, type Permission, scopesAllow } from "./permissions";
import type { Role } from "./roles";
import { parseId } from "./schemas";

/**
 * A name from a URL or a form (slug, public key, version): anything but a short string is not found, not a crash. A
 * NUL names nothing either (PostgreSQL refused the lookup, a 500).
 */
export function requireText(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 200 || value.includes("\u0000")) throw notFound(what);
  return value;
}

/** A numeric id from a URL or a form; one that cannot name a row (core/schemas.ts parseId) is not found. */
export function requireId(value: unknown, what: string): number {
  const id = parseId(value);
  if (id === null) throw notFound(what);
  return id;
}

export type OrgAccess = {
  org: Organization;
  /**
   * The actor's role; null for an install superuser who is not a member. An organization token has no role of its
   * own: it reads as the weakest one, "viewer", so that code reading the role grants it no more than that.
   */
  role: Role | null;
  memberId: number | null;
  /** An organization token's scopes, which alone decide what it may do; null for a person. */
  scopes: readonly string[] | null;
};

/** A person without two-factor in an organization that requires it (core/two-factor.ts): refused, whoever they are. */
async function assertTwoFactor(store: CoreContext["store"], org: Organization, userId: string): Promise<void> {
  if (org.requireTwoFactor && !(await store.userHasTwoFactor(userId))) throw new TwoFactorRequiredError(org.slug);
}

/**
 * The organizations a person may enter, of those they see (all of them for a superuser), when two-factor bars some
 * (assertTwoFactor); null when it bars none, so that callers keep their own, cheaper scope.
 */
export async function organizationsOpenTo(store: CoreContext["store"], user: User): Promise<Organization[] | null> {
  if (await store.userHasTwoFactor(user.id)) return null;
  const seen = await everyPage((page) => store.listOrganizations({ userId: user.id, all: user.isSuperuser, page }), API_LIMITS.maxPageSize);
  return seen.some((o) => o.requireTwoFactor) ? seen.filter((o) => !o.requireTwoFactor) : null;
}

export async function getOrgAccess({ store, actor }: CoreContext, orgSlug: string): Promise<OrgAccess> {
  const org = await store.getOrganizationBySlug(requireText(orgSlug, "Organization"));
  if (!org) throw notFound("Organization");
  if ("orgToken" in actor) {
    if (actor.orgToken.organizationId !== org.id) throw notFound("Organization");
    return { org, role: "viewer", memberId: null, scopes: actor.orgToken.scopes };
  }
  const member = await store.getMembership(org.id, actor.user.id);
  if (member || actor.user.isSuperuser) await assertTwoFactor(store, org, actor.user.id);
  if (member) return { org, role: member.role, memberId: member.id, scopes: null };
  if (actor.user.isSuperuser) return { org, role: null, memberId: null, scopes: null };
  throw notFound("Organization");
}

/** Whether the actor may do this in the organization: by a person's role, or by an organization token's scopes. */
export function allowed(access: OrgAccess, permission: Permission): boolean {
  return access.scopes !== null ? scopesAllow(access.scopes, permission) : can(access.role, permission);
}

export function assertCan(access: OrgAccess, permission: Permission): void {
  if (!allowed(access, permission)) throw forbidden();
}

/** Access check plus permission in one step, the form most services need. */
export async function requireOrg(ctx: CoreContext, orgSlug: string, permission: Permission): Promise<OrgAccess> {
  const access = await getOrgAccess(ctx, orgSlug);
  assertCan(access, permission);
  return access;
}
