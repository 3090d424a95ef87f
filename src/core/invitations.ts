// Invitations to an organization. An owner or admin invites an e-mail address with a role; the link is mailed to the
// address when outgoing mail is set up (a failed mail never fails the invitation), and shown once to pass on. Only the account with that address joins through it: signed in, or, when the address has
// no account yet, with one made there for that address. This is the only way into an organization besides creating
// one, and apart from the first-run setup, the CLI and a superuser's instance settings, the only way an account comes
// to be, so nobody can make an account for someone else's address with a password of their choosing, or add an
// account without its owner. Inviting answers the same whether the address has an account or not. The link's secret
// is shown once and kept only as a SHA-256 hash; a link is used once and ends after DASHBOARD_LIMITS.invitationDays.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { DASHBOARD_LIMITS } from "../config/limits";
import { invitationMail, type Site } from "../mail/account-mail";
import type { Mailer } from "../mail/mailer";
import type { Invitation } from "../storage/dashboard-ports";
import type { Organization, Store, User } from "../storage/ports";
import type { Accounts } from "./accounts";
import { requireId, requireOrg } from "./access";
import { audit } from "./audit";
import { actingUser, type CoreContext } from "./context";
import { AppError, forbidden, notFound } from "./errors";
import { canAssignRole } from "./permissions";
import type { Role } from "./roles";
import { emailSchema, nameSchema, parseInput, passwordSchema, roleSchema } from "./schemas";
import { hashToken } from "./tokens";

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** The hash of a link's secret; anything not shaped like one is simply not found. */
function secretHash(secret: unknown): string {
  if (typeof secret !== "string" || !SECRET.test(secret)) throw notFound("Invitation");
  return hashToken(secret);
}

const inviteSchema = z.object({ email: emailSchema, role: roleSchema });
const newAccountSchema = z.object({ password: passwordSchema, name: nameSchema.optional() });

/** How to mail the link: the mailer, the inviter's language (the mail's), the site, and the link for a secret. */
export type InvitationMailing = { mailer: Mailer; locale: string; site: Site; link: (secret: string) => string };

/** What became of the mail: sent (with the SMTP server's answer), failed (why, without secrets), or no mail set up. */
export type InvitationMailOutcome = { status: "sent"; response: string } | { status: "failed"; error: string } | { status: "unavailable" };

/**
 * Invites an address (replacing an open invitation of the same address), and mails the link when `mailing` is given
 * and mail is available. The answer is the same whether the address has an account or not; only an address already
 * among the members is refused, which the member list shows anyway.
 */
export async function createInvitation(
  ctx: CoreContext,
  orgSlug: string,
  input: unknown,
  mailing?: InvitationMailing,
): Promise<{ invitation: Invitation; secret: string; mail: InvitationMailOutcome }> {
  const access = await requireOrg(ctx, orgSlug, "member:add");
  const { email, role } = parseInput(inviteSchema, input);
  if (!canAssignRole(access.role, role)) throw forbidden("Only owners can invite owners");
  const secret = randomBytes(32).toString("base64url");
  const now = Date.now();
  const invitation = await ctx.store.createInvitation({
    organizationId: access.org.id,
    email,
    role,
    tokenHash: hashToken(secret),
    createdBy: actingUser(ctx).id,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + DASHBOARD_LIMITS.invitationDays * 86_400_000).toISOString(),
  });
  if (invitation === "already_member") throw new AppError("conflict", "This person is already a member", { email: ["Already a member"] });
  await audit(ctx, {
    organizationId: access.org.id,
    event: "member.invite",
    target: invitation.id,
    note: `invited ${email} as ${role}`,
    data: { email, role },
  });
  const mail = mailing
    ? await mailInvitation(mailing, { email, role, org: access.org.name, inviter: actingUser(ctx).name || actingUser(ctx).email, secret })
    : ({ status: "unavailable" } as const);
  return { invitation, secret, mail };
}

async function mailInvitation(
  m: InvitationMailing,
  i: { email: string; role: Role; org: string; inviter: string; secret: string },
): Promise<InvitationMailOutcome> {
  if (!m.mailer.available) return { status: "unavailable" };
  try {
    const sent = await m.mailer.send({
      to: i.email,
      ...invitationMail(m.locale, m.site, { email: i.email, role: i.role, org: i.org, inviter: i.inviter, link: m.link(i.secret) }),
    });
    return { status: "sent", response: sent.response };
  } catch (err) {
    return { status: "failed", error: err instanceof Error ? err.message : "Sending failed" };
  }
}

