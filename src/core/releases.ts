// Releases through Sentry's API (sentry-protocol.md §6): list, create (idempotent: 201 when new or given new projects,
// 208 otherwise, as Sentry answers), read, update (finalize, set-commits) and delete, for an organization or one of
// its projects, with release health from sessions when asked.
import { z } from "zod";
import { RELEASE_LIMITS } from "../config/limits";
import type { Organization, Page, PageRequest, Project } from "../storage/ports";
import type { Release, ReleaseFields, ReleaseHealthRow } from "../storage/release-ports";
import { type OrgAccess, assertCan, requireOrg, requireText } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import type { Permission } from "./permissions";
import { isValidRelease } from "./release-name";
import { instantSchema, parseId, parseInput } from "./schemas";

export type ReleaseView = {
  release: Release;
  /** The project of a project route: the release is shown as that project sees it. */
  forProject: Project | null;
  projects: Map<number, Project>;
  /** Session totals by `${projectId}:${version}` (for hasHealthData), in the environments asked for. */
  health: Map<string, ReleaseHealthRow>;
  /** Whether the answer shows healthData (`?health=1`). */
  withHealthData: boolean;
};

/** Sentry's Release.is_valid_version: no line breaks, tabs or slashes, not "." or "..", not "latest". */
const versionSchema = z
  .string({ error: "Enter a version" })
  .trim()
  .min(1, "Enter a version")
  .max(RELEASE_LIMITS.versionLength, `At most ${RELEASE_LIMITS.versionLength} characters`)
  .refine(isValidRelease, "Release version is not valid");
const date = instantSchema.nullish();
const optionalText = (max: number) => z.string().max(max).nullish();
const ref = z.object({ repository: z.string().min(1).max(200), commit: z.string().min(1).max(200), previousCommit: z.string().max(200).nullish() });
const commit = z.looseObject({
  id: z.string().min(1).max(200),
  repository: z.string().max(200).nullish(),
  message: z.string().max(10_000).nullish(),
  author_name: z.string().max(200).nullish(),
  author_email: z.string().max(200).nullish(),
  timestamp: z.string().max(64).nullish(),
});
const fields = {
  ref: optionalText(200),
  url: optionalText(2000),
  dateReleased: date,
  dateStarted: date,
  refs: z.array(ref).max(RELEASE_LIMITS.maxCommits).nullish(),
  commits: z.array(commit).max(RELEASE_LIMITS.maxCommits).nullish(),
  /** Slugs, or ids (sentry-cli 3 sends all-digit ones as numbers). */
  projects: z
    .array(z.union([z.string().min(1).max(200), z.number().int().positive()]))
    .max(1000)
    .nullish(),
  /** Sentry's release status: sentry-cli `releases archive` sends "archived", `releases restore` "open". */
  status: z.enum(["open", "archived"], { error: "Invalid status: use open or archived" }).nullish(),
};
const createSchema = z.object({ version: versionSchema, ...fields });
const updateSchema = z.object(fields);

type Input = z.infer<typeof updateSchema>;

function toFields(input: Input): ReleaseFields {
  const out: ReleaseFields = {};
  if (input.ref !== undefined) out.ref = input.ref ?? null;
  if (input.url !== undefined) out.url = input.url ?? null;
  if (input.dateReleased !== undefined) out.releasedAt = input.dateReleased ? new Date(input.dateReleased).toISOString() : null;
  if (input.dateStarted !== undefined) out.startedAt = input.dateStarted ? new Date(input.dateStarted).toISOString() : null;
  // Commits are kept as sent: Faultline has no repository integrations to fetch them from.
  if (input.refs !== undefined) out.refs = input.refs && input.refs.length > 0 ? JSON.stringify(input.refs) : null;
  if (input.commits !== undefined) out.commits = input.commits && input.commits.length > 0 ? JSON.stringify(input.commits) : null;
  if (input.status) out.status = input.status;
  return out;
}

type Scope = { access: OrgAccess; project: Project | null };

async function scope(ctx: CoreContext, orgSlug: string, projectSlug: string | null, permission: Permission): Promise<Scope> {
  const access = await requireOrg(ctx, orgSlug, "project:read");
  assertCan(access, permission);
  if (projectSlug === null) return { access, project: null };
  const project = await ctx.store.getProjectBySlug(access.org.id, requireText(projectSlug, "Project"));
  if (!project) throw notFound("Project");
  return { access, project };
}

/** A project by slug, or by id when all digits (slugs never are); null for an id no project can have. */
async function namedProject(ctx: CoreContext, org: Organization, name: string | number): Promise<Project | null> {
  if (typeof name === "string" && !/^\d+$/.test(name)) return ctx.store.getProjectBySlug(org.id, name);
  const id = parseId(name);
  return id === null ? null : ctx.store.getProjectById(id);
}

/** The projects a body or `?project=` names (slugs, or ids when all digits), all of this organization; 400 naming the field otherwise. */
export async function namedProjects(ctx: CoreContext, org: Organization, names: (string | number)[]): Promise<Project[]> {
  const out: Project[] = [];
  for (const name of names) {
    const p = await namedProject(ctx, org, name);
    if (!p || p.organizationId !== org.id) throw new AppError("bad_request", "Invalid project slugs", { projects: ["Invalid project slugs"] }, true);
    out.push(p);
  }
  return out;
}

