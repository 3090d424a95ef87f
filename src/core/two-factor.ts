// Two-factor sign-in (issue 20) as the core sees it: an organization's "require two-factor" (owners only, recorded in
// its audit trail), the refusal every entry point gives a person without two-factor in such an organization
// (core/access.ts), and the instance security log's entries for a person's own two-factor changes. The codes
// themselves are better-auth's (auth/two-factor.ts).
import { z } from "zod";
import { requireOrg } from "./access";
import { audit } from "./audit";
import { actingUser, type CoreContext } from "./context";
import { AppError } from "./errors";

export { isTwoFactorRequired, TWO_FACTOR_REQUIRED_MESSAGE, TwoFactorRequiredError } from "./errors";
import { parseInput } from "./schemas";

const requireSchema = z.object({ requireTwoFactor: z.boolean() });

/**
 * Turns "require two-factor" on or off. Owners only (`org:security`); turning it on needs two-factor on the owner's
 * own account first, as in Sentry, so that nobody locks themselves out of their organization.
 */
export async function setRequireTwoFactor(ctx: CoreContext, orgSlug: string, input: unknown): Promise<{ requireTwoFactor: boolean }> {
  const { org } = await requireOrg(ctx, orgSlug, "org:security");
  const { requireTwoFactor } = parseInput(requireSchema, input);
  const user = actingUser(ctx);
  if (requireTwoFactor && !(await ctx.store.userHasTwoFactor(user.id))) {
    throw new AppError("bad_request", "Turn on two-factor authentication for your own account before requiring it of the organization's members");
  }
  if (requireTwoFactor === org.requireTwoFactor) return { requireTwoFactor };
  await ctx.store.setRequireTwoFactor(org.id, requireTwoFactor);
  await audit(ctx, {
    organizationId: org.id,
    event: "org.edit",
    target: org.id,
    note: requireTwoFactor ? "required two-factor authentication of every member" : "stopped requiring two-factor authentication",
    data: { settings: "requireTwoFactor", old: { requireTwoFactor: org.requireTwoFactor }, new: { requireTwoFactor } },
  });
  return { requireTwoFactor };
}

export type TwoFactorChange = "enabled" | "disabled" | "recovery-codes";

const NOTES: Record<TwoFactorChange, string> = {
  enabled: "turned on two-factor authentication",
  disabled: "turned off two-factor authentication",
  "recovery-codes": "made new recovery codes (the old ones no longer work)",
};

/** A person's own two-factor change, in the instance's security log (after it succeeded), with how many other sessions it signed out. */
export async function recordTwoFactorChange(ctx: CoreContext, change: TwoFactorChange, otherSessionsSignedOut = 0): Promise<void> {
  const user = actingUser(ctx);
  const signedOut = otherSessionsSignedOut > 0 ? `; ${otherSessionsSignedOut} other session${otherSessionsSignedOut === 1 ? " was" : "s were"} signed out` : "";
  await audit(ctx, {
    organizationId: null,
    event: change === "enabled" ? "user.two-factor-enable" : change === "disabled" ? "user.two-factor-disable" : "user.recovery-codes",
    targetUserId: user.id,
    note: `${user.email} ${NOTES[change]}${signedOut}`,
    ...(otherSessionsSignedOut > 0 ? { data: { otherSessionsSignedOut } } : {}),
  });
}
