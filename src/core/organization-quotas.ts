// Per-organization quotas (issue 19): limits shared by all of an organization's projects and keys, in Sentry's
// `{window, count}` shape per category; Sentry sells its attachment quota per organization, in bytes. Read by
// org:read, changed by org:update, through `PUT /api/0/organizations/{org}/` with `quotas` and the organization's
// settings. The intake applies them with the key's and project's (ingest/accept.ts), scope "organization" in
// X-Sentry-Rate-Limits.
import { z } from "zod";
import type { Quotas } from "../storage/ports";
import { requireOrg } from "./access";
import type { CoreContext } from "./context";
import { parseInput, patchQuotas, quotasSchema } from "./schemas";

const patchSchema = z.object({ quotas: quotasSchema });

export const hasQuotaField = (input: unknown): boolean => typeof input === "object" && input !== null && "quotas" in input;

export async function getOrganizationQuotas(ctx: CoreContext, orgSlug: string): Promise<Quotas> {
  const { org } = await requireOrg(ctx, orgSlug, "org:read");
  return ctx.store.organizationQuotas(org.id);
}

/** Applies `{quotas: {category: {window, count} | null}}`: named ones set, null ones removed, the rest kept. */
export async function updateOrganizationQuotas(ctx: CoreContext, orgSlug: string, input: unknown): Promise<Quotas> {
  const { quotas } = parseInput(patchSchema, { quotas: (input as { quotas?: unknown }).quotas });
  const { org } = await requireOrg(ctx, orgSlug, "org:update");
  const next = patchQuotas(await ctx.store.organizationQuotas(org.id), quotas);
  await ctx.store.setOrganizationQuotas(org.id, next);
  return next;
}
