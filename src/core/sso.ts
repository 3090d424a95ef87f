// Single sign-on (issue 20) as the core sees it: an organization's SSO settings ("require SSO" and the domains whose
// provider-verified people join automatically, with the role they get), owners only (`org:security`) and recorded
// in the organization's audit trail; the auto-join at a person's single sign-on; the refusal of a password sign-in
// for members of an organization that requires SSO. The protocol itself is better-auth's (auth/sso.ts).
import { z } from "zod";
import { SSO_LIMITS } from "../config/limits";
import type { OrgSso } from "../storage/sso-ports";
import type { Store, User } from "../storage/ports";
import { requireOrg } from "./access";
import { audit } from "./audit";
import { actingUser, type CoreContext } from "./context";
import { AppError } from "./errors";
import { parseInput } from "./schemas";

/** better-auth's provider id of the configured OpenID Connect provider (accounts.provider_id of linked people). */
export const SSO_PROVIDER_ID = "sso";

/** A DNS name as people write their e-mail domain: labels of letters, digits and hyphens, at least two, no wildcard. */
const DOMAIN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

const domainSchema = z
  .string()
  .max(SSO_LIMITS.maxDomainLength, "A domain has at most 253 characters")
  .transform((d) => d.trim().toLowerCase().replace(/\.$/, ""))
  .refine((d) => DOMAIN.test(d), "Enter a domain such as example.com (no @, no wildcard)");

const settingsSchema = z.object({
  requireSso: z.boolean(),
  autoJoinDomains: z.array(domainSchema).max(SSO_LIMITS.maxAutoJoinDomains, `At most ${SSO_LIMITS.maxAutoJoinDomains} domains`),
  // Never owner: an owner is made by an owner, not by a domain.
  autoJoinRole: z.enum(["admin", "member", "viewer"], { error: "Choose admin, member or viewer" }),
});

/** The organization's SSO settings, for its owners. */
export async function getOrgSsoSettings(ctx: CoreContext, orgSlug: string): Promise<OrgSso> {
  const { org } = await requireOrg(ctx, orgSlug, "org:security");
  return (await ctx.store.getOrgSso(org.id)) ?? { requireSso: false, autoJoinDomains: [], autoJoinRole: "member" };
}

/**
 * Replaces the organization's SSO settings. Owners only (`org:security`). "Require SSO" needs a configured provider
 * (`ssoConfigured`) and the owner's own account linked to it first, so that nobody locks themselves out.
 */
export async function setOrgSsoSettings(ctx: CoreContext, orgSlug: string, input: unknown, ssoConfigured: boolean): Promise<OrgSso> {
  const { org } = await requireOrg(ctx, orgSlug, "org:security");
  const next = parseInput(settingsSchema, input);
  const settings: OrgSso = { ...next, autoJoinDomains: [...new Set(next.autoJoinDomains)].sort() };
  const user = actingUser(ctx);
  const old = (await ctx.store.getOrgSso(org.id)) ?? { requireSso: false, autoJoinDomains: [], autoJoinRole: "member" };
  if (settings.requireSso && !old.requireSso) {
    if (!ssoConfigured)
      throw new AppError("bad_request", "Single sign-on is not configured for this instance", {
        requireSso: ["Single sign-on is not configured for this instance"],
      });
    if (!(await ctx.store.userHasProviderAccount(user.id, SSO_PROVIDER_ID))) {
      throw new AppError("bad_request", "Sign in with single sign-on once yourself before requiring it of the organization's members", {
        requireSso: ["Sign in with single sign-on once yourself first"],
      });
    }
  }
  if (JSON.stringify(old) === JSON.stringify(settings)) return settings;
  await ctx.store.setOrgSso(org.id, settings);
  const changes: string[] = [];
  if (old.requireSso !== settings.requireSso)
    changes.push(settings.requireSso ? "required single sign-on of every member" : "stopped requiring single sign-on");
  if (old.autoJoinDomains.join() !== settings.autoJoinDomains.join() || old.autoJoinRole !== settings.autoJoinRole) {
    changes.push(settings.autoJoinDomains.length ? `auto-join for ${settings.autoJoinDomains.join(", ")} as ${settings.autoJoinRole}` : "no auto-join domains");
  }
  await audit(ctx, { organizationId: org.id, event: "org.edit", target: org.id, note: changes.join("; "), data: { settings: "sso", old, new: settings } });
  return settings;
}

/**
 * At a single sign-on: the person joins every organization auto-joining their e-mail's domain, with its role, unless
 * a member already. Only for an address the provider verified. Returns the ids of the organizations joined.
 */
export async function autoJoinOrganizations(store: Store, user: User, emailVerifiedByProvider: boolean, ip: string | null): Promise<number[]> {
  if (!emailVerifiedByProvider) return [];
  const at = user.email.lastIndexOf("@");
  if (at < 0) return [];
  const domain = user.email.slice(at + 1).toLowerCase();
  const joined: number[] = [];
  for (const { organizationId, role } of await store.listAutoJoinOrganizations(domain)) {
    if (!(await store.joinOrganization(organizationId, user.id, role))) continue;
    joined.push(organizationId);
    await audit(
      { store, actor: { user }, ip },
      {
        organizationId,
        event: "member.auto-join",
        targetUserId: user.id,
        note: `${user.email} joined as ${role} by single sign-on (domain ${domain})`,
        data: { email: user.email, role, domain },
      },
    );
  }
  return joined;
}

/** The refusal of a password sign-in for a member of an organization that requires SSO; null when allowed. */
export async function passwordSignInRefusal(store: Store, email: string): Promise<string | null> {
  const user = await store.getUserByEmail(email.toLowerCase());
  if (!user) return null;
  const orgs = await store.listSsoRequiringOrganizations(user.id);
  return orgs.length > 0 ? "This account must sign in with single sign-on" : null;
}

/** A person's first sign-in with the provider linked to their password account (the instance's security log). */
export async function recordSsoLink(store: Store, user: User, ip: string | null): Promise<void> {
  await audit(
    { store, actor: { user }, ip },
    { organizationId: null, event: "user.sso-link", targetUserId: user.id, note: `${user.email} linked single sign-on to their account` },
  );
}
