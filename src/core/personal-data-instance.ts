// A person's data across the whole install (issue 18), for superusers: the same exact search as an organization's
// "Personal data" settings (core/personal-data.ts), over every project of every organization. Export and erasure stay
// per organization, where they are recorded; the instance page links there. To anyone else there is nothing here.
import { PERSONAL_DATA_LIMITS } from "../config/limits";
import type { Organization, Project } from "../storage/ports";
import { USER_FIELDS, type UserField } from "../storage/user-data-ports";
import { actingUser, type CoreContext } from "./context";
import { notFound } from "./errors";
import { type PersonMatch, type PersonSearch, personSearchSchema } from "./personal-data";
import { parseInput } from "./schemas";

export type InstancePersonMatch = PersonMatch & { organizationSlug: string; organizationName: string };

async function allProjects(ctx: CoreContext): Promise<Project[]> {
  const out: Project[] = [];
  let cursor: string | null = null;
  do {
    const page = await ctx.store.listProjects({ scope: { all: true }, page: { limit: 500, cursor } });
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

export async function findPersonEverywhere(ctx: CoreContext, input: unknown): Promise<{ search: PersonSearch; matches: InstancePersonMatch[]; more: boolean }> {
  if (!actingUser(ctx).isSuperuser) throw notFound("Page");
  const search = parseInput(personSearchSchema, input);
  const fields: readonly UserField[] = search.field === "any" ? USER_FIELDS : [search.field];
  const projects = new Map((await allProjects(ctx)).map((p) => [p.id, p]));
  const found = await ctx.store.findUserEvents("all", fields, search.value, PERSONAL_DATA_LIMITS.listed + 1);
  const orgs = new Map<number, Organization | null>();
  const matches: InstancePersonMatch[] = [];
  for (const m of found.slice(0, PERSONAL_DATA_LIMITS.listed)) {
    const p = projects.get(m.projectId);
    if (!p) continue;
    if (!orgs.has(p.organizationId)) orgs.set(p.organizationId, await ctx.store.getOrganizationById(p.organizationId));
    const org = orgs.get(p.organizationId);
    if (!org) continue;
    matches.push({ ...m, projectSlug: p.slug, projectName: p.name, organizationSlug: org.slug, organizationName: org.name });
  }
  return { search, matches, more: found.length > PERSONAL_DATA_LIMITS.listed };
}
