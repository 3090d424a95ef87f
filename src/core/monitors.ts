// Cron monitors (issue 19) for the API and the dashboard: an organization's monitors with their environments and
// latest check-ins, one monitor with its check-ins, and creating, editing, muting and deleting them (monitor:write,
// as Sentry's project:write). Check-ins themselves arrive through the intake and the digest.
import { z } from "zod";
import { MONITOR_LIMITS } from "../config/limits";
import type { CheckIn, MonitorConfig, MonitorPatch, MonitorWithEnvironments } from "../storage/monitor-ports";
import type { Project } from "../storage/ports";
import { requireOrg, requireText } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import { isMonitorSlug, readMonitorConfig, slugifyMonitor } from "./monitor-config";
import { parseInput } from "./schemas";

export type MonitorView = MonitorWithEnvironments & { project: Pick<Project, "id" | "slug" | "name"> };
export type MonitorDetail = MonitorView & { checkIns: CheckIn[] };

const baseSchema = z.object({
  name: z.string().trim().min(1).max(MONITOR_LIMITS.nameMaxLength).optional(),
  slug: z.string().refine(isMonitorSlug, `lowercase letters, digits, "-" and "_", at most ${MONITOR_LIMITS.slugMaxLength} characters`).optional(),
  project: z.string().min(1).max(200).optional(),
  isMuted: z.boolean().optional(),
  status: z.enum(["active", "disabled"]).optional(),
  config: z.unknown().optional(),
});

function configOf(raw: unknown, base?: MonitorConfig): MonitorConfig {
  const read = readMonitorConfig(raw, base);
  if ("error" in read) throw new AppError("bad_request", read.error, { config: [read.error] }, true);
  return read.config;
}

async function projectsOf(ctx: CoreContext, organizationId: number, ids: number[]): Promise<Map<number, Project>> {
  const out = new Map<number, Project>();
  for (const id of new Set(ids)) {
    const p = await ctx.store.getProjectById(id);
    if (p && p.organizationId === organizationId) out.set(id, p);
  }
  return out;
}

const view = (m: MonitorWithEnvironments, projects: Map<number, Project>): MonitorView => {
  const p = projects.get(m.projectId);
  return { ...m, project: { id: m.projectId, slug: p?.slug ?? "", name: p?.name ?? "" } };
};

/** The organization's monitors, by name; `projectSlugs` narrows them. */
export async function listMonitors(ctx: CoreContext, orgSlug: string, projectSlugs: string[] = []): Promise<MonitorView[]> {
  const { org } = await requireOrg(ctx, orgSlug, "monitor:read");
  let ids: number[] | null = null;
  if (projectSlugs.length > 0) {
    ids = [];
    for (const slug of projectSlugs.slice(0, 100)) {
      const p = await ctx.store.getProjectBySlug(org.id, requireText(slug, "Project"));
      if (p) ids.push(p.id);
    }
  }
  const monitors = await ctx.store.listMonitors(org.id, ids);
  const projects = await projectsOf(
    ctx,
    org.id,
    monitors.map((m) => m.projectId),
  );
  return monitors.map((m) => view(m, projects));
}

/** The latest check-ins of each environment of these monitors (the list's timeline), newest first. */
export async function latestCheckIns(
  ctx: CoreContext,
  monitors: MonitorWithEnvironments[],
  perEnvironment: number = MONITOR_LIMITS.timelineLength,
): Promise<CheckIn[]> {
  return ctx.store.recentCheckIns(
    monitors.flatMap((m) => m.environments.map((e) => e.id)),
    perEnvironment,
  );
}

async function findMonitor(ctx: CoreContext, orgSlug: string, slug: string, permission: "monitor:read" | "monitor:write") {
  const { org } = await requireOrg(ctx, orgSlug, permission);
  const m = await ctx.store.monitorInOrganization(org.id, requireText(slug, "Monitor"));
  if (!m) throw notFound("Monitor");
  return { org, monitor: m };
}

export async function getMonitor(ctx: CoreContext, orgSlug: string, slug: string): Promise<MonitorDetail> {
  const { org, monitor } = await findMonitor(ctx, orgSlug, slug, "monitor:read");
  const projects = await projectsOf(ctx, org.id, [monitor.projectId]);
  return { ...view(monitor, projects), checkIns: await latestCheckIns(ctx, [monitor], MONITOR_LIMITS.detailCheckIns) };
}

export async function createMonitor(ctx: CoreContext, orgSlug: string, raw: unknown): Promise<MonitorView> {
  const { org } = await requireOrg(ctx, orgSlug, "monitor:write");
  const input = parseInput(baseSchema, raw);
  if (!input.name) throw new AppError("bad_request", "A monitor needs a name", { name: ["Required"] }, true);
  if (!input.project) throw new AppError("bad_request", "A monitor needs a project", { project: ["Required"] }, true);
  const project = await ctx.store.getProjectBySlug(org.id, input.project);
  if (!project) throw new AppError("bad_request", "No such project", { project: ["No such project"] }, true);
  const slug = input.slug ?? slugifyMonitor(input.name);
  if (!slug) throw new AppError("bad_request", "The name gives no slug; choose one", { slug: ["Required"] }, true);
  const created = await ctx.store.createMonitor(
    { ...configOf(input.config ?? {}), projectId: project.id, slug, name: input.name, isMuted: input.isMuted, status: input.status },
    new Date().toISOString(),
  );
  if (!created)
    throw new AppError("conflict", `The slug "${slug}" is taken in this organization, or it has ${MONITOR_LIMITS.monitorsPerOrganization} monitors`, {
      slug: ["Taken"],
    });
  return view({ ...created, environments: [] }, new Map([[project.id, project]]));
}

/** Changes name, slug, schedule and thresholds, mute or status; what the input leaves out stays. */
export async function updateMonitor(ctx: CoreContext, orgSlug: string, slug: string, raw: unknown): Promise<MonitorView> {
  const { org, monitor } = await findMonitor(ctx, orgSlug, slug, "monitor:write");
  const input = parseInput(baseSchema, raw);
  const patch: MonitorPatch = {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.slug !== undefined && { slug: input.slug }),
    ...(input.isMuted !== undefined && { isMuted: input.isMuted }),
    ...(input.status !== undefined && { status: input.status }),
    ...(input.config !== undefined && configOf(input.config, monitor)),
  };
  const updated = await ctx.store.updateMonitor(monitor.id, patch);
  if (!updated) throw new AppError("conflict", `The slug "${input.slug}" is taken in this organization`, { slug: ["Taken"] });
  const projects = await projectsOf(ctx, org.id, [updated.projectId]);
  return view({ ...updated, environments: monitor.environments }, projects);
}

export async function setMonitorMuted(ctx: CoreContext, orgSlug: string, slug: string, isMuted: boolean): Promise<MonitorView> {
  return updateMonitor(ctx, orgSlug, slug, { isMuted });
}

export async function deleteMonitor(ctx: CoreContext, orgSlug: string, slug: string): Promise<void> {
  const { monitor } = await findMonitor(ctx, orgSlug, slug, "monitor:write");
  await ctx.store.deleteMonitor(monitor.id);
}