async function view(
  ctx: CoreContext,
  releases: Release[],
  forProject: Project | null,
  health: { environments: string[] | null } | null,
): Promise<ReleaseView[]> {
  const withHealthData = health !== null;
  const projects = new Map<number, Project>();
  for (const id of new Set(releases.flatMap((r) => r.projects.map((p) => p.projectId)))) {
    const p = await ctx.store.getProjectById(id);
    if (p) projects.set(id, p);
  }
  const since24h = new Date(Date.now() - 24 * 3_600_000).toISOString();
  const rows = await ctx.store.releaseHealth(
    [...projects.keys()],
    releases.map((r) => r.version),
    { environments: health?.environments ?? null, since24h },
  );
  const byKey = new Map(rows.map((r) => [`${r.projectId}:${r.version}`, r]));
  return releases.map((release) => ({ release, forProject, projects, health: byKey, withHealthData }));
}

export type ReleaseListQuery = { query: string | null; projectIds: string[]; health: boolean; environments: string[]; page: PageRequest };

export async function listReleases(ctx: CoreContext, orgSlug: string, projectSlug: string | null, q: ReleaseListQuery): Promise<Page<ReleaseView>> {
  const { access, project } = await scope(ctx, orgSlug, projectSlug, "project:read");
  let projectIds: number[] | null = project ? [project.id] : null;
  if (!project && q.projectIds.length > 0 && !q.projectIds.includes("-1")) projectIds = (await namedProjects(ctx, access.org, q.projectIds)).map((p) => p.id);
  const page = await ctx.store.listReleases({ organizationId: access.org.id, projectIds, query: q.query?.trim() || null, page: q.page });
  const health = q.health ? { environments: q.environments.length > 0 ? q.environments : null } : null;
  return { items: await view(ctx, page.items, project, health), nextCursor: page.nextCursor };
}

async function existing(ctx: CoreContext, s: Scope, version: string): Promise<Release> {
  if (typeof version !== "string" || version.length === 0 || version.length > RELEASE_LIMITS.versionLength) throw notFound("Release");
  const release = await ctx.store.getRelease(s.access.org.id, version);
  if (!release || (s.project && !release.projects.some((p) => p.projectId === s.project!.id))) throw notFound("Release");
  return release;
}

export async function getRelease(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string | null,
  version: string,
  opts: { health: boolean; environments: string[] },
): Promise<ReleaseView> {
  const s = await scope(ctx, orgSlug, projectSlug, "project:read");
  const health = opts.health ? { environments: opts.environments.length > 0 ? opts.environments : null } : null;
  return (await view(ctx, [await existing(ctx, s, version)], s.project, health))[0]!;
}

/**
 * POST: creates the release, or adds the named projects to the existing one. Projects are required only for a new
 * release: sentry-cli `releases archive` and `restore` post an existing one's version with no projects and a `status`.
 * `created` is false when no release or project was added.
 */
export async function createRelease(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string | null,
  body: unknown,
): Promise<{ view: ReleaseView; created: boolean }> {
  const s = await scope(ctx, orgSlug, projectSlug, "release:write");
  const input = parseInput(createSchema, body);
  const projects = s.project ? [s.project] : await namedProjects(ctx, s.access.org, input.projects ?? []);
  const before = await ctx.store.getRelease(s.access.org.id, input.version);
  if (projects.length === 0 && !before) throw new AppError("bad_request", "Name the release's projects", { projects: ["This field is required."] }, true);
  const { release, created } = await ctx.store.upsertRelease({
    organizationId: s.access.org.id,
    version: input.version,
    projectIds: projects.map((p) => p.id),
    createdAt: new Date().toISOString(),
    ...(before ? {} : toFields(input)),
  });
  let current = release;
  if (before && (input.refs || input.commits || input.status)) {
    // Sentry sets commits (set-commits calls `releases new` first) and the status on an existing release too.
    await ctx.store.updateRelease(release.id, toFields({ refs: input.refs, commits: input.commits, status: input.status }), []);
    current = (await ctx.store.getRelease(s.access.org.id, input.version))!;
  }
  const addedProjects = before !== null && current.projects.length > before.projects.length;
  return { view: (await view(ctx, [current], s.project, null))[0]!, created: created || addedProjects };
}

/** PUT: dateReleased (finalize), dateStarted, url, ref, refs and commits (set-commits), status, more projects. */
export async function updateRelease(ctx: CoreContext, orgSlug: string, projectSlug: string | null, version: string, body: unknown): Promise<ReleaseView> {
  const s = await scope(ctx, orgSlug, projectSlug, "release:write");
  const release = await existing(ctx, s, version);
  const input = parseInput(updateSchema, body);
  const added = s.project ? [] : await namedProjects(ctx, s.access.org, input.projects ?? []);
  await ctx.store.updateRelease(
    release.id,
    toFields(input),
    added.map((p) => p.id),
  );
  return (await view(ctx, [(await ctx.store.getRelease(s.access.org.id, release.version))!], s.project, null))[0]!;
}

/** The release set-commits --local continues from (GET …/previous-with-commits/); null when there is none. */
export async function previousReleaseWithCommits(ctx: CoreContext, orgSlug: string, version: string): Promise<ReleaseView | null> {
  const s = await scope(ctx, orgSlug, null, "project:read");
  const previous = await ctx.store.previousReleaseWithCommits(await existing(ctx, s, version));
  return previous ? (await view(ctx, [previous], null, null))[0]! : null;
}

export async function deleteRelease(ctx: CoreContext, orgSlug: string, version: string): Promise<void> {
  const s = await scope(ctx, orgSlug, null, "release:delete");
  await ctx.store.deleteRelease((await existing(ctx, s, version)).id);
}
