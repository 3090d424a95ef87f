// Projects: the unit events are sent to. Creating one also creates its first DSN key.
import { z } from "zod";
import { isDuplicateError, type Page, type PageRequest, type Project } from "../storage/ports";
import { assertCan, organizationsOpenTo, requireOrg, requireText, type OrgAccess } from "./access";
import { audit } from "./audit";
import { DEFAULT_RULE } from "./alert-rules";
import { hasScrubbingFields, parseScrubbingPatch, storeScrubbingPatch } from "./data-scrubbing";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import { PERSONAL_DATA_LIMITS, RETENTION_LIMITS } from "../config/limits";
import { newKeyPair } from "./key-pair";
import { slugTaken } from "./organizations";
import { ROLES } from "./roles";
import { nameSchema, parseInput, patchQuotas, platformSchema, quotasSchema, rateLimitSchema, slugify, slugSchema } from "./schemas";

const createSchema = z.object({ name: nameSchema, slug: slugSchema.optional(), platform: platformSchema.nullish(), team: slugSchema.nullish() });
// scrapeJavaScript: Sentry's project option (its API's name) letting the digest fetch sources and maps from public URLs.
// retentionDays (issue 18): the project's own retention, whole days, shorter than the instance's (checked below); null: the instance's.
const retentionDaysSchema = z
  .int("Retention is a whole number of days")
  .min(PERSONAL_DATA_LIMITS.minRetentionDays, `At least ${PERSONAL_DATA_LIMITS.minRetentionDays} day`)
  .max(RETENTION_LIMITS.maxDays, `At most ${RETENTION_LIMITS.maxDays} days`);
// attachmentsRole (issue 19): Sentry's project option, the least role that may download attachments; null: member.
const attachmentsRoleSchema = z.enum(ROLES, "One of owner, admin, member, viewer");
const updateSchema = z
  .object({
    name: nameSchema.optional(),
    slug: slugSchema.optional(),
    platform: platformSchema.nullish(),
    rateLimit: rateLimitSchema.optional(),
    quotas: quotasSchema.optional(),
    scrapeJavaScript: z.boolean().optional(),
    retentionDays: retentionDaysSchema.nullish(),
    attachmentsRole: attachmentsRoleSchema.nullish(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to change");

export async function listProjects(ctx: CoreContext, orgSlug: string, page: PageRequest): Promise<Page<Project>> {
  const { org } = await requireOrg(ctx, orgSlug, "project:read");
  return ctx.store.listProjects({ scope: { organizationIds: [org.id] }, page });
}

/** Every project the actor can see, across organizations (GET /api/0/projects/); an organization token's own. */
/** Projects of every organization the actor may enter: two-factor's requirement leaves out those it bars. */
export async function listAllProjects(ctx: CoreContext, page: PageRequest): Promise<Page<Project>> {
  const { actor } = ctx;
  if ("orgToken" in actor) return ctx.store.listProjects({ scope: { organizationIds: [actor.orgToken.organizationId] }, page });
  const open = await organizationsOpenTo(ctx.store, actor.user);
  if (open) return ctx.store.listProjects({ scope: { organizationIds: open.map((o) => o.id) }, page });
  return ctx.store.listProjects({ scope: actor.user.isSuperuser ? { all: true } : { memberUserId: actor.user.id }, page });
}

export async function getProject(ctx: CoreContext, orgSlug: string, projectSlug: string): Promise<{ access: OrgAccess; project: Project }> {
  const access = await requireOrg(ctx, orgSlug, "project:read");
  const project = await ctx.store.getProjectBySlug(access.org.id, requireText(projectSlug, "Project"));
  if (!project) throw notFound("Project");
  return { access, project };
}

/** Creates a project, optionally owned by a team, with a default DSN key and Sentry's default alert rule. */
export async function createProject(ctx: CoreContext, orgSlug: string, input: unknown): Promise<Project> {
  const { org } = await requireOrg(ctx, orgSlug, "project:create");
  const { name, slug, platform, team } = parseInput(createSchema, input);
  let teamId: number | null = null;
  if (team) {
    const t = await ctx.store.getTeamBySlug(org.id, team);
    if (!t) throw notFound("Team");
    teamId = t.id;
  }
  try {
    const project = await ctx.store.createProject({ organizationId: org.id, teamId, slug: slug ?? slugify(name), name, platform: platform ?? null });
    await ctx.store.createKey({ projectId: project.id, label: "Default", ...newKeyPair() });
    await ctx.store.createAlertRule({ ...DEFAULT_RULE, projectId: project.id, createdBy: "user" in ctx.actor ? ctx.actor.user.id : null });
    return project;
  } catch (err) {
    if (isDuplicateError(err)) throw slugTaken("project");
    throw err;
  }
}

/**
 * instanceRetentionDays: FAULTLINE_RETENTION_DAYS, which a project's own retention must be shorter than. The body may
 * also hold the project's data scrubbing settings (Sentry's field names, core/data-scrubbing.ts), alone or with the rest.
 */
export async function updateProject(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  input: unknown,
  options: { instanceRetentionDays?: number } = {},
): Promise<Project> {
  const scrubbing = hasScrubbingFields(input) ? parseScrubbingPatch(input) : null;
  const own = scrubbing && !hasOwnFields(input) ? null : parseInput(updateSchema, input);
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "project:update");
  const updated = own ? await updateOwnFields(ctx, project, own, options) : project;
  if (scrubbing) await storeScrubbingPatch(ctx, { projectId: project.id }, scrubbing, { organizationId: access.org.id, what: `the project ${project.slug}` });
  return updated;
}

const OWN_FIELDS = ["name", "slug", "platform", "rateLimit", "quotas", "scrapeJavaScript", "retentionDays", "attachmentsRole"];
const hasOwnFields = (input: unknown) => typeof input === "object" && input !== null && OWN_FIELDS.some((k) => k in input);

async function updateOwnFields(
  ctx: CoreContext,
  project: Project,
  patch: z.output<typeof updateSchema>,
  options: { instanceRetentionDays?: number },
): Promise<Project> {
  const instanceDays = options.instanceRetentionDays ?? RETENTION_LIMITS.defaultDays;
  if (patch.retentionDays != null && patch.retentionDays >= instanceDays) {
    throw new AppError(
      "bad_request",
      `Retention must be shorter than the instance's ${instanceDays} days`,
      { retentionDays: [`Shorter than ${instanceDays} days`] },
      true,
    );
  }
  try {
    const updated = await ctx.store.updateProject(project.id, { ...patch, quotas: patch.quotas && patchQuotas(project.quotas, patch.quotas) });
    if (!updated) throw notFound("Project");
    return updated;
  } catch (err) {
    if (isDuplicateError(err)) throw slugTaken("project");
    throw err;
  }
}

export async function deleteProject(ctx: CoreContext, orgSlug: string, projectSlug: string): Promise<void> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "project:delete");
  await ctx.store.deleteProject(project.id);
  await audit(ctx, {
    organizationId: access.org.id,
    event: "project.remove",
    target: project.id,
    note: `deleted the project ${project.slug}`,
    data: { slug: project.slug, name: project.name },
  });
}
