// Teams within an organization.
import { z } from "zod";
import { isDuplicateError, type Page, type PageRequest, type Team } from "../storage/ports";
import { requireOrg, requireText } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import { slugTaken } from "./organizations";
import { nameSchema, parseInput, slugify, slugSchema } from "./schemas";

const createSchema = z.union([z.object({ name: nameSchema, slug: slugSchema.optional() }), z.object({ slug: slugSchema, name: nameSchema.optional() })]);

export async function listTeams(ctx: CoreContext, orgSlug: string, page: PageRequest): Promise<Page<Team>> {
  const { org } = await requireOrg(ctx, orgSlug, "team:read");
  return ctx.store.listTeams(org.id, page);
}

export async function getTeam(ctx: CoreContext, orgSlug: string, teamSlug: string): Promise<Team> {
  const { org } = await requireOrg(ctx, orgSlug, "team:read");
  const team = await ctx.store.getTeamBySlug(org.id, requireText(teamSlug, "Team"));
  if (!team) throw notFound("Team");
  return team;
}

export async function createTeam(ctx: CoreContext, orgSlug: string, input: unknown): Promise<Team> {
  const access = await requireOrg(ctx, orgSlug, "team:create");
  const parsed = parseInput(createSchema, input);
  const name = parsed.name ?? parsed.slug ?? "";
  try {
    const team = await ctx.store.createTeam({ organizationId: access.org.id, slug: parsed.slug ?? slugify(name), name });
    if (access.memberId !== null) await ctx.store.addTeamMember(team.id, access.memberId);
    return { ...team, memberCount: access.memberId !== null ? 1 : 0 };
  } catch (err) {
    if (isDuplicateError(err)) throw slugTaken("team");
    throw err;
  }
}

export async function deleteTeam(ctx: CoreContext, orgSlug: string, teamSlug: string): Promise<void> {
  const { org } = await requireOrg(ctx, orgSlug, "team:delete");
  const team = await ctx.store.getTeamBySlug(org.id, requireText(teamSlug, "Team"));
  if (!team) throw notFound("Team");
  await ctx.store.deleteTeam(org.id, team.id);
}

/** Joins (or leaves) a team oneself. */
export async function setTeamMembership(ctx: CoreContext, orgSlug: string, teamSlug: string, join: boolean): Promise<void> {
  const access = await requireOrg(ctx, orgSlug, "team:join");
  if (access.memberId === null) throw new AppError("bad_request", "Only members of the organization can join its teams");
  const team = await ctx.store.getTeamBySlug(access.org.id, requireText(teamSlug, "Team"));
  if (!team) throw notFound("Team");
  if (join) await ctx.store.addTeamMember(team.id, access.memberId);
  else await ctx.store.removeTeamMember(team.id, access.memberId);
}
