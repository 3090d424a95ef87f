// Organizations: create, list, read, rename, delete.
import { z } from "zod";
import { isDuplicateError, type Organization, type Page, type PageRequest } from "../storage/ports";
import { getOrgAccess, requireOrg, type OrgAccess } from "./access";
import { audit } from "./audit";
import { actingUser, type CoreContext } from "./context";
import { hasScrubbingFields, parseScrubbingPatch, storeScrubbingPatch } from "./data-scrubbing";
import { AppError } from "./errors";
import { hasQuotaField, updateOrganizationQuotas } from "./organization-quotas";
import { nameSchema, parseInput, slugify, slugSchema } from "./schemas";

const createSchema = z.object({ name: nameSchema, slug: slugSchema.optional() });
const updateSchema = z
  .object({ name: nameSchema.optional(), slug: slugSchema.optional() })
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to change");

export const slugTaken = (what: string) => new AppError("conflict", `That ${what} slug is already taken`, { slug: [`That ${what} slug is already taken`] });

/** Any signed-in user may create an organization and becomes its owner. */
export async function createOrganization(ctx: CoreContext, input: unknown): Promise<Organization> {
  const { name, slug } = parseInput(createSchema, input);
  try {
    return await ctx.store.createOrganization({ name, slug: slug ?? slugify(name), ownerUserId: actingUser(ctx).id });
  } catch (err) {
    if (isDuplicateError(err)) throw slugTaken("organization");
    throw err;
  }
}

/** The organizations the actor belongs to (all for an install superuser); an organization token's own one. */
export async function listOrganizations(ctx: CoreContext, page: PageRequest): Promise<Page<Organization>> {
  const { actor } = ctx;
  if ("orgToken" in actor) {
    const org = await ctx.store.getOrganizationById(actor.orgToken.organizationId);
    return { items: org ? [org] : [], nextCursor: null };
  }
  return ctx.store.listOrganizations({ userId: actor.user.id, all: actor.user.isSuperuser, page });
}

export function getOrganization(ctx: CoreContext, orgSlug: string): Promise<OrgAccess> {
  return getOrgAccess(ctx, orgSlug);
}

/** Renames the organization; the body may also hold its data scrubbing settings (core/data-scrubbing.ts), alone or with the rest. */
export async function updateOrganization(ctx: CoreContext, orgSlug: string, input: unknown): Promise<Organization> {
  const { org } = await requireOrg(ctx, orgSlug, "org:update");
  const scrubbing = hasScrubbingFields(input) ? parseScrubbingPatch(input) : null;
  const ownFields = typeof input === "object" && input !== null && ("name" in input || "slug" in input);
  const quotas = hasQuotaField(input);
  const patch = (scrubbing || quotas) && !ownFields ? {} : parseInput(updateSchema, input);
  if (quotas) await updateOrganizationQuotas(ctx, orgSlug, input);
  try {
    const updated = await ctx.store.updateOrganization(org.id, patch);
    if (!updated) throw new AppError("not_found", "Organization not found");
    if (updated.name !== org.name || updated.slug !== org.slug) {
      await audit(ctx, {
        organizationId: org.id,
        event: "org.edit",
        target: org.id,
        note: "changed the organization's name or slug",
        data: { old: { name: org.name, slug: org.slug }, new: { name: updated.name, slug: updated.slug } },
      });
    }
    if (scrubbing) await storeScrubbingPatch(ctx, { organizationId: org.id }, scrubbing, { organizationId: org.id, what: "the organization" });
    return updated;
  } catch (err) {
    if (isDuplicateError(err)) throw slugTaken("organization");
    throw err;
  }
}

export async function deleteOrganization(ctx: CoreContext, orgSlug: string): Promise<void> {
  const { org } = await requireOrg(ctx, orgSlug, "org:delete");
  await ctx.store.deleteOrganization(org.id);
  // The organization's trail goes with it; its deletion is kept in the instance's.
  await audit(ctx, {
    organizationId: null,
    event: "org.remove",
    target: org.id,
    note: `deleted the organization ${org.slug}`,
    data: { slug: org.slug, name: org.name },
  });
}