export async function listInvitations(ctx: CoreContext, orgSlug: string): Promise<Invitation[]> {
  const { org } = await requireOrg(ctx, orgSlug, "member:add");
  return ctx.store.listPendingInvitations(org.id);
}

export async function revokeInvitation(ctx: CoreContext, orgSlug: string, invitationId: number): Promise<void> {
  const { org } = await requireOrg(ctx, orgSlug, "member:add");
  const id = requireId(invitationId, "Invitation");
  const invitation = (await ctx.store.listPendingInvitations(org.id)).find((i) => i.id === id);
  if (!(await ctx.store.deleteInvitation(org.id, id))) throw notFound("Invitation");
  await audit(ctx, {
    organizationId: org.id,
    event: "invite.revoke",
    target: id,
    note: `revoked the invitation of ${invitation?.email ?? "a link"}`,
    data: { email: invitation?.email ?? null, role: invitation?.role ?? null },
  });
}

export type InvitationPreview = { organization: Organization; role: Role; email: string; open: boolean };

/** What a link invites to and whom, for anyone holding it (signed in or not); used and expired links say so. */
export async function previewInvitation(store: Store, secret: unknown): Promise<InvitationPreview> {
  const invitation = await store.getInvitationByHash(secretHash(secret));
  const organization = invitation ? await store.getOrganizationById(invitation.organizationId) : null;
  if (!invitation || !organization) throw notFound("Invitation");
  const open = invitation.email !== null && invitation.acceptedAt === null && Date.parse(invitation.expiresAt) > Date.now();
  return { organization, role: invitation.role, email: invitation.email ?? "", open };
}

/** The signed-in user joins, if theirs is the invited address; returns the organization's slug. */
export async function acceptInvitation(ctx: CoreContext, secret: unknown): Promise<string> {
  return join(ctx.store, secretHash(secret), actingUser(ctx), ctx.ip ?? null);
}

/**
 * Someone signed out holds an open link. When the invited address has no account yet, one is made for that address
 * (never another, never a superuser) with the password given, and joins: `joined` is the organization's slug. When the
 * address has an account, nothing changes (`joined` null): the caller signs in with the address and the password
 * given, through the sign-in's own checks and rate limit, and accepts as that account. The input is checked first,
 * so a malformed password is answered alike either way.
 */
export async function joinWithNewAccount(
  accounts: Accounts,
  store: Store,
  secret: unknown,
  input: unknown,
  ip: string | null = null,
): Promise<{ email: string; joined: string | null }> {
  const { password, name } = parseInput(newAccountSchema, input);
  const preview = await previewInvitation(store, secret);
  if (!preview.open) throw used();
  const email = preview.email;
  if (await store.getUserByEmail(email)) return { email, joined: null };
  let user: User;
  try {
    user = await accounts.createUser({ email, password, name: name ?? email.split("@")[0] ?? email });
  } catch (err) {
    // Made at the same moment through another link to the same address: that account is the one.
    if (await store.getUserByEmail(email)) return { email, joined: null };
    throw err;
  }
  return { email, joined: await join(store, secretHash(secret), user, ip) };
}

const used = () => new AppError("conflict", "This invitation was used or has expired; ask for a new link");

async function join(store: Store, hash: string, user: User, ip: string | null): Promise<string> {
  const result = await store.acceptInvitation(hash, user.id, new Date().toISOString());
  if (result === "invalid") {
    if (!(await store.getInvitationByHash(hash))) throw notFound("Invitation");
    throw used();
  }
  if (result === "already_member") throw new AppError("conflict", "You are already a member of this organization");
  if (result === "other_address") throw forbidden("This invitation is for another e-mail address: sign in with that address to accept it");
  const org = await store.getOrganizationById(result.organizationId);
  if (!org) throw notFound("Organization");
  const role = (await store.getMembership(org.id, user.id))?.role ?? null;
  await audit(
    { store, actor: { user }, ip },
    {
      organizationId: org.id,
      event: "member.accept-invite",
      targetUserId: user.id,
      note: `${user.email} joined as ${role ?? "member"}`,
      data: { email: user.email, role },
    },
  );
  return org.slug;
}
