// DSN keys of a project: create, rename, enable or disable, revoke (delete).
import { z } from "zod";
import type { Project, ProjectKey } from "../storage/ports";
import { assertCan, requireText } from "./access";
import { audit } from "./audit";
import type { CoreContext } from "./context";
import { notFound } from "./errors";
import { nameSchema, parseInput, patchQuotas, quotasSchema, rateLimitSchema } from "./schemas";
import { newKeyPair } from "./key-pair";
import { getProject } from "./projects";

const createSchema = z.object({ name: nameSchema.optional(), label: nameSchema.optional() });
const updateSchema = z
  .object({
    name: nameSchema.optional(),
    label: nameSchema.optional(),
    isActive: z.boolean().optional(),
    rateLimit: rateLimitSchema.optional(),
    quotas: quotasSchema.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to change");

/** DSN = scheme://PUBLIC_KEY@HOST[BASE_PATH]/PROJECT_ID, built from the install's public URL. */
export function buildDsn(publicUrl: string, basePath: string, key: ProjectKey, project: Project): { public: string; secret: string } {
  const url = new URL(publicUrl);
  const hostPath = `${url.host}${basePath.replace(/\/+$/, "")}`;
  return {
    public: `${url.protocol}//${key.publicKey}@${hostPath}/${project.id}`,
    secret: `${url.protocol}//${key.publicKey}:${key.secretKey}@${hostPath}/${project.id}`,
  };
}

export async function listKeys(ctx: CoreContext, orgSlug: string, projectSlug: string): Promise<{ project: Project; keys: ProjectKey[] }> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "key:read");
  return { project, keys: await ctx.store.listKeys(project.id) };
}

export async function createKey(ctx: CoreContext, orgSlug: string, projectSlug: string, input: unknown): Promise<{ project: Project; key: ProjectKey }> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "key:create");
  const { name, label } = parseInput(createSchema, input ?? {});
  const key = await ctx.store.createKey({ projectId: project.id, label: label ?? name ?? "Default", ...newKeyPair() });
  await audit(ctx, {
    organizationId: project.organizationId,
    event: "projectkey.create",
    target: key.publicKey,
    note: `created the key ${key.label} of ${project.slug}`,
    data: { project: project.slug, label: key.label },
  });
  return { project, key };
}

/** Keys are addressed by their public key, as in Sentry's API (`/keys/{public_key}/`). */
async function findKey(ctx: CoreContext, project: Project, publicKey: string): Promise<ProjectKey> {
  const wanted = requireText(publicKey, "Key");
  const key = (await ctx.store.listKeys(project.id)).find((k) => k.publicKey === wanted);
  if (!key) throw notFound("Key");
  return key;
}

export async function updateKey(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  publicKey: string,
  input: unknown,
): Promise<{ project: Project; key: ProjectKey }> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "key:update");
  const { name, label, isActive, rateLimit, quotas } = parseInput(updateSchema, input);
  const existing = await findKey(ctx, project, publicKey);
  const key = await ctx.store.updateKey(project.id, existing.id, {
    label: label ?? name,
    isActive,
    rateLimit,
    quotas: quotas && patchQuotas(existing.quotas, quotas),
  });
  if (!key) throw notFound("Key");
  const fields = ["label", "isActive", "rateLimit", "quotas"] as const;
  const changed = fields.filter((f) => JSON.stringify(existing[f]) !== JSON.stringify(key[f]));
  await audit(ctx, {
    organizationId: project.organizationId,
    event: "projectkey.edit",
    target: key.publicKey,
    note:
      existing.isActive !== key.isActive
        ? `${key.isActive ? "enabled" : "disabled"} the key ${key.label} of ${project.slug}`
        : `changed the key ${key.label} of ${project.slug}`,
    data: { project: project.slug, old: Object.fromEntries(changed.map((f) => [f, existing[f]])), new: Object.fromEntries(changed.map((f) => [f, key[f]])) },
  });
  return { project, key };
}

export async function deleteKey(ctx: CoreContext, orgSlug: string, projectSlug: string, publicKey: string): Promise<void> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "key:delete");
  const existing = await findKey(ctx, project, publicKey);
  await ctx.store.deleteKey(project.id, existing.id);
  await audit(ctx, {
    organizationId: project.organizationId,
    event: "projectkey.remove",
    target: existing.publicKey,
    note: `revoked the key ${existing.label} of ${project.slug}`,
    data: { project: project.slug, label: existing.label },
  });
}
