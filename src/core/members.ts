// Organization members: list, add (creating the account when needed), change role, remove.
import { z } from "zod";
import { isDuplicateError, type Member } from "../storage/ports";
import { requireId, requireOrg } from "./access";
import type { Accounts } from "./accounts";
import { actingUser, type CoreContext } from "./context";
import { AppError, forbidden, notFound } from "./errors";
import { canAssignRole } from "./permissions";
import { emailSchema, parseInput, passwordSchema, roleSchema } from "./schemas";

const addSchema = z.object({ email: emailSchema, role: roleSchema, password: passwordSchema.optional(), name: z.string().trim().max(64).optional() });
const roleUpdateSchema = z.object({ role: roleSchema });

export async function listMembers(ctx: CoreContext, orgSlug: string): Promise<Member[]> {
  const { org } = await requireOrg(ctx, orgSlug, "member:read");
  return ctx.store.listMembers(org.id);
}

/**
 * Adds a user to the organization. Without mail delivery, an admin creates the account on the spot:
 * a password is required when no account exists for the e-mail yet.
 */
export async function addMember(ctx: CoreContext & { accounts: Accounts }, orgSlug: string, input: unknown): Promise<Member> {
  const access = await requireOrg(ctx, orgSlug, "member:add");
  const { email, role, password, name } = parseInput(addSchema, input);
  if (!canAssignRole(access.role, role)) throw forbidden("Only owners can add owners");
  let user = await ctx.store.getUserByEmail(email);
  if (!user) {
    if (!password) throw new AppError("bad_request", "No account uses this e-mail yet: set a password to create it", { password: ["Required for a new account"] });
    user = await ctx.accounts.createUser({ email, password, name: name || email.split("@")[0] || email });
  }
  try {
    return await ctx.store.addMember({ organizationId: access.org.id, userId: user.id, role });
  } catch (err) {
    if (isDuplicateError(err)) throw new AppError("conflict", "This person is already a member", { email: ["Already a member"] });
    throw err;
  }
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
  if (!canAssignRole(access.role, role) || !canAssignRole(access.role, target.role)) throw forbidden("Only owners can change an owner's role or make someone an owner");
  const updated = await ctx.store.updateMemberRole(access.org.id, target.id, role);
  if (updated === "last_owner") throw lastOwner();
  if (!updated) throw notFound("Member");
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
}
