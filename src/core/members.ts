// Organization members: list, change role, remove. People join by accepting an invitation (core/invitations.ts);
// nothing adds an account to an organization without its owner.
import { z } from "zod";
import type { Member } from "../storage/ports";
import { requireId, requireOrg } from "./access";
import { audit } from "./audit";
import { actingUser, type CoreContext } from "./context";
import { AppError, forbidden, notFound } from "./errors";
import { canAssignRole } from "./permissions";
import { parseInput, roleSchema } from "./schemas";

const roleUpdateSchema = z.object({ role: roleSchema });

export async function listMembers(ctx: CoreContext, orgSlug: string): Promise<Member[]> {
  const { org } = await requireOrg(ctx, orgSlug, "member:read");
  return ctx.store.listMembers(org.id);
}

async function memberOrThrow(ctx: CoreContext, orgId: number, memberId: number): Promise<Member> {
  const m = await ctx.store.getMember(orgId, requireId(memberId, "Member"));
  if (!m) throw notFound("Member");
  return m;
}

const lastOwner = () => new AppError("conflict", "An organization needs at least one owner");

export async function updateMemberRole(ctx: CoreContext, orgSlug: string, memberId: number, input: unknown): Promise<Member> {
  const access = await requireOrg(ctx, orgSlug, "member:update");
  const { role } = parseInput(roleUpdateSchema, input);
  const target = await memberOrThrow(ctx, access.org.id, memberId);
  if (!canAssignRole(access.role, role) || !canAssignRole(access.role, target.role))
    throw forbidden("Only owners can change an owner's role or make someone an owner");
  const updated = await ctx.store.updateMemberRole(access.org.id, target.id, role);
  if (updated === "last_owner") throw lastOwner();
  if (!updated) throw notFound("Member");
  await audit(ctx, {
    organizationId: access.org.id,
    event: "member.edit",
    target: target.id,
    targetUserId: target.userId,
    note: `changed the role of ${target.email} from ${target.role} to ${role}`,
    data: { email: target.email, old: { role: target.role }, new: { role } },
  });
  return updated;
}

/** Removes a member; anyone may remove themselves (leave), except the last owner. */
export async function removeMember(ctx: CoreContext, orgSlug: string, memberId: number): Promise<void> {
  const self = await requireOrg(ctx, orgSlug, "org:read");
  const target = await memberOrThrow(ctx, self.org.id, memberId);
  if (target.userId !== actingUser(ctx).id) {
    await requireOrg(ctx, orgSlug, "member:remove");
    if (!canAssignRole(self.role, target.role)) throw forbidden("Only owners can remove an owner");
  }
  if ((await ctx.store.removeMember(self.org.id, target.id)) === "last_owner") throw lastOwner();
  const left = target.userId === actingUser(ctx).id;
  await audit(ctx, {
    organizationId: self.org.id,
    event: "member.remove",
    target: target.id,
    targetUserId: target.userId,
    note: left ? `${target.email} left` : `removed ${target.email}`,
    data: { email: target.email, role: target.role },
  });
}
