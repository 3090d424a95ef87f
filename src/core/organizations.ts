// Organizations: create, list, read, rename, delete.
import { z } from "zod";
import { isDuplicateError, type Organization, type Page, type PageRequest } from "../storage/ports";
import { getOrgAccess, requireOrg, type OrgAccess } from "./access";
import type { CoreContext } from "./context";
import { AppError } from "./errors";
import { nameSchema, parseInput, slugify, slugSchema } from "./schemas";

const createSchema = z.object({ name: nameSchema, slug: slugSchema.optional() });
const updateSchema = z.object({ name: nameSchema.optional(), slug: slugSchema.optional() }).refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to change");

export const slugTaken = (what: string) => new AppError("conflict", `That ${what} slug is already taken`, { slug: [`That ${what} slug is already taken`] });

/** Any signed-in user may create an organization and becomes its owner. */
export async function createOrganization(ctx: CoreContext, input: unknown): Promise<Organization> {
  const { name, slug } = parseInput(createSchema, input);
  try {
    return await ctx.store.createOrganization({ name, slug: slug ?? slugify(name), ownerUserId: ctx.actor.user.id });
  } catch (err) {
    if (isDuplicateError(err)) throw slugTaken("organization");
    throw err;
  }
}

export function listOrganizations(ctx: CoreContext, page: PageRequest): Promise<Page<Organization>> {
  return ctx.store.listOrganizations({ userId: ctx.actor.user.id, all: ctx.actor.user.isSuperuser, page });
}

export function getOrganization(ctx: CoreContext, orgSlug: string): Promise<OrgAccess> {
  return getOrgAccess(ctx, orgSlug);
}

export async function updateOrganization(ctx: CoreContext, orgSlug: string, input: unknown): Promise<Organization> {
  const { org } = await requireOrg(ctx, orgSlug, "org:update");
  const patch = parseInput(updateSchema, input);
  try {
    const updated = await ctx.store.updateOrganization(org.id, patch);
    if (!updated) throw new AppError("not_found", "Organization not found");
    return updated;
  } catch (err) {
    if (isDuplicateError(err)) throw slugTaken("organization");
    throw err;
  }
}

export async function deleteOrganization(ctx: CoreContext, orgSlug: string): Promise<void> {
  const { org } = await requireOrg(ctx, orgSlug, "org:delete");
  await ctx.store.deleteOrganization(org.id);
}
