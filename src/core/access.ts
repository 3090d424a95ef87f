// Resolves what an actor may see of an organization. Non-members get not_found, never forbidden, so that
// another organization's objects are indistinguishable from missing ones.
import type { Organization } from "../storage/ports";
import type { CoreContext } from "./context";
import { forbidden, notFound } from "./errors";
import { can, type Permission } from "./permissions";
import type { Role } from "./roles";
import { parseId } from "./schemas";

/** A name from a URL or a form (slug, public key): anything but a short string is not found, not a crash. */
export function requireText(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 200) throw notFound(what);
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
  /** The actor's role; null for an install superuser who is not a member. */
  role: Role | null;
  memberId: number | null;
};

export async function getOrgAccess({ store, actor }: CoreContext, orgSlug: string): Promise<OrgAccess> {
  const org = await store.getOrganizationBySlug(requireText(orgSlug, "Organization"));
  if (!org) throw notFound("Organization");
  const member = await store.getMembership(org.id, actor.user.id);
  if (member) return { org, role: member.role, memberId: member.id };
  if (actor.user.isSuperuser) return { org, role: null, memberId: null };
  throw notFound("Organization");
}

export function assertCan(access: OrgAccess, permission: Permission): void {
  if (!can(access.role, permission)) throw forbidden();
}

/** Access check plus permission in one step, the form most services need. */
export async function requireOrg(ctx: CoreContext, orgSlug: string, permission: Permission): Promise<OrgAccess> {
  const access = await getOrgAccess(ctx, orgSlug);
  assertCan(access, permission);
  return access;
}
