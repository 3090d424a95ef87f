// Invitations to an organization by link. Faultline sends no mail yet: an owner or admin makes a link for a role and
// passes it on; whoever opens it joins, signed in or with an account made on the spot. The link's secret is shown
// once and kept only as a SHA-256 hash; a link is used once and ends after DASHBOARD_LIMITS.invitationDays.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { DASHBOARD_LIMITS } from "../config/limits";
import type { Invitation } from "../storage/dashboard-ports";
import type { Organization, Store, User } from "../storage/ports";
import { registerUser, type Accounts } from "./accounts";
import { requireId, requireOrg } from "./access";
import { actingUser, type CoreContext } from "./context";
import { AppError, forbidden, notFound } from "./errors";
import { canAssignRole } from "./permissions";
import type { Role } from "./roles";
import { parseInput, roleSchema } from "./schemas";
import { hashToken } from "./tokens";

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** The hash of a link's secret; anything not shaped like one is simply not found. */
function secretHash(secret: unknown): string {
  if (typeof secret !== "string" || !SECRET.test(secret)) throw notFound("Invitation");
  return hashToken(secret);
}

export async function createInvitation(ctx: CoreContext, orgSlug: string, input: unknown): Promise<{ invitation: Invitation; secret: string }> {
  const access = await requireOrg(ctx, orgSlug, "member:add");
  const { role } = parseInput(z.object({ role: roleSchema }), input);
  if (!canAssignRole(access.role, role)) throw forbidden("Only owners can invite owners");
  const secret = randomBytes(32).toString("base64url");
  const now = Date.now();
  const invitation = await ctx.store.createInvitation({
    organizationId: access.org.id,
    role,
    tokenHash: hashToken(secret),
    createdBy: actingUser(ctx).id,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + DASHBOARD_LIMITS.invitationDays * 86_400_000).toISOString(),
  });
  return { invitation, secret };
}

export async function listInvitations(ctx: CoreContext, orgSlug: string): Promise<Invitation[]> {
  const { org } = await requireOrg(ctx, orgSlug, "member:add");
  return ctx.store.listPendingInvitations(org.id);
}

export async function revokeInvitation(ctx: CoreContext, orgSlug: string, invitationId: number): Promise<void> {
  const { org } = await requireOrg(ctx, orgSlug, "member:add");
  if (!(await ctx.store.deleteInvitation(org.id, requireId(invitationId, "Invitation")))) throw notFound("Invitation");
}

export type InvitationPreview = { organization: Organization; role: Role; open: boolean };

/** What a link invites to, for anyone holding it (signed in or not); used and expired links say so. */
export async function previewInvitation(store: Store, secret: unknown): Promise<InvitationPreview> {
  const invitation = await store.getInvitationByHash(secretHash(secret));
  const organization = invitation ? await store.getOrganizationById(invitation.organizationId) : null;
  if (!invitation || !organization) throw notFound("Invitation");
  return { organization, role: invitation.role, open: invitation.acceptedAt === null && Date.parse(invitation.expiresAt) > Date.now() };
}

/** The signed-in user joins; returns the organization's slug. */
export async function acceptInvitation(ctx: CoreContext, secret: unknown): Promise<string> {
  return join(ctx.store, secretHash(secret), actingUser(ctx));
}

/** Someone without an account makes one through an open link and joins; the link is checked before any account exists. */
export async function acceptInvitationWithNewAccount(accounts: Accounts, store: Store, secret: unknown, input: unknown): Promise<{ user: User; orgSlug: string }> {
  const preview = await previewInvitation(store, secret);
  if (!preview.open) throw used();
  const fields = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  // Only these fields: an invitation never makes a superuser.
  const user = await registerUser(accounts, store, { email: fields.email, password: fields.password, name: fields.name || undefined });
  return { user, orgSlug: await join(store, secretHash(secret), user) };
}

const used = () => new AppError("conflict", "This invitation was used or has expired; ask for a new link");

async function join(store: Store, hash: string, user: User): Promise<string> {
  const result = await store.acceptInvitation(hash, user.id, new Date().toISOString());
  if (result === "invalid") {
    if (!(await store.getInvitationByHash(hash))) throw notFound("Invitation");
    throw used();
  }
  if (result === "already_member") throw new AppError("conflict", "You are already a member of this organization");
  const org = await store.getOrganizationById(result.organizationId);
  if (!org) throw notFound("Organization");
  return org.slug;
}
