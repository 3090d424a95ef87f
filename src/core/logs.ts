// A project's structured logs (issue 19): newest first with the search of core/log-query.ts, paged by a cursor, and
// followed live (the lines stored since the page was read); a trace's lines across the organization's projects.
// Reading logs is event:read, checked here for every entry point (page, live stream, API).
import { LOG_LIMITS } from "../config/limits";
import type { LogFilter, StoredLog } from "../storage/log-ports";
import type { Organization, Project } from "../storage/ports";
import { assertCan, requireOrg } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import { type LogQueryEcho, type LogQueryInput, readLogQuery, writeCursor } from "./log-query";
import { getProject } from "./projects";

export type LogPage = {
  org: Organization;
  project: Project;
  items: StoredLog[];
  /** The cursor of the next (older) page, when there may be one. */
  nextBefore: string | null;
  /** Whether this is the first page (the live tail adds to it). */
  first: boolean;
  /** The last line stored (of any project) when the page was read: where its live tail starts. */
  tailFrom: number;
  query: LogQueryEcho;
};

async function projectFor(ctx: CoreContext, orgSlug: string, projectSlug: string): Promise<{ org: Organization; project: Project }> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "event:read");
  return { org: access.org, project };
}

export async function listProjectLogs(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  input: LogQueryInput,
  pageSize: number = LOG_LIMITS.pageSize,
): Promise<LogPage> {
  const { org, project } = await projectFor(ctx, orgSlug, projectSlug);
  const q = readLogQuery(input);
  const filter: LogFilter = { ...q.filter, projectId: project.id };
  // Read before the page, so that a line stored in between is in the page or in the tail, never in neither.
  const tailFrom = await ctx.store.lastLogId();
  const rows = await ctx.store.listLogs(filter, pageSize + 1, q.before);
  const items = rows.slice(0, pageSize);
  const last = items[items.length - 1];
  return { org, project, items, nextBefore: rows.length > pageSize && last ? writeCursor(last) : null, first: q.before === null, tailFrom, query: q.echo };
}

/** Lines stored after `afterId` that match the page's search, oldest first; `more` when a burst left some for later. */
export async function tailProjectLogs(
  ctx: CoreContext,
  orgSlug: string,
  projectSlug: string,
  input: LogQueryInput,
  afterId: number,
): Promise<{ items: StoredLog[]; more: boolean }> {
  const { project } = await projectFor(ctx, orgSlug, projectSlug);
  const q = readLogQuery(input);
  const rows = await ctx.store.tailLogs({ ...q.filter, projectId: project.id }, afterId, LOG_LIMITS.tailBatch + 1);
  return { items: rows.slice(0, LOG_LIMITS.tailBatch), more: rows.length > LOG_LIMITS.tailBatch };
}

/** A trace's lines in the organization's projects (the trace page, the event page), oldest first. */
export async function listTraceLogs(ctx: CoreContext, orgSlug: string, traceIdParam: unknown): Promise<(StoredLog & { projectSlug: string })[]> {
  const access = await requireOrg(ctx, orgSlug, "event:read");
  const traceId = typeof traceIdParam === "string" && /^[0-9a-f]{32}$/i.test(traceIdParam) ? traceIdParam.toLowerCase() : null;
  if (!traceId) throw notFound("Trace");
  return ctx.store.traceLogs(access.org.id, traceId, LOG_LIMITS.perTrace);
}

/**
 * The API's reading of Sentry's parameters (GET …/logs/ and the events API's logs dataset): `query`, `level` or
 * `severity`, `statsPeriod` (a period), `start`/`end` (ISO), `trace`, `cursor`, `per_page` (at most
 * LOG_LIMITS.maxApiPageSize).
 */
export function apiLogQuery(p: URLSearchParams): { input: LogQueryInput; pageSize: number } {
  const perPage = p.get("per_page");
  const pageSize = perPage === null ? LOG_LIMITS.pageSize : Number(perPage);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > LOG_LIMITS.maxApiPageSize)
    throw new AppError("bad_request", `per_page must be a whole number from 1 to ${LOG_LIMITS.maxApiPageSize}`);
  const get = (k: string) => p.get(k) ?? undefined;
  return {
    input: {
      query: get("query"),
      level: get("level") ?? get("severity"),
      period: get("statsPeriod"),
      from: get("start"),
      to: get("end"),
      trace: get("trace"),
      before: get("cursor"),
    },
    pageSize,
  };
}

/** A project of the organization by its numeric id (the events API names projects so), for event:read. */
export async function projectSlugById(ctx: CoreContext, orgSlug: string, projectId: unknown): Promise<string> {
  const access = await requireOrg(ctx, orgSlug, "event:read");
  const id = typeof projectId === "string" && /^\d{1,9}$/.test(projectId) ? Number(projectId) : null;
  const project = id === null ? null : await ctx.store.getProjectById(id);
  if (!project || project.organizationId !== access.org.id) throw notFound("Project");
  return project.slug;
}

/** The live tail's starting point from a URL: a line id. */
export function readAfterId(raw: unknown): number {
  if (typeof raw !== "string" || !/^\d{1,15}$/.test(raw)) throw new AppError("bad_request", "after must be a log line id");
  return Number(raw);
}
